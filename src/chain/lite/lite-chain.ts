/**
 * A network served by TON liteservers: the Chain interface (chain/types.ts) over a LitePool. Every read is pinned
 * to a masterchain block (the newest one the pool has seen, or the one asked for), checked against that block as
 * far as the data allows (README, "Trust"), and kept when it cannot change. Each concern has its own file: the
 * head (head.ts), transactions (transactions.ts), get-methods and emulation (get-methods.ts), signatures and
 * shard block proofs (block-proofs/proof-answers.ts); this class wires them and reads accounts and blocks.
 */
import type { Address, Cell, TupleItem } from '@ton/core';
import type { Logger } from 'pino';
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { liteServer_masterchainInfo } from 'ton-lite-client/dist/schema.js';
import '../../ton/core-speedups.js';
import type { GlobalConfig } from '../../ton/global-config.js';
import type { Clock } from '../../util/clock.js';
import { AccountView } from '../account-view.js';
import { EmulatorPool } from '../emulator/emulator-pool.js';
import { parseExternal } from '../messages.js';
import type {
  AccountState,
  Block,
  BlockId,
  BlockSignatures,
  ShardBlockProof,
  BlockLookup,
  BlockRef,
  BlockTransactionQuery,
  BlockTransactions,
  Chain,
  ChainMessage,
  ChainTransaction,
  EmulationResult,
  EmulatedTrace,
  ExternalToEmulate,
  TraceEmulationOptions,
  GetMethodOptions,
  GetMethodResult,
  Library,
  MasterchainInfo,
  SentMessage,
  TransactionQuery,
} from '../types.js';
import { MASTERCHAIN } from '../../ton/workchain.js';
import { fromTlBlockId, LiteBlocks, toTlBlockId } from './blocks.js';
import { LiteDataError, LiteSendRefused, LiteServerError } from './errors.js';
import { LitePool, type LitePoolOptions } from './pool.js';
import { proveAccount } from './proofs.js';
import { ReadCache } from './read-cache.js';
import { MasterchainTrust, type ProvingState } from './block-proofs/masterchain-trust.js';
import { ThreadLinkChecker } from './block-proofs/link-checker.js';
import { keyBlockFile } from './block-proofs/key-block-store.js';
import { ProofAnswers } from './block-proofs/proof-answers.js';
import { LiteFollower, type FollowerOptions } from './follower.js';
import { LiteHead } from './head.js';
import { LiteTransactions } from './transactions.js';
import { LiteGetMethods } from './get-methods.js';
import type { FeedBlock } from '../feed-block.js';
import type { TransactionLocator } from '../transaction-locator.js';

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

