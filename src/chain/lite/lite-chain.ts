/**
 * A network served by TON liteservers: the Chain interface (chain/types.ts) over a LitePool. Every read is pinned
 * to a masterchain block (the newest one the pool has seen, or the one asked for), checked against that block as
 * far as the data allows (README, "Trust"), and kept when it cannot change. Get-methods and estimateFee run in
 * the emulator read workers on the fetched state, as tonlib runs them locally.
 */
import { Address, beginCell, Cell, Dictionary, serializeTuple, type TupleItem } from '@ton/core';
import { getSelectorForMethod } from '@ton/sandbox/dist/utils/selector.js';
import type { Logger } from 'pino';
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { liteServer_masterchainInfo } from 'ton-lite-client/dist/schema.js';
import '../../ton/core-speedups.js';
import type { GlobalConfig } from '../../ton/global-config.js';
import type { Clock } from '../../util/clock.js';
import { emulationResult, externalToEmulate } from '../emulation.js';
import { AccountView } from '../local/account-view.js';
import { EmulatorPool, type PooledEmulator } from '../local/emulator-pool.js';
import { ChainInputError, GetMethodFailed, NotFound } from '../local/errors.js';
import { lazyTransaction } from '../local/executed-tx.js';
import { parseExternal } from '../local/messages.js';
import { PREV_MC_BLOCKS, serializePrevBlocksInfo } from '../local/prev-blocks-info.js';
import {
  WHOLE_SHARD,
  type AccountState,
  type Block,
  type BlockId,
  type BlockLookup,
  type BlockRef,
  type BlockTransactionQuery,
  type BlockTransactions,
  type Chain,
  type ChainMessage,
  type ChainTransaction,
  type EmulationResult,
  type ExternalToEmulate,
  type GetMethodResult,
  type Library,
  type MasterchainInfo,
  type SentMessage,
  type TransactionQuery,
} from '../types.js';
import { fromTlBlockId, isNotFound, LiteBlocks, MASTERCHAIN, toTlBlockId, type LoadedBlock } from './blocks.js';
import { LiteDataError, LiteSendRefused, LiteServerError } from './errors.js';
import { LitePool, type LitePoolOptions } from './pool.js';
import { provenRoot, proveAccount } from './proofs.js';
import { withPrunedBranchFix } from '../../ton/core-pruned-branch.js';
import { ReadCache } from './read-cache.js';
import { LiteFollower, type FollowerOptions } from './follower.js';
import type { FeedBlock } from '../../index/feed.js';
import type { IndexReader } from '../../index/reader.js';

const EMPTY_STACK_BASE64 = serializeTuple([]).toBoc().toString('base64');
const EMPTY_STACK = serializeTuple([]);
/** TVM exit code toncenter reports for a get-method on an account without code. */
const NOT_ACTIVE_EXIT_CODE = -13;
/** liteServer.getTransactions answers at most this many per query (the validator's cap). */
const TX_PAGE = 16;
/** lt without hash: how far back from the newest transaction we walk to find it. */
const MAX_LT_WALK = 256;
const MC_STATE_EXTRA_TAG = 0xcc26;
const SHARD_STATE_TAG = 0x9023afe2;

export interface LiteChainOptions {
  network: string;
  globalConfig: GlobalConfig;
  clock: Clock;
  logger?: Logger;
  pool?: Omit<LitePoolOptions, 'servers' | 'clock' | 'logger'>;
  emulatorPool?: EmulatorPool;
  getMethodGasLimit?: bigint;
  /** How long open() waits for the first liteserver answer. */
  startTimeoutMs?: number;
  /** Bound of the kept blocks, in BoC bytes (default 64 MiB); accounts and transactions get a quarter each. */
  cacheBytes?: number;
  follower?: FollowerOptions;
}

interface Head {
  mc: LoadedBlock;
  stateRootHash: Buffer;
}

