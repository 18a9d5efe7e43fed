/**
 * A thin adapter over @ton/sandbox's WASM `Executor`: the real TON transaction and get-method
 * emulator, without sandbox's `Blockchain` model. It runs inside the emulator worker threads
 * (emulator-worker.ts); the rest of the chain talks to it through emulator-pool.ts, so no emulation
 * ever runs on the thread that serves HTTP.
 *
 * Why not `executor.runTransaction()` / `runGetMethod()` as they are: they re-serialize their inputs
 * on every call. Measured on this machine, serializing the PREVBLOCKSINFO tuple (16 block ids) costs
 * ~4 ms per call with @ton/core's serializeTuple, 3x the emulation itself, and the code/data cells
 * are turned into BoCs again for every get-method. This adapter takes ready base64 strings (cached by
 * the caller per block / per account state) and calls the emulator's exported C functions directly
 * (`_emulate_with_emulator`, `_run_get_method`), with one emulator instance per config (so two
 * networks sharing one Executor do not rebuild each other's emulator on every switch), and the config
 * string kept in the emulator's memory instead of copied in for every get-method.
 *
 * Coupling: it relies on the emscripten module the Executor holds (its `module` field) and on the
 * emulator's C exports, as @ton/sandbox 0.41 builds them; test/chain covers both paths, so an upgrade
 * that changes them fails loudly there.
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Executor } from '@ton/sandbox/dist/executor/Executor.js';

const require = createRequire(import.meta.url);

/** One WASM module per thread, created on first use, shared by every emulator of the thread. */
let sharedExecutor: Promise<LoadedExecutor> | undefined;

/** The executor, and its compiled WASM module (another thread of the process instantiates it without compiling). */
export interface LoadedExecutor {
  executor: Executor;
  compiled: WebAssembly.Module;
}

/**
 * `compiled`: the module another emulator thread of this process compiled (posted to this one: the code is
 * shared, not copied), instantiated here as is; absent, the binary is compiled here.
 */
export function loadExecutorAndModule(compiled?: WebAssembly.Module): Promise<LoadedExecutor> {
  sharedExecutor ??= createExecutor(compiled);
  return sharedExecutor;
}

export async function loadExecutor(): Promise<Executor> {
  return (await loadExecutorAndModule()).executor;
}

/** The emulator's WASM binary, as sandbox ships it (base64 in a JS file), decoded by Buffer. */
function wasmBinary(): Buffer<ArrayBuffer> {
  const { EmulatorEmscriptenWasm } = require('@ton/sandbox/dist/executor/emulator-emscripten.wasm.js') as {
    EmulatorEmscriptenWasm: string;
  };
  return Buffer.from(EmulatorEmscriptenWasm, 'base64');
}

