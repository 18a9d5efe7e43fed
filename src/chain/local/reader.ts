/**
 * Reads for the API layers. The visible state is the last sealed block (the chain head); reads
 * "as of" an older masterchain seqno go to the stored history. Nothing here changes the chain.
 */
import { Address, Cell, serializeTuple, type TupleItem } from '@ton/core';
import { getSelectorForMethod } from '@ton/sandbox/dist/utils/selector.js';
import type { Clock } from '../../util/clock.js';
import {
  type AccountState,
  type Block,
  type BlockId,
  type BlockLookup,
  type BlockRef,
  type BlockTransactionQuery,
  type BlockTransactions,
  type ChainMessage,
  type ChainTransaction,
  type EmulationResult,
  type ExternalToEmulate,
  type GetMethodOptions,
  type GetMethodResult,
  type Library,
  type MasterchainInfo,
  type EmulatedTrace,
  type TraceEmulationOptions,
  type TransactionQuery,
} from '../types.js';
import type { SealedAccounts } from './accounts.js';
import { BASECHAIN, MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import { ChainHead, type BlockIndex } from './blocks.js';
import type { ChainConfig } from './chain-config.js';
import { configContractAddress, readConfigContractData } from './system-accounts.js';
import type { PublicLibraries } from './libraries.js';
import { GET_METHOD_MAX_STACK_DEPTH } from '../emulator/emulator-limits.js';
import { ChainInputError, GetMethodFailed, NotFound } from '../errors.js';
import { BadStack } from './errors.js';
import { emulationResult, externalToEmulate } from '../emulation.js';
import { emulateTrace } from '../trace-emulation.js';
import type { GetRunResult } from '../emulator/emulator.js';
import { nextAlignedLt } from './open-block.js';
import { messageFromRecord, transactionFromRow } from './records.js';
import type { ChainStore } from './store.js';

const EMPTY_STACK = serializeTuple([]);
const EMPTY_STACK_BASE64 = EMPTY_STACK.toBoc().toString('base64');
const MAX_LT = (1n << 63n) - 1n;

/** The argument stack as the emulator takes it, refused when it is deeper than the emulator can take. */
function emulatorStack(stack: TupleItem[]): string {
  let root: Cell;
  try {
    root = serializeTuple(stack);
  } catch (err) {
    throw new BadStack(`stack: cannot be serialized (${(err as Error).message})`);
  }
  if (root.depth() > GET_METHOD_MAX_STACK_DEPTH) {
    throw new BadStack(
      `stack: its cells nest ${root.depth()} levels deep, the local emulator takes at most ${GET_METHOD_MAX_STACK_DEPTH} (fewer entries or shallower cells)`,
    );
  }
  return root.toBoc().toString('base64');
}
/** The emulator's stack, or undefined when it cannot take it (emulatorStack says why). */
function stackUnlessBad(stack: TupleItem[]): string | undefined {
  if (stack.length === 0) return EMPTY_STACK_BASE64;
  try {
    return emulatorStack(stack);
  } catch (err) {
    if (err instanceof BadStack) return undefined;
    throw err;
  }
}

/**
 * Bytes that cross to a worker by themselves: a Buffer that is a slice of a larger allocation (Node's pool)
 * would take the whole allocation with it.
 */
function ownBytes(bytes: Buffer): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/**
 * The result of a successful run. The stack stays the emulator's BoC until someone reads `stackBoc` (the index's
 * relay never does: it passes `stackBase64` on).
 */
function answer(
  address: Address,
  method: string | number,
  base: Pick<GetMethodResult, 'block' | 'lastTxLt' | 'lastTxHash'>,
  result: GetRunResult,
): GetMethodResult {
  if (!result.success) throw new GetMethodFailed(`get-method ${method} on ${address.toRawString()}: ${result.error}`);
  const stackBase64 = result.stack;
  let stackBoc: Cell | undefined;
  const answered = { ...base, exitCode: result.exitCode, gasUsed: result.gasUsed, stackBase64 } as GetMethodResult;
  Object.defineProperty(answered, 'stackBoc', { enumerable: true, get: () => (stackBoc ??= Cell.fromBase64(stackBase64)) });
  return answered;
}

/** TVM exit code toncenter reports for a get-method on an account without code. */
const NOT_ACTIVE_EXIT_CODE = -13;

export interface ReaderDeps {
  store: ChainStore;
  blocks: BlockIndex;
  head: ChainHead;
  sealed: SealedAccounts;
  /** The config now and its emulator. */
  config: ChainConfig;
  libraries: PublicLibraries;
  clock: Clock;
  getMethodGasLimit: bigint;
}

export class ChainReader {
  constructor(private readonly d: ReaderDeps) {}

  private get visible(): number {
    return this.d.head.seqno;
  }

  /** The masterchain seqno a read is pinned to: the head, or an existing older one. */
  private pin(mcSeqno: number | undefined): number {
    const visible = this.visible;
    if (mcSeqno === undefined) return visible;
    if (!Number.isSafeInteger(mcSeqno) || mcSeqno < 0 || mcSeqno > visible) {
      throw new NotFound(`masterchain block ${mcSeqno} not found (the last one is ${visible})`);
    }
    return mcSeqno;
  }

  masterchainInfo(): MasterchainInfo {
    const { head } = this.d;
    return { last: head.mc, first: head.first, stateRootHash: head.mc.stateRootHash };
  }

  getBlock(ref: BlockRef): Block | undefined {
    if (ref.shard !== WHOLE_SHARD) return undefined;
    return this.d.blocks.get(ref.workchain, ref.seqno, this.visible);
  }

  lookupBlock(q: BlockLookup): Block | undefined {
    const given = [q.seqno, q.lt, q.utime].filter((v) => v !== undefined).length;
    if (given !== 1) throw new ChainInputError('lookupBlock: give exactly one of seqno, lt, utime');
    if (q.shard !== WHOLE_SHARD || (q.workchain !== MASTERCHAIN && q.workchain !== BASECHAIN)) return undefined;
    const visible = this.visible;
    if (q.seqno !== undefined) return this.d.blocks.get(q.workchain, q.seqno, visible);
    const row =
      q.lt !== undefined ? this.d.store.blockByLt(q.workchain, q.lt, visible) : this.d.store.blockByUtime(q.workchain, q.utime!, visible);
    return row && this.d.blocks.fromRow(row);
  }

  shardsAt(mcSeqno: number): BlockId[] {
    const mc = this.d.blocks.get(MASTERCHAIN, this.pin(mcSeqno), this.visible);
    return mc?.shardBlocks ?? [];
  }

  private getAccountView(address: Address, seqno: number) {
    return this.d.sealed.get(address, seqno, seqno === this.visible);
  }

  getAccount(address: Address, mcSeqno?: number): AccountState {
    const seqno = this.pin(mcSeqno);
    const view = this.getAccountView(address, seqno);
    const block = this.d.blocks.get(MASTERCHAIN, seqno, this.visible)!;
    return view.accountState(address, block.id, block.genUtime);
  }

  getTransactions(address: Address, q: TransactionQuery): ChainTransaction[] {
    if (!Number.isSafeInteger(q.limit) || q.limit < 1) throw new ChainInputError('limit: must be a positive integer');
    const visible = this.visible;
    const { store } = this.d;
    if (q.lt !== undefined && q.hash !== undefined) {
      const start = store.transactionAt(address.workChain, address.hash, q.lt, visible);
      if (!start || !start.hash.equals(q.hash)) {
        throw new NotFound(`transaction lt ${q.lt} hash ${q.hash.toString('hex')} not found on ${address.toRawString()}`);
      }
    }
    const rows = store.accountTransactions(address.workChain, address.hash, q.lt ?? MAX_LT, q.toLt ?? -1n, q.limit, visible);
    return rows.map(transactionFromRow);
  }

  getTransaction(hash: Buffer): ChainTransaction | undefined {
    const row = this.d.store.transaction(hash, this.visible);
    return row && transactionFromRow(row);
  }

  getTransactionsByMessage(msgHash: Buffer): ChainTransaction[] {
    return this.d.store.transactionsByMessage(msgHash, this.visible).map(transactionFromRow);
  }

  getMessage(hash: Buffer): ChainMessage | undefined {
    const visible = this.visible;
    const row = this.d.store.message(hash, visible) ?? this.d.store.messagesByNormHash(hash, visible)[0];
    return row && messageFromRecord(row, row.mcSeqno);
  }

  blockTransactions(ref: BlockRef, q: BlockTransactionQuery): BlockTransactions {
    if (!Number.isSafeInteger(q.count) || q.count < 1) throw new ChainInputError('count: must be a positive integer');
    const block = this.getBlock(ref);
    if (!block) throw new NotFound(`block (${ref.workchain}, ${ref.shard.toString(16)}, ${ref.seqno}) not found`);
    const rows = this.d.store.blockTransactions(
      ref.workchain,
      ref.seqno,
      q.afterAccount ?? Buffer.alloc(0),
      q.afterLt ?? -1n,
      q.count + 1,
      this.visible,
    );
    return { transactions: rows.slice(0, q.count).map(transactionFromRow), incomplete: rows.length > q.count };
  }

  /**
   * Everything but the emulation happens here, synchronously, so the read is pinned to the state as
   * it is now; the emulation runs on a read worker (emulator-pool.ts) while blocks keep coming.
   *
   * The head's states are parsed here and kept (SealedAccounts: the next call on the account is ready). A state
   * as of an older block is read by nobody else: its stored bytes go to the worker, which parses them
   * (state-get-method.ts), so this thread (which also produces blocks) only finds the row.
   */
  async runGetMethod(
    address: Address,
    method: string | number,
    stack: TupleItem[],
    mcSeqno?: number,
    options: GetMethodOptions = {},
  ): Promise<GetMethodResult> {
    const seqno = this.pin(mcSeqno);
    const latest = seqno === this.visible;
    const block = this.d.blocks.get(MASTERCHAIN, seqno, this.visible)!;
    if (!latest) {
      const stored = this.d.store.accountState(address.workChain, address.hash, seqno);
      // No state (-13 without a call) and a stack the emulator cannot take (refused only when the account can run
      // code) are answered by the path below, as before.
      const stackBase64 = stored && stackUnlessBad(stack);
      if (stored && stackBase64 !== undefined) return this.runOnStoredState(address, method, stackBase64, block, stored.boc, options.nice);
    }
    const view = this.d.sealed.get(address, seqno, latest);
    const base = { block: block.id, lastTxLt: view.lastTxLt, lastTxHash: view.lastTxHash };
    const runnable = view.runnable();
    if (!runnable) return { ...base, exitCode: NOT_ACTIVE_EXIT_CODE, gasUsed: 0n, stackBoc: EMPTY_STACK };
    const result = await this.d.config.emulator.runGetMethod(
      {
        ...runnable,
        balance: view.balance,
        ...this.getRunArgs(address, method, stack.length === 0 ? EMPTY_STACK_BASE64 : emulatorStack(stack), block),
      },
      options.nice,
    );
    return answer(address, method, base, result);
  }

  /** A get-method on a state the caller holds (an account as a pending trace left it), at the last sealed block. */
  runGetMethodOnState(address: Address, shardAccount: string, method: string, stack: TupleItem[]): Promise<GetMethodResult> {
    return this.runOnStoredState(address, method, emulatorStack(stack), this.d.head.mc, Buffer.from(shardAccount, 'base64'));
  }

  private async runOnStoredState(
    address: Address,
    method: string | number,
    stack: string,
    block: Block,
    boc: Buffer,
    nice?: number,
  ): Promise<GetMethodResult> {
    const result = await this.d.config.emulator.runGetMethodOnState(
      { ...this.getRunArgs(address, method, stack, block), shardAccount: ownBytes(boc) },
      nice,
    );
    const base = {
      block: block.id,
      lastTxLt: result.lastTxLt,
      lastTxHash: Buffer.from(result.lastTxHash.buffer, result.lastTxHash.byteOffset, result.lastTxHash.byteLength),
    };
    if (!result.run) return { ...base, exitCode: NOT_ACTIVE_EXIT_CODE, gasUsed: 0n, stackBoc: EMPTY_STACK };
    return answer(address, method, base, result.run);
  }

  /** What a get-method call needs besides the account, as of masterchain block `block`. */
  private getRunArgs(address: Address, method: string | number, stack: string, block: Block) {
    return {
      address: address.toRawString(),
      methodId: typeof method === 'number' ? method : getSelectorForMethod(method),
      stack,
      unixTime: block.genUtime,
      randSeedHex: block.randSeed.toString('hex'),
      gasLimit: this.d.getMethodGasLimit,
      prevBlocksInfo: this.d.head.prevBlocksInfoAt(block.id, this.d.blocks),
      libs: this.d.libraries.emulatorLibs ?? undefined,
    };
  }

  async emulateExternal(message: ExternalToEmulate, options: { ignoreChksig?: boolean } = {}): Promise<EmulationResult> {
    const { dest, boc } = externalToEmulate(message);
    const { head } = this.d;
    const view = this.d.sealed.get(dest, head.seqno, true);
    const result = await this.d.config.emulator.emulateTransaction({
      shardAccount: view.shardAccountBase64(),
      message: boc,
      now: Math.max(head.mc.genUtime, Math.floor(this.d.clock.now() / 1000)),
      lt: nextAlignedLt(head.mc.endLt) + 1n,
      randSeedHex: head.mc.randSeed.toString('hex'),
      ignoreChksig: options.ignoreChksig ?? false,
      prevBlocksInfo: head.prevBlocksInfo,
      libs: this.d.libraries.emulatorLibs ?? undefined,
    });
    return emulationResult(result);
  }

  /**
   * The whole trace of an external message, emulated on the state of the last sealed block (or of masterchain block
   * `mcSeqno`), on the read workers: nothing is sealed, nothing changes (../trace-emulation.ts).
   */
  emulateTrace(boc: Buffer, options: TraceEmulationOptions = {}): Promise<EmulatedTrace> {
    const external = externalToEmulate(boc);
    const seqno = this.pin(options.mcSeqno);
    const latest = seqno === this.visible;
    const { head } = this.d;
    const block = latest ? head.mc : this.d.blocks.get(MASTERCHAIN, seqno, this.visible)!;
    const prevBlocksInfo = latest ? head.prevBlocksInfo : head.prevBlocksInfoAt(block.id, this.d.blocks);
    const libs = this.d.libraries.emulatorLibs ?? undefined;
    return emulateTrace(
      {
        account: (address) => this.d.sealed.get(address, seqno, latest).shardAccountBase64(),
        run: (args) =>
          this.d.config.emulator.emulateTransaction({ ...args, randSeedHex: block.randSeed.toString('hex'), prevBlocksInfo, libs }),
        getMethod: (address, shardAccount, method, stack) =>
          this.runOnStoredState(address, method, emulatorStack(stack), block, Buffer.from(shardAccount, 'base64')),
        now: Math.max(block.genUtime, Math.floor(this.d.clock.now() / 1000)),
        startLt: nextAlignedLt(head.mc.endLt) + 1n,
        mcSeqno: seqno,
        randSeed: block.randSeed,
      },
      external,
      { ...options, ignoreChksig: options.ignoreChksig ?? false },
    );
  }

  /**
   * The config now (what the config contract's data holds as of the last sealed block), or as of an older
   * masterchain block: the config contract's data then (a chain created before it existed: the config now).
   */
  config(mcSeqno?: number): Cell {
    if (mcSeqno === undefined || mcSeqno === this.visible) return this.d.config.cell;
    const address = configContractAddress(this.d.config.cell);
    const data = this.getAccountView(address, this.pin(mcSeqno)).data;
    return data ? readConfigContractData(data).config : this.d.config.cell;
  }

  /** The public libraries of masterchain accounts (libraries.ts), as of the last sealed block. */
  libraries(hashes: Buffer[]): Library[] {
    const found: Library[] = [];
    for (const hash of hashes) {
      const cell = this.d.libraries.get(hash);
      if (cell) found.push({ hash, cell });
    }
    return found;
  }
}