export class LiteChain implements Chain {
  readonly name: string;
  globalId: number;
  readonly pool: LitePool;
  private readonly blocks: LiteBlocks;
  private readonly accounts: ReadCache<AccountState>;
  private readonly txPages: ReadCache<ChainTransaction[]>;
  private readonly configs: ReadCache<Cell>;
  private readonly libraryCells: ReadCache<Cell | null>;
  private readonly prevInfos = new ReadCache<string>(1024 * 1024, (v) => v.length);
  private readonly emulators = new Map<string, PooledEmulator>();
  private readonly emulatorPool: EmulatorPool;
  private readonly gasLimit: bigint;
  private readonly first: Block;
  private head!: Head;
  private advancing: Promise<void> | undefined;
  private readonly headListeners = new Set<(seqno: number) => void>();
  readonly follower: LiteFollower;
  private stopped = false;
  private index: IndexReader | undefined;

  private constructor(private readonly options: LiteChainOptions) {
    this.name = options.network;
    this.globalId = 0;
    this.pool = new LitePool({ ...options.pool, servers: options.globalConfig.liteservers, clock: options.clock, logger: options.logger });
    const bytes = options.cacheBytes ?? 64 * 1024 * 1024;
    this.blocks = new LiteBlocks(this.pool, bytes);
    this.accounts = new ReadCache(bytes / 4, (a) => 512 + a.shardAccount.bits.length / 8 + (a.code ? 4096 : 0));
    this.txPages = new ReadCache(bytes / 4, (page) => 256 + page.length * 1024);
    this.configs = new ReadCache(8 * 1024 * 1024, () => 64 * 1024);
    this.libraryCells = new ReadCache(16 * 1024 * 1024, () => 8 * 1024);
    this.emulatorPool = options.emulatorPool ?? EmulatorPool.shared();
    this.gasLimit = options.getMethodGasLimit ?? 1_000_000n;
    this.first = zeroStateBlock(options.globalConfig);
    this.follower = new LiteFollower({
      masterchainBlock: (n) => this.masterchainBlock(n),
      block: (id) => this.blocks.byId(id),
      account: (address, mcSeqno) => this.getAccount(address, mcSeqno),
      asFollower: (fn) => this.pool.asFollower(fn),
      head: () => this.head.mc.block.id.seqno,
    }, options.follower);
  }

  /** Connects to the config's liteservers and waits for the first masterchain head (LiteUnavailable when none answers). */
  static async open(options: LiteChainOptions): Promise<LiteChain> {
    const chain = new LiteChain(options);
    try {
      const head = await chain.pool.waitHead(options.startTimeoutMs ?? 15_000);
      await chain.advance(head.info);
    } catch (err) {
      chain.pool.close();
      throw err;
    }
    chain.globalId = chain.head.mc.block.globalId;
    chain.pool.on('head', ({ info }: { info: liteServer_masterchainInfo }) => {
      chain.advancing = chain.advance(info).catch((err: Error) => options.logger?.warn({ reason: err.message }, 'cannot load the new masterchain block'));
    });
    return chain;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.advancing;
    this.pool.close();
    for (const emulator of this.emulators.values()) emulator.close();
    this.emulators.clear();
  }

  /** A new head from the pool: its block is fetched (and checked) before reads are pinned to it. */
  private async advance(info: liteServer_masterchainInfo): Promise<void> {
    if (this.head && info.last.seqno <= this.head.mc.block.id.seqno) return;
    const mc = await this.blocks.byId(fromTlBlockId(info.last));
    if (this.head && mc.block.id.seqno <= this.head.mc.block.id.seqno) return;
    this.head = { mc, stateRootHash: info.stateRootHash };
    if (this.headListeners.size > 0) this.follower.prefetch(mc.block.id.seqno);
    for (const listener of this.headListeners) listener(mc.block.id.seqno);
  }

  masterchainInfo(): MasterchainInfo {
    return { last: this.head.mc.block, first: this.first, stateRootHash: this.head.stateRootHash };
  }

  async getBlock(ref: BlockRef): Promise<Block | undefined> {
    return (await this.blocks.byRef(ref))?.block;
  }

  async lookupBlock(query: BlockLookup): Promise<Block | undefined> {
    return (await this.blocks.lookup(query))?.block;
  }

  async shardsAt(mcSeqno: number): Promise<BlockId[]> {
    return (await this.masterchainBlock(mcSeqno)).block.shardBlocks ?? [];
  }