type Instantiate = (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;

/**
 * `Executor.create()`, with three differences measured on wallet transfers:
 *  - the WASM binary is decoded by Buffer instead of sandbox's JS base64 decoder: 0.15-0.3 s less per
 *    worker start (~0.4 s of CPU down to ~0.25 s);
 *  - V8 compiles the whole module with its optimizing tier right away (in the background), instead
 *    of tiering each function up once it is hot: the first few thousand transactions of a worker
 *    otherwise run ~30 % slower (`--no-wasm-dynamic-tiering`, process-wide, set before compiling);
 *  - the function table remembers its entries (mirrorFunctionTable);
 *  - a module another emulator thread compiled is instantiated as it is (its code is shared across the process's
 *    threads): one compilation per process instead of one per worker (~0.2 s of CPU each, at every start).
 * It builds the same emscripten module from the same files `create()` uses, through emscripten's
 * `instantiateWasm` hook (more coupling to sandbox 0.41's layout, covered by every chain test).
 */
async function createExecutor(compiled?: WebAssembly.Module): Promise<LoadedExecutor> {
  const emulatorModule = require('@ton/sandbox/dist/executor/emulator-emscripten.js') as (options: {
    instantiateWasm: Instantiate;
  }) => Promise<unknown>;
  setFlagsFromString('--no-wasm-dynamic-tiering');
  let failed!: (err: unknown) => void;
  const instantiationFailed = new Promise<never>((_, reject) => (failed = reject));
  let module!: WebAssembly.Module;
  const instantiated = (
    instance: WebAssembly.Instance,
    wasm: WebAssembly.Module,
    receive: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
  ) => {
    module = wasm;
    mirrorFunctionTable(instance);
    receive(instance, wasm);
  };
  const emscripten = await Promise.race([
    emulatorModule({
      instantiateWasm: (imports, receive) => {
        (compiled
          ? WebAssembly.instantiate(compiled, imports).then((instance) => instantiated(instance, compiled, receive))
          : WebAssembly.instantiate(wasmBinary(), imports).then(({ instance, module: wasm }) => instantiated(instance, wasm, receive))
        ).catch(failed);
        return {}; // emscripten's signal that instantiation is asynchronous
      },
    }),
    instantiationFailed,
  ]);
  // The constructor is private in the typings only: create() does exactly this.
  return { executor: new (Executor as unknown as new (module: unknown) => Executor)(emscripten), compiled: module };
}

/**
 * The emulator is built with emscripten's JS exception handling: every C++ call that may throw goes
 * through a JS trampoline that looks its target up with `WebAssembly.Table.prototype.get`, which V8
 * does not make cheap: ~10 % of a transaction's emulation here. The table never changes after
 * instantiation (this build has no `addFunction`), so an own `get` remembering what it returned is
 * exact.
 */
function mirrorFunctionTable(instance: WebAssembly.Instance): void {
  for (const value of Object.values(instance.exports)) {
    if (!(value instanceof WebAssembly.Table)) continue;
    const table = value;
    // Copied whole (~9,000 entries, ~5 ms once): a dense array is the cheapest lookup there is.
    const entries = Array.from({ length: table.length }, (_, index) => table.get(index) as unknown);
    Object.defineProperty(table, 'get', { value: (index: number) => entries[index] });
  }
}

export type { Executor };

/** The emscripten module inside sandbox's Executor: the emulator's C API and its memory helpers. */
interface EmulatorModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  lengthBytesUTF8(text: string): number;
  stringToUTF8(text: string, ptr: number, maxBytes: number): void;
  UTF8ToString(ptr: number): string;
  _create_emulator(config: number, verbosity: number): number;
  _destroy_emulator(emulator: number): void;
  _emulate_with_emulator(emulator: number, libs: number, shardAccount: number, message: number, params: number): number;
  _run_get_method(params: number, stack: number, config: number): number;
}

export interface TxRunArgs {
  /** ShardAccount BoC, base64. */
  shardAccount: string;
  /** Message BoC, base64. */
  message: string;
  now: number;
  lt: bigint;
  /** 32 bytes as 64 hex characters. */
  randSeedHex: string;
  ignoreChksig: boolean;
  /** The serialized PREVBLOCKSINFO stack entry (base64 BoC), or undefined to leave it out. */
  prevBlocksInfo?: string;
  /** Library dictionary BoC (base64), or undefined for none. */
  libs?: string;
}

export type TxRunResult =
  | { success: true; transaction: string; shardAccount: string; actions: string | null }
  | { success: false; error: string; exitCode?: number; vmLog?: string };

export interface GetRunArgs {
  code: string;
  data: string;
  /** Friendly or raw form: the emulator only parses it. */
  address: string;
  balance: bigint;
  methodId: number;
  /** VmStack BoC (base64). */
  stack: string;
  unixTime: number;
  randSeedHex: string;
  gasLimit: bigint;
  prevBlocksInfo?: string;
  libs?: string;
}

export type GetRunResult =
  { success: true; stack: string; gasUsed: bigint; exitCode: number; missingLibrary: string | null } | { success: false; error: string };

/** The emulator bound to one blockchain config. */
export class Emulator {
  private readonly m: EmulatorModule;
  /** The config as a C string in the emulator's memory, for the life of this emulator. */
  private readonly configPtr: number;
  private readonly emulatorPtr: number;
  private closed = false;