export class LiteChain implements Chain {
  readonly name: string;
  globalId: number;
  readonly pool: LitePool;
  /** Which masterchain heads are believed: proven from the config's init block (block-proofs/). */
  readonly trust: MasterchainTrust;
  private readonly linkChecker: ThreadLinkChecker;
  private readonly blocks: LiteBlocks;
  private readonly accounts: ReadCache<AccountState>;
  private readonly head: LiteHead;
  private readonly transactions: LiteTransactions;
  private readonly getMethods: LiteGetMethods;
  private readonly proofs: ProofAnswers;
  private readonly sentListeners = new Set<(boc: Buffer, sent: SentMessage) => void>();
  readonly follower: LiteFollower;
  private stopped = false;

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
    this.trust = new MasterchainTrust(
      this.pool,
      { ...options.globalConfig.initBlock },
      options.dataDir === undefined ? undefined : keyBlockFile(options.dataDir),
      {
        linkChecker: this.linkChecker,
        logger: options.logger,
        clock: options.clock,
      },
    );
    const bytes = options.cacheBytes ?? 64 * 1024 * 1024;
    this.blocks = new LiteBlocks(this.pool, bytes);
    this.accounts = new ReadCache(bytes / 4, (a) => 512 + a.shardAccount.bits.length / 8 + (a.code ? 4096 : 0));
    this.head = new LiteHead(this.blocks, this.trust, options.globalConfig, (seqno) => this.follower.prefetch(seqno));
    this.transactions = new LiteTransactions(this.pool, this.blocks, (address) => this.getAccount(address), bytes / 4);
    this.getMethods = new LiteGetMethods({
      pool: this.pool,
      blocks: this.blocks,
      head: this.head,
      account: (address, mcSeqno) => this.getAccount(address, mcSeqno),
      clock: options.clock,
      emulatorPool: options.emulatorPool ?? EmulatorPool.shared(),
      gasLimit: options.getMethodGasLimit ?? 1_000_000n,
    });
    this.proofs = new ProofAnswers(this.pool, this.blocks, this.trust, this.head);
    this.follower = new LiteFollower(
      {
        // The index reads ids as the liteservers name them (a back-fill would pay a proof per block): see README.
        masterchainBlock: (n) => this.head.masterchainBlock(n, false),
        block: (id) => this.blocks.byId(id),
        account: (address, mcSeqno) => this.accountAt(address, mcSeqno, false),
        asFollower: (fn) => this.pool.asFollower(fn),
        head: () => this.head.mc.block.id.seqno,
      },
      options.follower,
    );
    // An index's blocks are downloaded while a reported head's proof is checked; fed only once it is proven.
    this.pool.on('reported', ({ info }: { info: liteServer_masterchainInfo }) => {
      if (this.head.followed) void this.follower.warm(fromTlBlockId(info.last));
    });
  }

  /** Connects to the config's liteservers and waits for the first masterchain head (LiteUnavailable when none answers). */
  static async open(options: LiteChainOptions): Promise<LiteChain> {
    const chain = new LiteChain(options);
    options.onProving?.(() => chain.trust.proving());
    try {
      await chain.pool.waitAnswer(options.startTimeoutMs ?? 15_000);
      const head = await chain.pool.waitHead(options.proofTimeoutMs ?? 600_000);
      await chain.head.advance(head.info);
    } catch (err) {
      chain.pool.close();
      void chain.linkChecker.close();
      throw err;
    }
    chain.globalId = chain.head.mc.block.globalId;
    chain.pool.on('head', ({ info }: { info: liteServer_masterchainInfo }) => chain.head.follow(info, options.logger));
    return chain;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.head.settled();
    this.pool.close();
    await this.linkChecker.close();
    this.getMethods.close();
  }

  masterchainInfo(): MasterchainInfo {
    return this.head.masterchainInfo();
  }

  async getBlock(ref: BlockRef): Promise<Block | undefined> {
    return this.head.proven(await this.blocks.byRef(ref))?.then((b) => b.block);
  }

  async lookupBlock(query: BlockLookup): Promise<Block | undefined> {
    return this.head.proven(await this.blocks.lookup(query))?.then((b) => b.block);
  }

  async shardsAt(mcSeqno: number): Promise<BlockId[]> {
    return (await this.head.masterchainBlock(mcSeqno)).block.shardBlocks ?? [];
  }

  async getAccount(address: Address, mcSeqno?: number): Promise<AccountState> {
    return this.accountAt(address, mcSeqno, true);
  }

  private async accountAt(address: Address, mcSeqno: number | undefined, prove: boolean): Promise<AccountState> {
    const mc = await this.head.masterchainBlock(mcSeqno, prove);
    const id = mc.block.id;
    return this.accounts.get(`${id.rootHash.toString('hex')}:${address.toRawString()}`, async () => {
      let shardAccount: Cell | undefined;
      await this.pool.query(
        Functions.liteServer_getAccountState,
        {
          kind: 'liteServer.getAccountState',
          id: toTlBlockId(id),
          account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
        },
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

  getTransactions(address: Address, q: TransactionQuery): Promise<ChainTransaction[]> {
    return this.transactions.getTransactions(address, q);
  }

  /**
   * The network's live index (src/index), once it runs: what a liteserver cannot find (a transaction by its hash
   * alone, the transactions of a message) is looked up there, then read from the liteservers and checked like
   * any other. Only as far back as the index reaches.
   */
  useIndex(index: TransactionLocator): void {
    this.transactions.useIndex(index);
  }

  getTransaction(hash: Buffer): Promise<ChainTransaction | undefined> {
    return this.transactions.getTransaction(hash);
  }

  /** Transactions that received the message, then the one that sent it (from the index, within its range). */
  getTransactionsByMessage(msgHash: Buffer): Promise<ChainTransaction[]> {
    return this.transactions.getTransactionsByMessage(msgHash);
  }

  getMessage(hash: Buffer): ChainMessage | undefined {
    return this.transactions.getMessage(hash);
  }

  blockTransactions(ref: BlockRef, q: BlockTransactionQuery): Promise<BlockTransactions> {
    return this.transactions.blockTransactions(ref, q);
  }

  runGetMethod(
    address: Address,
    method: string | number,
    stack: TupleItem[],
    mcSeqno?: number,
    options: GetMethodOptions = {},
  ): Promise<GetMethodResult> {
    return this.getMethods.runGetMethod(address, method, stack, mcSeqno, options);
  }

  /** A state the caller holds (a pending trace's, emulated), at the head. */
  runGetMethodOnState(address: Address, shardAccount: string, method: string, stack: TupleItem[]): Promise<GetMethodResult> {
    return this.getMethods.runGetMethodOnState(address, shardAccount, method, stack);
  }

  emulateExternal(message: ExternalToEmulate, options: { ignoreChksig?: boolean } = {}): Promise<EmulationResult> {
    return this.getMethods.emulateExternal(message, options);
  }

  /** On the accounts' states at the head (or `mcSeqno`), each fetched from a liteserver and proven. */
  emulateTrace(boc: Buffer, options?: TraceEmulationOptions): Promise<EmulatedTrace> {
    return this.getMethods.emulateTrace(boc, options);
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
    const sent = { hash: parsed.hash, hashNorm: parsed.hashNorm };
    for (const listener of this.sentListeners) listener(boc, sent);
    return sent;
  }

  /** Calls `listener` with each external message a liteserver accepted (src/pending emulates them: lite-source.ts). */
  onSentExternal(listener: (boc: Buffer, sent: SentMessage) => void): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  async config(): Promise<Cell> {
    return this.getMethods.configAt(this.head.mc);
  }

  libraries(hashes: Buffer[]): Promise<Library[]> {
    return this.getMethods.libraries(hashes);
  }

  /**
   * The validators' signatures of masterchain block `seqno` (tonlib's blocks.getMasterchainBlockSignatures): the
   * forward link from its previous key block, checked against that key block's validator set. Kept per block.
   */
  blockSignatures(seqno: number): Promise<BlockSignatures> {
    return this.proofs.blockSignatures(seqno);
  }

  /** tonlib's blocks.getShardBlockProof: the block's links up to the masterchain, and back from `fromSeqno` (the head by default). */
  shardBlockProof(ref: BlockRef, fromSeqno?: number): Promise<ShardBlockProof> {
    return this.proofs.shardBlockProof(ref, fromSeqno);
  }

  onBlock(): () => void {
    // No sealed blocks are handed over: the index reads each block itself (feedBlock), told by onHead.
    return () => undefined;
  }

  /** Calls `listener` with each new masterchain seqno, once its block is fetched. */
  onHead(listener: (seqno: number) => void): () => void {
    return this.head.onHead(listener);
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