  /** Masterchain block `seqno` (NotFound when the liteservers do not have it), or the head. */
  private async masterchainBlock(seqno?: number): Promise<LoadedBlock> {
    if (seqno === undefined || seqno === this.head.mc.block.id.seqno) return this.head.mc;
    if (seqno > this.head.mc.block.id.seqno) throw new NotFound(`masterchain block ${seqno} not found (the newest is ${this.head.mc.block.id.seqno})`);
    const loaded = await this.blocks.byRef({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno });
    if (!loaded) throw new NotFound(`masterchain block ${seqno} not found`);
    return loaded;
  }

  async getAccount(address: Address, mcSeqno?: number): Promise<AccountState> {
    const mc = await this.masterchainBlock(mcSeqno);
    const id = mc.block.id;
    return this.accounts.get(`${id.rootHash.toString('hex')}:${address.toRawString()}`, async () => {
      let shardAccount: Cell | undefined;
      await this.pool.query(
        Functions.liteServer_getAccountState,
        { kind: 'liteServer.getAccountState', id: toTlBlockId(id), account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash } },
        {
          minSeqno: id.seqno,
          check: (answer) => {
            const a = answer as { id: { rootHash: Buffer }; shardblk: Parameters<typeof fromTlBlockId>[0]; proof: Buffer; state: Buffer };
            if (!a.id.rootHash.equals(id.rootHash)) throw new LiteDataError('account state of another masterchain block');
            const shardBlock = fromTlBlockId(a.shardblk);
            // The shard block must be the one this masterchain block commits for the account's shard.
            const committed = address.workChain === MASTERCHAIN ? [id] : (mc.block.shardBlocks ?? []);
            if (!committed.some((b) => b.rootHash.equals(shardBlock.rootHash) && b.workchain === address.workChain)) {
              throw new LiteDataError('account state of a shard block the masterchain block does not commit');
            }
            shardAccount = proveAccount(a.proof, a.state, shardBlock.rootHash, address.hash).shardAccount;
          },
        },
      );
      const view = new AccountView(address, shardAccount!.toBoc());
      return view.accountState(address, id, mc.block.genUtime);
    });
  }

  async getTransactions(address: Address, q: TransactionQuery): Promise<ChainTransaction[]> {
    if (!Number.isSafeInteger(q.limit) || q.limit < 1) throw new ChainInputError('limit: must be a positive integer');
    let next: { lt: bigint; hash: Buffer } | undefined;
    let skipAbove: bigint | undefined;
    if (q.lt !== undefined && q.hash !== undefined) {
      next = { lt: q.lt, hash: q.hash };
    } else {
      const account = await this.getAccount(address);
      if (account.lastTxLt === 0n) return [];
      next = { lt: account.lastTxLt, hash: account.lastTxHash };
      // lt alone: the page starts at the newest transaction at or below it, found by walking back.
      if (q.lt !== undefined) skipAbove = q.lt;
    }
    const out: ChainTransaction[] = [];
    let walked = 0;
    while (next && out.length < q.limit) {
      const page = await this.transactionPage(address, next.lt, next.hash);
      for (const tx of page) {
        if (skipAbove !== undefined && tx.lt > skipAbove) {
          if (++walked > MAX_LT_WALK) {
            throw new ChainInputError(`lt: more than ${MAX_LT_WALK} newer transactions to skip on a lite network; give hash with lt`);
          }
          continue;
        }
        if (q.toLt !== undefined && tx.lt <= q.toLt) return out;
        out.push(tx);
        if (out.length === q.limit) return out;
      }
      const last = page[page.length - 1];
      const prevLt = last.tx.prevTransactionLt;
      next = prevLt === 0n ? undefined : { lt: prevLt, hash: bigintHash(last.tx.prevTransactionHash) };
    }
    return out;
  }

  /**
   * Up to 16 transactions of an account from (lt, hash) back, checked as a chain: the first hashes to `hash`,
   * each next one to the previous one's prev_trans_hash, all of this account.
   */
  private transactionPage(address: Address, lt: bigint, hash: Buffer): Promise<ChainTransaction[]> {
    return this.txPages.get(`${address.toRawString()}:${lt}:${hash.toString('hex')}`, async () => {
      let page: ChainTransaction[] = [];
      try {
        await this.pool.query(
          Functions.liteServer_getTransactions,
          { kind: 'liteServer.getTransactions', count: TX_PAGE, account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash }, lt: lt.toString(), hash },
          { check: (answer) => (page = checkTransactionChain(answer as { ids: Parameters<typeof fromTlBlockId>[0][]; transactions: Buffer }, address, lt, hash)) },
        );
      } catch (err) {
        if (err instanceof LiteServerError && /cannot locate|not found|no transactions|hash mismatch|lt mismatch|not in db/i.test(err.text)) {
          throw new NotFound(`transaction lt ${lt} hash ${hash.toString('hex')} not found on ${address.toRawString()}`);
        }
        throw err;
      }
      if (page.length === 0) throw new NotFound(`transaction lt ${lt} hash ${hash.toString('hex')} not found on ${address.toRawString()}`);
      return page;
    });
  }

  /**
   * The network's live index (src/index), once it runs: what a liteserver cannot find (a transaction by its hash
   * alone, the transactions of a message) is looked up there, then read from the liteservers and checked like
   * any other. Only as far back as the index reaches.
   */
  useIndex(index: IndexReader): void {
    this.index = index;
  }

  async getTransaction(hash: Buffer): Promise<ChainTransaction | undefined> {
    if (!this.index) throw needsIndex(`transaction ${hash.toString('hex')}`);
    const [record] = await this.index.transactions({ hash }, 'desc', { limit: 1, offset: 0 });
    return record && this.transactionOf(record);
  }

  /** Transactions that received the message, then the one that sent it (from the index, within its range). */
  async getTransactionsByMessage(msgHash: Buffer): Promise<ChainTransaction[]> {
    if (!this.index) throw needsIndex(`transactions of message ${msgHash.toString('hex')}`);
    const page = { limit: 16, offset: 0 };
    const records = [
      ...(await this.index.transactionsByMessage({ msgHash, direction: 'in' }, page)),
      ...(await this.index.transactionsByMessage({ msgHash, direction: 'out' }, page)),
    ];
    return Promise.all(records.map((record) => this.transactionOf(record)));
  }

  /** An indexed transaction, read (and checked) from the liteservers: the index keeps no transaction BoCs. */
  private async transactionOf(record: { account: string; lt: bigint; hash: Buffer }): Promise<ChainTransaction> {
    const [tx] = await this.transactionPage(Address.parse(record.account), record.lt, record.hash);
    return tx;
  }

  getMessage(hash: Buffer): ChainMessage | undefined {
    throw needsIndex(`message ${hash.toString('hex')}`);
  }

  async blockTransactions(ref: BlockRef, q: BlockTransactionQuery): Promise<BlockTransactions> {
    const loaded = await this.blocks.byRef(ref);
    if (!loaded) throw new NotFound(`block (${ref.workchain}, ${BigInt.asIntN(64, ref.shard)}, ${ref.seqno}) not found`);
    const all = loaded.parsed.transactions;
    let start = 0;
    if (q.afterAccount !== undefined) {
      const afterLt = q.afterLt ?? -1n;
      start = all.findIndex((t) => {
        const c = Buffer.compare(t.account, q.afterAccount!);
        return c > 0 || (c === 0 && t.lt > afterLt);
      });
      if (start < 0) start = all.length;
    }
    const slice = all.slice(start, start + q.count);
    const id = loaded.block.id;
    const mcSeqno = id.workchain === MASTERCHAIN ? id.seqno : (loaded.block.masterRef?.seqno ?? 0);
    const transactions = slice.map((t) => chainTransaction(t.cell, new Address(id.workchain, t.account), { workchain: id.workchain, shard: id.shard, seqno: id.seqno }, mcSeqno));
    return { transactions, incomplete: start + q.count < all.length };
  }

  async runGetMethod(address: Address, method: string | number, stack: TupleItem[], mcSeqno?: number): Promise<GetMethodResult> {
    const mc = await this.masterchainBlock(mcSeqno);
    const account = await this.getAccount(address, mc.block.id.seqno);
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
      const result = await emulator.runGetMethod({
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
      });
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
    const account = await this.getAccount(dest, mc.block.id.seqno);
    const emulator = await this.emulatorAt(mc);
    const result = await emulator.emulateTransaction({
      shardAccount: account.shardAccount.toBoc().toString('base64'),
      message: boc,
      now: Math.max(mc.block.genUtime, Math.floor(this.options.clock.now() / 1000)),
      lt: (account.lastTxLt > mc.block.endLt ? account.lastTxLt : mc.block.endLt) + 1_000_000n,
      randSeedHex: mc.block.randSeed.toString('hex'),
      ignoreChksig: options.ignoreChksig ?? false,
      prevBlocksInfo: await this.prevBlocksInfo(mc),
    });
    return emulationResult(result);
  }

  /** Sends to a liteserver; its refusal comes back in its own words (LiteSendRefused). */
  async sendExternal(boc: Buffer): Promise<SentMessage> {
    const parsed = parseExternal(boc, { anyWorkchain: true });
    try {
      await this.pool.query(Functions.liteServer_sendMessage, { kind: 'liteServer.sendMessage', body: boc });
    } catch (err) {
      if (err instanceof LiteServerError) throw new LiteSendRefused(err.code, err.text);
      throw err;
    }
    return { hash: parsed.hash, hashNorm: parsed.hashNorm };
  }

  async config(): Promise<Cell> {
    return this.configAt(this.head.mc);
  }

  /**
   * The config as of a masterchain block. It only changes in key blocks, so it is kept per key block (the block
   * itself when it is one, else its prev_key_block_seqno). Checked: the state proof hashes to the state hash of
   * the block it was read at.
   */
  private async configAt(mc: LoadedBlock): Promise<Cell> {
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
              const state = provenRoot(withPrunedBranchFix(() => Cell.fromBoc((answer as { configProof: Buffer }).configProof))[0], key.block.stateRootHash, 'config proof');
              config = configFromState(state);
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
      for (let n = seqno - 1; n >= Math.max(1, seqno - PREV_MC_BLOCKS); n--) refs.push({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: n });
      const ids = (await Promise.all(refs.map((ref) => this.blocks.idOf(ref)))).filter((id): id is BlockId => id !== undefined);
      const keySeqno = mc.block.isKeyBlock ? seqno : mc.block.prevKeyBlockSeqno;
      const key = keySeqno === 0 ? this.first.id : ((await this.blocks.idOf({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: keySeqno })) ?? this.first.id);
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

  async libraries(hashes: Buffer[]): Promise<Library[]> {
    const found: Library[] = [];
    const wanted = hashes.filter((h) => h.length === 32);
    await Promise.all(
      wanted.map(async (hash) => {
        const cell = await this.libraryCells.get(hash.toString('hex'), async () => {
          const answer = await this.pool.query(Functions.liteServer_getLibraries, { kind: 'liteServer.getLibraries', libraryList: [hash] });
          const entry = answer.result.find((e) => e.hash.equals(hash));
          if (!entry) return null;
          const lib = Cell.fromBoc(entry.data)[0];
          if (!lib.hash().equals(hash)) throw new LiteDataError(`library ${hash.toString('hex')}: the cell sent has another hash`);
          return lib;
        });
        if (cell) found.push({ hash, cell });
      }),
    );
    return found;
  }

  onBlock(): () => void {
    // No sealed blocks are handed over: the index reads each block itself (feedBlock), told by onHead.
    return () => undefined;
  }

  /** Calls `listener` with each new masterchain seqno, once its block is fetched. */
  onHead(listener: (seqno: number) => void): () => void {
    this.headListeners.add(listener);
    return () => this.headListeners.delete(listener);
  }

  /** Masterchain block `seqno` with everything it commits, for the index (follower.ts: read ahead, within its budget). */
  feedBlock(seqno: number): Promise<FeedBlock> {
    return this.follower.feedBlock(seqno);
  }

  /** The pool's servers and the caches, for /metrics and the tests. */
  stats() {
    return { servers: this.pool.status(), blocks: this.blocks.stats(), head: this.head.mc.block.id.seqno };
  }
}