  constructor(executor: Executor, configBase64: string) {
    this.m = (executor as unknown as { module: EmulatorModule }).module;
    this.configPtr = this.cString(configBase64);
    // verbosity 0 ("short"): no VM log is produced or copied out.
    this.emulatorPtr = this.m._create_emulator(this.configPtr, 0);
    if (!this.emulatorPtr) {
      this.m._free(this.configPtr);
      throw new Error('the TON emulator refused the blockchain config');
    }
  }

  static async create(configBase64: string): Promise<Emulator> {
    return new Emulator(await loadExecutor(), configBase64);
  }

  runTransaction(args: TxRunArgs): TxRunResult {
    this.assertOpen();
    const params: Record<string, unknown> = {
      utime: args.now,
      lt: args.lt.toString(),
      rand_seed: args.randSeedHex,
      ignore_chksig: args.ignoreChksig,
      debug_enabled: false,
    };
    if (args.prevBlocksInfo !== undefined) params.prev_blocks_info = args.prevBlocksInfo;
    const resp = this.call([args.libs, args.shardAccount, args.message, JSON.stringify(params)], ([libs, account, message, json]) =>
      this.m._emulate_with_emulator(this.emulatorPtr, libs, account, message, json),
    );
    const out = resp.output as Record<string, unknown>;
    if (out.success === true) {
      return {
        success: true,
        transaction: out.transaction as string,
        shardAccount: out.shard_account as string,
        actions: (out.actions as string | null | undefined) ?? null,
      };
    }
    return {
      success: false,
      error: String(out.error ?? 'unknown emulation error'),
      exitCode: typeof out.vm_exit_code === 'number' ? out.vm_exit_code : undefined,
      vmLog: typeof out.vm_log === 'string' ? out.vm_log : undefined,
    };
  }

  runGetMethod(args: GetRunArgs): GetRunResult {
    this.assertOpen();
    const params: Record<string, unknown> = {
      code: args.code,
      data: args.data,
      verbosity: 0,
      libs: args.libs ?? '',
      address: args.address,
      unixtime: args.unixTime,
      balance: args.balance.toString(),
      rand_seed: args.randSeedHex,
      gas_limit: args.gasLimit.toString(),
      method_id: args.methodId,
      debug_enabled: false,
    };
    if (args.prevBlocksInfo !== undefined) params.prev_blocks_info = args.prevBlocksInfo;
    const resp = this.call([JSON.stringify(params), args.stack], ([json, stack]) => this.m._run_get_method(json, stack, this.configPtr));
    const out = resp.output as Record<string, unknown>;
    if (out.success === true) {
      return {
        success: true,
        stack: out.stack as string,
        gasUsed: BigInt(out.gas_used as string | number),
        exitCode: out.vm_exit_code as number,
        missingLibrary: (out.missing_library as string | null | undefined) ?? null,
      };
    }
    return { success: false, error: String(out.error ?? 'unknown get-method error') };
  }

  /** Frees the emulator instance (the shared WASM module stays for other chains). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.m._destroy_emulator(this.emulatorPtr);
    this.m._free(this.configPtr);
  }

  /** A copy of `text` as a NUL-terminated string in the emulator's memory; the caller frees it. */
  private cString(text: string): number {
    const size = this.m.lengthBytesUTF8(text) + 1;
    const ptr = this.m._malloc(size);
    this.m.stringToUTF8(text, ptr, size);
    return ptr;
  }

  /**
   * Runs one emulator call on `strings` copied into its memory (undefined = a null pointer) and
   * returns its parsed JSON answer; the copies and the answer's memory are freed.
   */
  private call(strings: Array<string | undefined>, run: (ptrs: number[]) => number): { output: unknown; fail?: boolean; message?: string } {
    const ptrs = strings.map((text) => (text === undefined ? 0 : this.cString(text)));
    let answer: string;
    try {
      const out = run(ptrs);
      answer = this.m.UTF8ToString(out);
      this.m._free(out);
    } finally {
      for (const ptr of ptrs) if (ptr !== 0) this.m._free(ptr);
    }
    const resp = JSON.parse(answer);
    // `fail` means the arguments themselves were unusable (e.g. a BoC the emulator could not parse).
    if (resp.fail) return { output: { success: false, error: String(resp.message ?? resp.error ?? 'emulator call failed') } };
    return resp;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('emulator is closed');
  }
}
