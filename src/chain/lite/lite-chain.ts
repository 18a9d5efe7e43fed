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
  type AccountState,
  type Block,
  type BlockId,
  type BlockSignatures,
  type ShardBlockProof,
  type BlockLookup,
  type BlockRef,
  type BlockTransactionQuery,
  type BlockTransactions,
  type Chain,
  type ChainMessage,
  type ChainTransaction,
  type EmulationResult,
  type ExternalToEmulate,
  type GetMethodOptions,
  type GetMethodResult,
  type Library,
  type MasterchainInfo,
  type SentMessage,
  type TransactionQuery,
} from '../types.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import { fromTlBlockId, isNotFound, LiteBlocks, toTlBlockId, type LoadedBlock } from './blocks.js';
import { LiteDataError, LiteSendRefused, LiteServerError } from './errors.js';
import { LitePool, type LitePoolOptions } from './pool.js';
import { provenRoot, proveAccount } from './proofs.js';
import { withPrunedBranchFix } from '../../ton/core-pruned-branch.js';
import { ReadCache } from './read-cache.js';
import { MasterchainTrust, type ProvingState } from './block-proofs/masterchain-trust.js';
import { ThreadLinkChecker } from './block-proofs/link-checker.js';
import { keyBlockFile } from './block-proofs/key-block-store.js';
import { ValidatorSetCache } from './block-proofs/links.js';
import { stateConfig } from './block-proofs/proven-cells.js';
import { masterchainBlockSignatures, shardBlockProof } from './block-proofs/proof-answers.js';
import { LiteFollower, type FollowerOptions } from './follower.js';
import type { FeedBlock } from '../../index/feed.js';
import type { IndexReader } from '../../index/reader.js';

const EMPTY_STACK_BASE64 = serializeTuple([]).toBoc().toString('base64');
const EMPTY_STACK = serializeTuple([]);
/** TVM exit code toncenter reports for a get-method on an account without code. */
const NOT_ACTIVE_EXIT_CODE = -13;
/** liteServer.getTransactions answers at most this many per query (the validator's cap). */
const TX_PAGE = 16;
/** lt without hash, when the liteservers no longer keep the block or state that finds it: how far back we walk. */
const MAX_LT_WALK = 256;

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
  /**
   * How long open() then waits for the first head to be proven from the config's init block (every key block
   * since: on mainnet with an old config, minutes; block-proofs/README.md). Default 10 minutes.
   */
  proofTimeoutMs?: number;
  /** The network's data directory: the newest proven key block is kept there (none: proven from the init block each start). */
  dataDir?: string;
  /** Bound of the kept blocks, in BoC bytes (default 64 MiB); accounts and transactions get a quarter each. */
  cacheBytes?: number;
  follower?: FollowerOptions;
  /** Told, as open() begins, how to ask while it runs whether it proves a chain of key blocks and how far it is. */
  onProving?: (proving: () => ProvingState | undefined) => void;
}

interface Head {
  mc: LoadedBlock;
  stateRootHash: Buffer;
}

