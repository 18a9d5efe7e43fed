/**
 * Get-methods and emulated externals on a lite network, run as tonlib runs them locally: in the emulator read
 * workers (../emulator), on the account state fetched at the pinned block, under that block's config (kept per
 * key block, one emulator per config), time, random seed and PREVBLOCKSINFO; a library a contract runs is fetched
 * from the liteservers and the call run again; an emulated transaction is given the libraries its code and its
 * message's StateInit name, fetched before it runs (trace-libraries.ts).
 */
import { Cell, serializeTuple, type Address, type TupleItem } from '@ton/core';
import { getSelectorForMethod } from '@ton/sandbox/dist/utils/selector.js';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { withPrunedBranchFix } from '../../ton/core-pruned-branch.js';
import { libraryDictionary } from '../../ton/library-cells.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import type { Clock } from '../../util/clock.js';
import { AccountView } from '../account-view.js';
import { emulationResult, externalToEmulate } from '../emulation.js';
import { emulateTrace } from '../trace-emulation.js';
import type { EmulatorPool, PooledEmulator } from '../emulator/emulator-pool.js';
import { PREV_MC_BLOCKS, serializePrevBlocksInfo } from '../emulator/prev-blocks-info.js';
import { ChainInputError, GetMethodFailed } from '../errors.js';
import type {
  AccountState,
  BlockId,
  EmulationResult,
  ExternalToEmulate,
  GetMethodOptions,
  GetMethodResult,
  Library,
  EmulatedTrace,
  TraceEmulationOptions,
} from '../types.js';
import { toTlBlockId, type LiteBlocks, type LoadedBlock } from './blocks.js';
import { stateConfig } from './block-proofs/proven-cells.js';
import { LiteDataError } from './errors.js';
import type { LiteHead } from './head.js';
import type { LitePool } from './pool.js';
import { provenRoot } from './proofs.js';
import { ReadCache } from './read-cache.js';
import { TraceLibraries } from './trace-libraries.js';

const EMPTY_STACK_BASE64 = serializeTuple([]).toBoc().toString('base64');
const EMPTY_STACK = serializeTuple([]);
/** TVM exit code toncenter reports for a get-method on an account without code. */
const NOT_ACTIVE_EXIT_CODE = -13;

export interface GetMethodDeps {
  pool: LitePool;
  blocks: LiteBlocks;
  head: LiteHead;
  /** An account's state as of masterchain block `mcSeqno` (proven). */
  account: (address: Address, mcSeqno: number) => Promise<AccountState>;
  clock: Clock;
  emulatorPool: EmulatorPool;
  gasLimit: bigint;
}

export class LiteGetMethods {
  private readonly configs = new ReadCache<Cell>(8 * 1024 * 1024, () => 64 * 1024);
  private readonly libraryCells = new ReadCache<Cell>(16 * 1024 * 1024, () => 8 * 1024);
  private readonly prevInfos = new ReadCache<string>(1024 * 1024, (v) => v.length);
  private readonly emulators = new Map<string, PooledEmulator>();

  private readonly pool: LitePool;
  private readonly blocks: LiteBlocks;
  private readonly head: LiteHead;
  private readonly account: GetMethodDeps['account'];
  private readonly clock: Clock;
  private readonly emulatorPool: EmulatorPool;
  private readonly gasLimit: bigint;

  constructor(deps: GetMethodDeps) {
    this.pool = deps.pool;
    this.blocks = deps.blocks;
    this.head = deps.head;
    this.account = deps.account;
    this.clock = deps.clock;
    this.emulatorPool = deps.emulatorPool;
    this.gasLimit = deps.gasLimit;
  }

  async runGetMethod(
    address: Address,
    method: string | number,
    stack: TupleItem[],
    mcSeqno?: number,
    options: GetMethodOptions = {},
  ): Promise<GetMethodResult> {
    const mc = await this.head.masterchainBlock(mcSeqno);
    return this.runOn(address, await this.account(address, mc.block.id.seqno), mc, method, stack, options);
  }

  /** A get-method on a state the caller holds (an account as a pending trace left it), at the head. */
  runGetMethodOnState(address: Address, shardAccount: string, method: string, stack: TupleItem[]): Promise<GetMethodResult> {
    const mc = this.head.mc;
    const account = new AccountView(address, Buffer.from(shardAccount, 'base64')).accountState(address, mc.block.id, mc.block.genUtime);
    return this.runOn(address, account, mc, method, stack);
  }