function needsIndex(what: string): NotFound {
  return new NotFound(`${what}: finding it needs tongate's live index, which is not running`);
}

function bigintHash(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

function chainTransaction(cell: Cell, account: Address, block: BlockRef, mcSeqno: number): ChainTransaction {
  const parse = lazyTransaction(cell);
  const s = cell.beginParse();
  s.skip(4 + 256); // transaction$0111 account_addr
  const lt = s.loadUintBig(64);
  s.skip(256 + 64); // prev_trans_hash, prev_trans_lt
  const now = s.loadUint(32);
  return {
    get tx() {
      return parse();
    },
    cell,
    hash: cell.hash(),
    account,
    lt,
    now,
    block,
    mcSeqno,
  };
}

function checkTransactionChain(
  answer: { ids: Parameters<typeof fromTlBlockId>[0][]; transactions: Buffer },
  address: Address,
  lt: bigint,
  hash: Buffer,
): ChainTransaction[] {
  let roots: Cell[];
  try {
    roots = answer.transactions.length === 0 ? [] : Cell.fromBoc(answer.transactions);
  } catch (err) {
    throw new LiteDataError(`transactions: not a bag of cells (${(err as Error).message})`);
  }
  if (roots.length !== answer.ids.length) throw new LiteDataError('transactions: as many block ids as transactions expected');
  const out: ChainTransaction[] = [];
  let expected = { lt, hash };
  for (let i = 0; i < roots.length; i++) {
    const cell = roots[i];
    if (!cell.hash().equals(expected.hash)) throw new LiteDataError(`transactions: the transaction at position ${i} is not the one the chain of hashes names`);
    const s = cell.beginParse();
    if (s.loadUint(4) !== 0b0111) throw new LiteDataError('transactions: not a transaction');
    if (!s.loadBuffer(32).equals(address.hash)) throw new LiteDataError('transactions: a transaction of another account');
    if (s.loadUintBig(64) !== expected.lt) throw new LiteDataError('transactions: lt does not match');
    const prevHash = s.loadBuffer(32);
    const prevLt = s.loadUintBig(64);
    const id = fromTlBlockId(answer.ids[i]);
    if (id.workchain !== address.workChain) throw new LiteDataError('transactions: a block of another workchain');
    out.push(chainTransaction(cell, address, { workchain: id.workchain, shard: id.shard, seqno: id.seqno }, id.workchain === MASTERCHAIN ? id.seqno : 0));
    expected = { lt: prevLt, hash: prevHash };
    if (prevLt === 0n) break;
  }
  return out;
}

/** ShardStateUnsplit -> custom:(Maybe ^McStateExtra) -> config:^(Hashmap 32 ^Cell). */
function configFromState(state: Cell): Cell {
  const s = state.beginParse();
  if (s.loadUint(32) !== SHARD_STATE_TAG) throw new LiteDataError('config proof: not a shard state');
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef(); // out_msg_queue_info
  s.loadBit(); // before_split
  s.loadRef(); // accounts
  s.loadRef(); // overload/underload history, balances, libraries, master_ref
  const custom = s.loadMaybeRef();
  if (!custom) throw new LiteDataError('config proof: not a masterchain state');
  const extra = custom.beginParse();
  if (extra.loadUint(16) !== MC_STATE_EXTRA_TAG) throw new LiteDataError('config proof: not a masterchain state extra');
  extra.loadMaybeRef(); // shard_hashes
  extra.skip(256); // config_addr
  const config = extra.loadRef();
  if (config.isExotic) throw new LiteDataError('config proof: the config is pruned');
  return config;
}

function libraryDictionary(libs: Map<string, Cell>): string {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [hex, cell] of libs) dict.set(Buffer.from(hex, 'hex'), cell);
  return beginCell().storeDictDirect(dict).endCell().toBoc().toString('base64');
}

/** The zero state as the first "block": only its id is known from the config (it is a state, not a block). */
function zeroStateBlock(config: GlobalConfig): Block {
  const z = config.zeroState;
  return {
    id: { workchain: z.workchain, shard: z.shard, seqno: z.seqno, rootHash: z.rootHash, fileHash: z.fileHash },
    globalId: 0,
    version: 0,
    genUtime: 0,
    startLt: 0n,
    endLt: 0n,
    prevBlocks: [],
    stateRootHash: z.rootHash,
    randSeed: Buffer.alloc(32),
    txCount: 0,
    isKeyBlock: true,
    prevKeyBlockSeqno: 0,
    minRefMcSeqno: 0,
  };
}