export class LiteChain implements Chain {
  readonly name: string;
  globalId: number;
  readonly pool: LitePool;
  /** Which masterchain heads are believed: proven from the config's init block (block-proofs/). */
  readonly trust: MasterchainTrust;
  private readonly linkChecker: ThreadLinkChecker;
  private readonly validatorSets = new ValidatorSetCache();
  private readonly signatures = new ReadCache<BlockSignatures>(4 * 1024 * 1024, (s) => 256 + s.signatures.length * 128);
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
    this.pool = new LitePool({
      ...options.pool,
      servers: options.globalConfig.liteservers,
      clock: options.clock,
      logger: options.logger,
      verifyHead: (last, server) => this.trust.verify(fromTlBlockId(last), server),
      zeroState: options.globalConfig.zeroState,
    });
    // Forward links (a first start on mainnet: ~a thousand key blocks) are checked off the thread serving HTTP.
    this.linkChecker = new ThreadLinkChecker((reason) => options.logger?.warn({ reason }, 'block proofs are checked on the main thread'));
    this.trust = new MasterchainTrust(this.pool, { ...options.globalConfig.initBlock }, options.dataDir === undefined ? undefined : keyBlockFile(options.dataDir), {
      linkChecker: this.linkChecker,
      logger: options.logger,
      clock: options.clock,
    });
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
      // The index reads ids as the liteservers name them (a back-fill would pay a proof per block): see README.
      masterchainBlock: (n) => this.masterchainBlock(n, false),
      block: (id) => this.blocks.byId(id),
      account: (address, mcSeqno) => this.accountAt(address, mcSeqno, false),
      asFollower: (fn) => this.pool.asFollower(fn),
      head: () => this.head.mc.block.id.seqno,
    }, options.follower);
    // An index's blocks are downloaded while a reported head's proof is checked; fed only once it is proven.
    this.pool.on('reported', ({ info }: { info: liteServer_masterchainInfo }) => {
      if (this.headListeners.size > 0) void this.follower.warm(fromTlBlockId(info.last));
    });
  }

  /** Connects to the config's liteservers and waits for the first masterchain head (LiteUnavailable when none answers). */
  static async open(options: LiteChainOptions): Promise<LiteChain> {
    const chain = new LiteChain(options);
    options.onProving?.(() => chain.trust.proving());
    try {
      await chain.pool.waitAnswer(options.startTimeoutMs ?? 15_000);
      const head = await chain.pool.waitHead(options.proofTimeoutMs ?? 600_000);
      await chain.advance(head.info);
    } catch (err) {
      chain.pool.close();
      void chain.linkChecker.close();
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
    await this.linkChecker.close();
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
    return this.proven(await this.blocks.byRef(ref))?.then((b) => b.block);
  }

  async lookupBlock(query: BlockLookup): Promise<Block | undefined> {
    return this.proven(await this.blocks.lookup(query))?.then((b) => b.block);
  }

  /** A masterchain block is handed out once its id is proven (proveOlder); a shard block as it is. */
  private proven(loaded: LoadedBlock | undefined): Promise<LoadedBlock> | undefined {
    if (!loaded) return undefined;
    const id = loaded.block.id;
    const head = this.head.mc.block.id;
    if (id.workchain !== MASTERCHAIN || id.seqno >= head.seqno) return Promise.resolve(loaded);
    return this.trust.proveOlder(id, head, (next) => this.blocks.cached(next)?.block.prevBlocks[0]).then(() => loaded);
  }

  async shardsAt(mcSeqno: number): Promise<BlockId[]> {
    return (await this.masterchainBlock(mcSeqno)).block.shardBlocks ?? [];
  }

  /** Masterchain block `seqno` (NotFound when the liteservers do not have it), or the head. */
  private async masterchainBlock(seqno?: number, prove = true): Promise<LoadedBlock> {
    const head = this.head.mc;
    if (seqno === undefined || seqno === head.block.id.seqno) return head;
    if (seqno > head.block.id.seqno) throw new NotFound(`masterchain block ${seqno} not found (the newest is ${head.block.id.seqno})`);
    const loaded = await this.blocks.byRef({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno });
    if (!loaded) throw new NotFound(`masterchain block ${seqno} not found`);
    // An older block's id, as the liteserver looked it up, is proven back from the proven head (one backward
    // link, kept), unless it was a proven head itself or the block after it names it.
    return prove ? this.proven(loaded)! : loaded;
  }

  async getAccount(address: Address, mcSeqno?: number): Promise<AccountState> {
    return this.accountAt(address, mcSeqno, true);
  }

  private async accountAt(address: Address, mcSeqno: number | undefined, prove: boolean): Promise<AccountState> {
    const mc = await this.masterchainBlock(mcSeqno, prove);
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
      // lt alone: the page starts at the newest transaction at or below it, found through the block holding lt.
      if (q.lt !== undefined && q.lt < account.lastTxLt) {
        const found = await this.transactionAtOrBefore(address, q.lt);
        if (found === null) return [];
        if (found) next = found;
        else skipAbove = q.lt; // the liteservers no longer keep what finding it needs: walk back (bounded)
      }
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
   * The account's newest transaction at or below `lt` (null: none), found in three reads instead of a walk: the
   * shard block whose lt range holds `lt` (lookupBlock by lt, checked against its hashes); the account's
   * transactions in it at or below `lt`; else its last transaction as of the block before (the account's proven
   * state at that shard block). undefined when the liteservers no longer have that block or state.
   */
  private async transactionAtOrBefore(address: Address, lt: bigint): Promise<{ lt: bigint; hash: Buffer } | null | undefined> {
    const prefix = BigInt.asUintN(64, BigInt(`0x${address.hash.subarray(0, 8).toString('hex')}`) | 1n);
    const block = await this.blocks.lookup({ workchain: address.workChain, shard: prefix, lt });
    // The block whose lt range holds lt, or the first after it; one that ends before lt could miss later ones.
    if (!block || block.block.endLt < lt) return undefined;
    const mine = block.parsed.transactions.filter((t) => t.account.equals(address.hash) && t.lt <= lt);
    if (mine.length > 0) {
      const newest = mine.reduce((a, b) => (b.lt > a.lt ? b : a));
      return { lt: newest.lt, hash: newest.cell.hash() };
    }
    const prev = block.block.prevBlocks.find((p) => shardContains(p.shard, prefix)) ?? block.block.prevBlocks[0];
    if (!prev || prev.seqno === 0) return null;
    let state: { lastTxLt: bigint; lastTxHash: Buffer } | undefined;
    try {
      await this.pool.query(
        Functions.liteServer_getAccountState,
        { kind: 'liteServer.getAccountState', id: toTlBlockId(prev), account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash } },
        {
          check: (answer) => {
            const a = answer as { shardblk: Parameters<typeof fromTlBlockId>[0]; proof: Buffer; state: Buffer };
            if (!fromTlBlockId(a.shardblk).rootHash.equals(prev.rootHash)) throw new LiteDataError('account state of another shard block');
            state = proveAccount(a.proof, a.state, prev.rootHash, address.hash);
          },
        },
      );
    } catch (err) {
      if (err instanceof LiteServerError) return undefined;
      throw err;
    }
    return state!.lastTxLt === 0n ? null : { lt: state!.lastTxLt, hash: state!.lastTxHash };
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

  async runGetMethod(address: Address, method: string | number, stack: TupleItem[], mcSeqno?: number, options: GetMethodOptions = {}): Promise<GetMethodResult> {
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
      }, options.nice);
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

  /**
   * The validators' signatures of masterchain block `seqno` (tonlib's blocks.getMasterchainBlockSignatures): the
   * forward link from its previous key block, checked against that key block's validator set. Kept per block.
   */
  async blockSignatures(seqno: number): Promise<BlockSignatures> {
    if (seqno === 0) throw new ChainInputError("seqno: can't get signatures of block #0 (the zero state is not signed)");
    const mc = await this.masterchainBlock(seqno);
    return this.signatures.get(mc.block.id.rootHash.toString('hex'), async () => {
      const keySeqno = mc.block.prevKeyBlockSeqno;
      const keyBlock =
        keySeqno === 0
          ? this.first.id
          : (this.trust.provenKeyBlock(keySeqno) ?? (await this.blocks.idOf({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: keySeqno })));
      if (!keyBlock) throw new NotFound(`key block ${keySeqno} before masterchain block ${seqno} not found`);
      if (keySeqno !== 0) await this.trust.proveOlder(keyBlock, this.head.mc.block.id, (next) => this.blocks.cached(next)?.block.prevBlocks[0]);
      return masterchainBlockSignatures(this.pool, this.validatorSets, mc.block.id, keyBlock);
    });
  }

  /** tonlib's blocks.getShardBlockProof: the block's links up to the masterchain, and back from `fromSeqno` (the head by default). */
  async shardBlockProof(ref: BlockRef, fromSeqno?: number): Promise<ShardBlockProof> {
    const block = await this.blocks.byRef(ref);
    if (!block) throw new NotFound(`block (${ref.workchain}, ${BigInt.asIntN(64, ref.shard)}, ${ref.seqno}) not found`);
    const from = (await this.masterchainBlock(fromSeqno)).block.id;
    return shardBlockProof(this.pool, block.block.id, from);
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

/** Whether `shard` (a prefix with its end bit) contains the 64-bit account prefix `prefix`. */
function shardContains(shard: bigint, prefix: bigint): boolean {
  const low = shard & -shard;
  const mask = BigInt.asUintN(64, ~((low << 1n) - 1n));
  return (shard & mask) === (prefix & mask);
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