  /** A get-method on an account state given (fetched at `mc`, or as an emulated trace left it). */
  private async runOn(
    address: Address,
    account: AccountState,
    mc: LoadedBlock,
    method: string | number,
    stack: TupleItem[],
    options: GetMethodOptions = {},
  ): Promise<GetMethodResult> {
    const base = { block: mc.block.id, lastTxLt: account.lastTxLt, lastTxHash: account.lastTxHash };
    if (account.state !== 'active' || !account.code) return { ...base, exitCode: NOT_ACTIVE_EXIT_CODE, gasUsed: 0n, stackBoc: EMPTY_STACK };
    const methodId = typeof method === 'number' ? method : getSelectorForMethod(method);
    let stackBase64: string;
    try {
      stackBase64 = stack.length === 0 ? EMPTY_STACK_BASE64 : serializeTuple(stack).toBoc().toString('base64');
    } catch (err) {
      throw new ChainInputError(`stack: cannot be serialized (${(err as Error).message})`);
    }
    const emulator = await this.emulatorAt(mc);
    const libs = new Map<string, Cell>();
    for (;;) {
      const result = await emulator.runGetMethod(
        {
          code: account.code.toBoc().toString('base64'),
          data: (account.data ?? Cell.EMPTY).toBoc().toString('base64'),
          address: address.toRawString(),
          balance: account.balance,
          methodId,
          stack: stackBase64,
          unixTime: mc.block.genUtime,
          randSeedHex: mc.block.randSeed.toString('hex'),
          gasLimit: this.gasLimit,
          prevBlocksInfo: await this.prevBlocksInfo(mc),
          libs: libs.size === 0 ? undefined : libraryDictionary(libs),
        },
        options.nice,
      );
      if (!result.success) throw new GetMethodFailed(`get-method ${method} on ${address.toRawString()}: ${result.error}`);
      // A contract that runs library code: fetch the library from the liteservers and run again (as tonlib does).
      if (result.missingLibrary && !libs.has(result.missingLibrary.toLowerCase()) && libs.size < 16) {
        const hash = Buffer.from(result.missingLibrary, 'hex');
        const [found] = await this.libraries([hash]);
        if (found) {
          libs.set(result.missingLibrary.toLowerCase(), found.cell);
          continue;
        }
      }
      return { ...base, exitCode: result.exitCode, gasUsed: result.gasUsed, stackBoc: Cell.fromBase64(result.stack) };
    }
  }

  async emulateExternal(message: ExternalToEmulate, options: { ignoreChksig?: boolean } = {}): Promise<EmulationResult> {
    const { dest, boc } = externalToEmulate(message, { anyWorkchain: true });
    const mc = this.head.mc;
    const account = await this.account(dest, mc.block.id.seqno);
    const emulator = await this.emulatorAt(mc);
    const shardAccount = account.shardAccount.toBoc().toString('base64');
    const result = await emulator.emulateTransaction({
      shardAccount,
      message: boc,
      now: Math.max(mc.block.genUtime, Math.floor(this.clock.now() / 1000)),
      lt: (account.lastTxLt > mc.block.endLt ? account.lastTxLt : mc.block.endLt) + 1_000_000n,
      randSeedHex: mc.block.randSeed.toString('hex'),
      ignoreChksig: options.ignoreChksig ?? false,
      prevBlocksInfo: await this.prevBlocksInfo(mc),
      libs: await new TraceLibraries((hashes) => this.libraries(hashes)).forTransaction(shardAccount, boc),
    });
    return emulationResult(result);
  }

  /**
   * The whole trace of an external message (../trace-emulation.ts) on the state of the head (or of `mcSeqno`): each
   * account it reaches fetched at that block and proven, as get-methods fetch theirs.
   */
  async emulateTrace(boc: Buffer, options: TraceEmulationOptions = {}): Promise<EmulatedTrace> {
    const external = externalToEmulate(boc, { anyWorkchain: true });
    const mc = options.mcSeqno === undefined ? this.head.mc : await this.head.masterchainBlock(options.mcSeqno);
    const seqno = mc.block.id.seqno;
    const emulator = await this.emulatorAt(mc);
    const prevBlocksInfo = await this.prevBlocksInfo(mc);
    const randSeedHex = mc.block.randSeed.toString('hex');
    // The public libraries its transactions run, fetched as the trace meets them (trace-libraries.ts).
    const libraries = new TraceLibraries((hashes) => this.libraries(hashes));
    return emulateTrace(
      {
        account: async (address) => (await this.account(address, seqno)).shardAccount.toBoc().toString('base64'),
        run: async (args) =>
          emulator.emulateTransaction({
            ...args,
            randSeedHex,
            prevBlocksInfo,
            libs: await libraries.forTransaction(args.shardAccount, args.message),
          }),
        getMethod: (address, shardAccount, method, stack) =>
          this.runOn(
            address,
            new AccountView(address, Buffer.from(shardAccount, 'base64')).accountState(address, mc.block.id, mc.block.genUtime),
            mc,
            method,
            stack,
          ),
        now: Math.max(mc.block.genUtime, Math.floor(this.clock.now() / 1000)),
        // Above every transaction of the block, as emulateExternal's; each account's own last lt is kept above too.
        startLt: mc.block.endLt + 1_000_000n,
        mcSeqno: seqno,
        randSeed: mc.block.randSeed,
      },
      external,
      { ...options, ignoreChksig: options.ignoreChksig ?? false },
    );
  }

  /**
   * The config as of a masterchain block. It only changes in key blocks, so it is kept per key block (the block
   * itself when it is one, else its prev_key_block_seqno). Checked: the state proof hashes to the state hash of
   * the block it was read at.
   */
  async configAt(mc: LoadedBlock): Promise<Cell> {
    const keySeqno = mc.block.isKeyBlock ? mc.block.id.seqno : mc.block.prevKeyBlockSeqno;
    return this.configs.get(String(keySeqno), async () => {
      // Read from the state of the block asked about (any block after the key block has the same config; the key
      // block's own state may be gone from a liteserver, and the zero state is not served at all).
      const key = mc;
      let config: Cell | undefined;
      await this.pool.query(
        Functions.liteServer_getConfigAll,
        { kind: 'liteServer.getConfigAll', id: toTlBlockId(key.block.id), mode: 0 },
        {
          minSeqno: key.block.id.seqno,
          check: (answer) => {
            try {
              const state = provenRoot(
                withPrunedBranchFix(() => Cell.fromBoc((answer as { configProof: Buffer }).configProof))[0],
                key.block.stateRootHash,
                'config proof',
              );
              config = stateConfig(state);
            } catch (err) {
              if (err instanceof LiteDataError) throw err;
              throw new LiteDataError(`config proof: unreadable (${(err as Error).message})`);
            }
          },
        },
      );
      return config!;
    });
  }

  /**
   * PREVBLOCKSINFO of the c7 tuple (what PREVMCBLOCKS / PREVKEYBLOCK read): the ids of the 16 masterchain blocks
   * before `mc`, newest first, and of the last key block (the zero state when none), kept per block.
   */
  private prevBlocksInfo(mc: LoadedBlock): Promise<string> {
    const seqno = mc.block.id.seqno;
    return this.prevInfos.get(String(seqno), async () => {
      const refs = [];
      for (let n = seqno - 1; n >= Math.max(1, seqno - PREV_MC_BLOCKS); n--)
        refs.push({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: n });
      const ids = (await Promise.all(refs.map((ref) => this.blocks.idOf(ref)))).filter((id): id is BlockId => id !== undefined);
      const keySeqno = mc.block.isKeyBlock ? seqno : mc.block.prevKeyBlockSeqno;
      const first = this.head.first.id;
      const key =
        keySeqno === 0 ? first : ((await this.blocks.idOf({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: keySeqno })) ?? first);
      return serializePrevBlocksInfo(ids, key);
    });
  }

  private async emulatorAt(mc: LoadedBlock): Promise<PooledEmulator> {
    const config = await this.configAt(mc);
    const key = config.hash().toString('hex');
    let emulator = this.emulators.get(key);
    if (!emulator) {
      // A new config (a key block changed it): the old one's emulator is freed in the workers.
      for (const old of this.emulators.values()) old.close();
      this.emulators.clear();
      emulator = this.emulatorPool.emulator(config.toBoc().toString('base64'));
      this.emulators.set(key, emulator);
    }
    return emulator;
  }

  /**
   * Public libraries by hash, from the liteservers: each cell's hash must be the hash asked for (a library is its
   * hash's content, so that check is the whole proof). Kept once found (bounded); one not found is not kept, as a
   * masterchain account may publish it in a later block.
   */
  async libraries(hashes: Buffer[]): Promise<Library[]> {
    const found: Library[] = [];
    const wanted = hashes.filter((h) => h.length === 32);
    await Promise.all(
      wanted.map(async (hash) => {
        const cell = await this.libraryCells
          .get(hash.toString('hex'), async () => {
            const answer = await this.pool.query(Functions.liteServer_getLibraries, {
              kind: 'liteServer.getLibraries',
              libraryList: [hash],
            });
            const entry = answer.result.find((e) => e.hash.equals(hash));
            if (!entry) throw new LibraryNotFound();
            const lib = Cell.fromBoc(entry.data)[0];
            if (!lib.hash().equals(hash)) throw new LiteDataError(`library ${hash.toString('hex')}: the cell sent has another hash`);
            return lib;
          })
          .catch((err: unknown) => {
            if (err instanceof LibraryNotFound) return null;
            throw err;
          });
        if (cell) found.push({ hash, cell });
      }),
    );
    return found;
  }

  /** Frees this chain's emulators in the workers. */
  close(): void {
    for (const emulator of this.emulators.values()) emulator.close();
    this.emulators.clear();
  }
}

/** A library no liteserver has: not kept by the cache (ReadCache keeps no failure). */
class LibraryNotFound extends Error {}
