/**
 * LocalChain: the embedded chain of one network. It opens the store, the emulator and the zero state, wires the
 * block producer, the readers and the devnet controls together (mining.ts, faucet.ts, state-control.ts,
 * snapshot-control.ts), and delegates to them; it hands each sealed block to its listeners.
 */
import { Address, Cell, type TupleItem } from '@ton/core';
import { systemClock } from '../../util/clock.js';
import type { ChainTime, DevnetChain, FaucetInfo, FaucetMessage, InjectedMessage, MiningMode, SnapshotRestored } from '../devnet-chain.js';
import type {
  AccountState,
  Block,
  BlockId,
  BlockLookup,
  BlockRef,
  BlockTransactionQuery,
  BlockTransactions,
  ChainMessage,
  ChainTransaction,
  ChainRewind,
  EmulationResult,
  EmulatedTrace,
  ExternalToEmulate,
  TraceEmulationOptions,
  GetMethodOptions,
  GetMethodResult,
  Library,
  MasterchainInfo,
  OpenBlockTransaction,
  SealedBlock,
  SentMessage,
  TransactionQuery,
} from '../types.js';
import type { AccountPatch } from './account-surgery.js';
import { ChainClock } from './chain-clock.js';
import { SealedAccounts, WorkingAccounts } from './accounts.js';
import { BASECHAIN, MASTERCHAIN } from '../../ton/workchain.js';
import { BlockIndex, ChainHead } from './blocks.js';
import { ChainConfig } from './chain-config.js';
import { networkConfig } from './config.js';
import { EmulatorPool } from '../emulator/emulator-pool.js';
import { ChainStopped } from './errors.js';
import { Faucet, faucetKeys, faucetWallets, type FaucetKeys, type FaucetWallet } from './faucet.js';
import { writeGenesis } from './genesis.js';
import { PublicLibraries } from './libraries.js';
import { Mining } from './mining.js';
import { queuedFromStore } from './message-queue.js';
import { DEFAULT_GET_METHOD_GAS_LIMIT, DEFAULT_MAX_BLOCK_TRANSACTIONS, validateOptions, type LocalChainOptions } from './options.js';
import { BlockProducer, type Logger, type SealedStep } from './producer.js';
import { ChainReader } from './reader.js';
import { messageFromRecord, transactionFromExecuted } from './records.js';
import { ChainStore } from './store.js';
import { SnapshotControl } from './snapshot-control.js';
import type { SnapshotInfo } from './snapshot-store.js';
import { StateControl } from './state-control.js';
import { checkIdentity, storedConfig, zeroStateAccounts } from './zero-state.js';

export class LocalChain implements DevnetChain {
  readonly name: string;
  readonly globalId: number;
  /** Its get-methods run on its own emulator, their gas bounded: an index waits for them (IndexFeed). */
  readonly getMethodsAlwaysAnswer = true;
  private readonly listeners = new Set<(block: SealedBlock) => void>();
  private readonly openListeners = new Set<(tx: OpenBlockTransaction) => void>();
  private stopping?: Promise<void>;
  private producer!: BlockProducer;
  private mining!: Mining;
  private faucet!: Faucet;
  private stateControl!: StateControl;
  private snapshotControl!: SnapshotControl;
  private reader!: ChainReader;
  private loaded: Promise<void> = Promise.resolve();

  private constructor(
    private readonly opts: LocalChainOptions,
    private readonly store: ChainStore,
    private readonly chainConfig: ChainConfig,
    private readonly keys: FaucetKeys,
    private readonly wallets: FaucetWallet[],
    private readonly logger: Logger | undefined,
  ) {
    this.name = opts.network;
    this.globalId = opts.globalId;
  }

  static async open(opts: LocalChainOptions): Promise<LocalChain> {
    validateOptions(opts);
    const baseClock = opts.clock ?? systemClock;
    const pool = opts.emulators ?? EmulatorPool.shared();
    const keysReady = faucetKeys(opts.faucetMnemonic);
    keysReady.catch(() => undefined); // awaited below; not unhandled if the store fails to open first
    let store: ChainStore | undefined;
    let chainConfig: ChainConfig | undefined;
    try {
      store = ChainStore.open(opts.dataDir);
      const isNew = store.lastMcSeqno() === undefined;
      const config = isNew ? networkConfig(opts.globalId) : storedConfig(store, opts.globalId);
      // The emulator workers load (~0.3 s, more under tsx) while the faucet key is derived.
      const emulator = pool.emulator(config.base64);
      chainConfig = new ChainConfig(pool, { config, emulator });
      const emulatorReady = emulator.ready({ warmReadAfter: opts.emulatorReadAfter });
      emulatorReady.catch(() => undefined); // awaited below; not unhandled if an earlier step throws
      const keys = await keysReady;
      const wallets = faucetWallets(keys.keyPair.publicKey, opts.globalId);
      checkIdentity(store, opts, keys.keyPair.publicKey);
      const clock = new ChainClock(baseClock, store);
      if (isNew) {
        await writeGenesis(store, {
          globalId: opts.globalId,
          configHash: config.cell.hash(),
          accounts: zeroStateAccounts(wallets, config.cell, opts.genesisAccounts ?? []),
          libraries: new PublicLibraries([]),
          utime: clock.utime(),
        });
      }
      if (!opts.emulatorLater) await emulatorReady;
      const chain = new LocalChain(opts, store, chainConfig, keys, wallets, opts.logger);
      chain.loaded = emulatorReady;
      chain.wire(clock);
      opts.logger?.info(
        { seqno: chain.masterchainInfo().last.id.seqno, dataDir: opts.dataDir ?? null },
        `${opts.network} local chain opened`,
      );
      return chain;
    } catch (err) {
      store?.close();
      chainConfig?.close();
      throw err;
    }
  }

  /** Resolves once the emulator worker has loaded (already, unless opened with `emulatorLater`); rejects if it failed. */
  emulatorLoaded(): Promise<void> {
    return this.loaded;
  }

  private wire(clock: ChainClock): void {
    const { store, opts } = this;
    const libraries = new PublicLibraries(store.publicLibraries());
    const last = store.lastMcSeqno()!;
    const blocks = new BlockIndex(store, opts.globalId);
    const head = new ChainHead(
      blocks.get(MASTERCHAIN, 0, last)!,
      blocks.get(MASTERCHAIN, last, last)!,
      blocks.get(BASECHAIN, last, last)!,
      ChainHead.recentIds(blocks, last),
    );
    const sealed = new SealedAccounts(store);
    const working = new WorkingAccounts(store, () => head.seqno);
    const pending = queuedFromStore(store.pendingMessages());
    const stopping = () => this.stopping !== undefined;
    this.producer = new BlockProducer({
      network: opts.network,
      globalId: opts.globalId,
      maxBlockTransactions: opts.maxBlockTransactions ?? DEFAULT_MAX_BLOCK_TRANSACTIONS,
      config: this.chainConfig,
      libraries,
      store,
      head,
      blocks,
      working,
      sealed,
      clock,
      logger: this.logger,
      pending,
      onSealed: (step) => {
        this.mining.blockSealed();
        this.emit(step);
      },
      onApplied: (tx) => {
        for (const listener of this.openListeners) listener(tx);
      },
    });
    this.mining = new Mining(
      { name: opts.network, producer: this.producer, wallClock: opts.clock ?? systemClock, logger: this.logger, stopping },
      opts,
    );
    this.faucet = new Faucet({
      name: opts.network,
      globalId: opts.globalId,
      keys: this.keys,
      wallets: this.wallets,
      producer: this.producer,
      mining: this.mining,
      stopping,
    });
    this.reader = new ChainReader({
      store,
      blocks,
      head,
      sealed,
      config: this.chainConfig,
      libraries,
      clock,
      getMethodGasLimit: opts.getMethodGasLimit ?? DEFAULT_GET_METHOD_GAS_LIMIT,
    });
    this.stateControl = new StateControl({
      name: opts.network,
      producer: this.producer,
      reader: this.reader,
      clock,
      config: this.chainConfig,
      mining: this.mining,
      stopping,
    });
    this.snapshotControl = new SnapshotControl({
      globalId: opts.globalId,
      store,
      producer: this.producer,
      views: { blocks, head, sealed, working, libraries },
      clock,
      config: this.chainConfig,
      mining: this.mining,
      logger: this.logger,
    });
  }

  // ---- life cycle ----

  /**
   * Starts block production: in auto mining a block every intervalMs, empty or not; in manual mining nothing
   * until asked. Idempotent.
   */
  start(): void {
    this.mining.start();
  }

  /** How long auto mining has gone without sealing a block (mining.ts); undefined while none is due. */
  msWithoutBlock(): number | undefined {
    return this.mining.msWithoutBlock();
  }

  /** Seals a block now (delivering queued messages first); resolves with the new masterchain block. */
  produceBlock(): Promise<Block> {
    return this.mining.produceBlock();
  }

  // ---- mining (devnet controls) ----

  miningMode(): MiningMode {
    return this.mining.mode();
  }

  /** Auto mining (a block every intervalMs: by default the last interval used) or manual mining (blocks when asked). */
  setMiningMode(mode: { mode: 'auto'; intervalMs?: number } | { mode: 'manual' }): MiningMode {
    return this.mining.setMode(mode);
  }

  /** Seals `blocks` blocks one after another, the first with everything pending; resolves with the last one. */
  mine(blocks = 1): Promise<Block> {
    return this.mining.mine(blocks);
  }

  /**
   * Stops the timer, lets accepted work finish, seals the block in progress (if it holds any
   * transaction) and closes the store. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.mining.halt();
      await this.producer.idle();
      if (this.producer.hasOpenTransactions()) {
        await this.mining.sealLast().catch((err) => this.logger?.error({ err }, 'sealing the last block failed'));
      }
      this.producer.close();
      await this.producer.idle();
      this.store.close();
      this.chainConfig.close();
      this.logger?.info({ seqno: this.reader.masterchainInfo().last.id.seqno }, `${this.name} local chain stopped`);
    })();
    return this.stopping;
  }

  /** Work in flight: internal messages waiting for delivery, transactions in the unsealed block. */
  stats(): { pendingMessages: number; openTransactions: number } {
    return { pendingMessages: this.producer.queueLength, openTransactions: this.producer.openTransactions };
  }

  onBlock(listener: (block: SealedBlock) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onOpenTransaction(listener: (tx: OpenBlockTransaction) => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  private emit(step: SealedStep): void {
    if (this.listeners.size === 0) return;
    const seqno = step.mc.id.seqno;
    let messages: ChainMessage[] | undefined;
    const sealed: SealedBlock = {
      masterchain: step.mc,
      shard: step.shard,
      transactions: step.txs.map((t) => transactionFromExecuted(t, seqno)),
      // Made when first read, not before the listeners: none of them reads it today (the index takes the messages from
      // the transactions), and at full speed a block's ~3,000 messages, two addresses parsed each, took ~5 ms here.
      get messages() {
        return (messages ??= step.messages.map((m) => messageFromRecord(m, seqno)));
      },
      accountStates: step.changed.map((c) => {
        let cell: Cell | undefined;
        return {
          address: c.address,
          get shardAccount() {
            return (cell ??= Cell.fromBase64(c.shardAccount));
          },
          // The index takes the bytes (src/index/feed.ts) and parses them on its own thread: parsing every changed
          // state here, then packing its cells for that thread, took ~5 % of this thread at full speed.
          get boc() {
            return Buffer.from(c.shardAccount, 'base64');
          },
        };
      }),
    };
    for (const listener of this.listeners) {
      try {
        listener(sealed);
      } catch (err) {
        this.logger?.error({ err }, 'onBlock listener failed');
      }
    }
  }

  // ---- messages and the faucet ----

  async sendExternal(boc: Buffer): Promise<SentMessage> {
    if (this.stopping) throw new ChainStopped(this.name);
    const { parsed } = await this.producer.submitExternal(boc);
    return { hash: parsed.hash, hashNorm: parsed.hashNorm };
  }

  faucets(): FaucetInfo[] {
    return this.faucet.info();
  }

  /** A signed transfer from the v4r2 faucet (faucet.ts); resolves once its transaction is in a sealed block. */
  fund(address: Address, amount: bigint): Promise<{ txHash: Buffer; lt: bigint; seqno: number }> {
    return this.faucet.fund(address, amount);
  }

  /** Any one message from the v4r2 faucet (the jetton faucet's mint); resolves once its transaction is sealed. */
  sendFromFaucet(message: FaucetMessage): Promise<{ txHash: Buffer; lt: bigint; seqno: number; messageHash: Buffer }> {
    return this.faucet.send(message);
  }

  // ---- time (devnet controls; state-control.ts) ----

  time(): ChainTime {
    return this.stateControl.time();
  }
  increaseTime(seconds: number): Promise<ChainTime> {
    return this.stateControl.increaseTime(seconds);
  }
  setTime(utime: number): Promise<ChainTime> {
    return this.stateControl.setTime(utime);
  }
  setNextBlockTime(utime: number): Promise<ChainTime> {
    return this.stateControl.setNextBlockTime(utime);
  }

  // ---- state surgery and config (devnet controls; state-control.ts) ----

  setAccount(address: Address, change: AccountPatch | { shardAccount: Cell }): Promise<{ seqno: number }> {
    return this.stateControl.setAccount(address, change);
  }
  sendInternal(boc: Buffer): Promise<InjectedMessage> {
    return this.stateControl.sendInternal(boc);
  }
  setConfig(params: ReadonlyMap<number, Cell>): Promise<{ seqno: number; configSeqno: number }> {
    return this.stateControl.setConfig(params);
  }

  // ---- snapshots (devnet controls; snapshot-control.ts) ----

  snapshots(): SnapshotInfo[] {
    return this.snapshotControl.list();
  }
  saveSnapshot(name: string): Promise<SnapshotInfo> {
    return this.snapshotControl.save(name);
  }
  deleteSnapshot(name: string): SnapshotInfo {
    return this.snapshotControl.delete(name);
  }
  restoreSnapshot(name: string): Promise<SnapshotRestored> {
    return this.snapshotControl.restore(name);
  }
  exportSnapshot(name: string): Promise<Buffer> {
    return this.snapshotControl.export(name);
  }
  importSnapshot(name: string, bytes: Buffer): Promise<SnapshotInfo> {
    return this.snapshotControl.import(name, bytes);
  }
  /** Called after a restore or an import, before either answers; a returned promise is awaited. */
  onRewind(listener: (rewind: ChainRewind) => unknown): () => void {
    return this.snapshotControl.onRewind(listener);
  }

  // ---- reads (visible state = last sealed block) ----

  /**
   * Every account of the zero state (the faucets, the config contract and elector, the `--genesis` accounts), as
   * block 0 wrote them: a genesis file given to a restart of an existing chain changes nothing.
   */
  zeroStateAccounts(): { address: Address }[] {
    return this.store.accountsChangedAt(0).map((a) => ({ address: new Address(a.workchain, a.account) }));
  }

  /** The accounts masterchain block `mcSeqno` changed, by a transaction or by a devnet state change. */
  changedAccounts(mcSeqno: number): Address[] {
    return this.store.accountsChangedAt(mcSeqno).map((a) => new Address(a.workchain, a.account));
  }

  masterchainInfo(): MasterchainInfo {
    return this.reader.masterchainInfo();
  }
  getBlock(ref: BlockRef): Block | undefined {
    return this.reader.getBlock(ref);
  }
  lookupBlock(query: BlockLookup): Block | undefined {
    return this.reader.lookupBlock(query);
  }
  shardsAt(mcSeqno: number): BlockId[] {
    return this.reader.shardsAt(mcSeqno);
  }
  getAccount(address: Address, mcSeqno?: number): AccountState {
    return this.reader.getAccount(address, mcSeqno);
  }
  getTransactions(address: Address, query: TransactionQuery): ChainTransaction[] {
    return this.reader.getTransactions(address, query);
  }
  getTransaction(hash: Buffer): ChainTransaction | undefined {
    return this.reader.getTransaction(hash);
  }
  getTransactionsByMessage(msgHash: Buffer): ChainTransaction[] {
    return this.reader.getTransactionsByMessage(msgHash);
  }
  getMessage(hash: Buffer): ChainMessage | undefined {
    return this.reader.getMessage(hash);
  }
  blockTransactions(ref: BlockRef, query: BlockTransactionQuery): BlockTransactions {
    return this.reader.blockTransactions(ref, query);
  }
  /** Runs on an emulator worker thread; fails with EmulatorFailed if that worker dies under it. */
  runGetMethod(
    address: Address,
    method: string | number,
    stack: TupleItem[],
    mcSeqno?: number,
    options?: GetMethodOptions,
  ): Promise<GetMethodResult> {
    return this.reader.runGetMethod(address, method, stack, mcSeqno, options);
  }
  /** An account state the caller holds (a pending trace's), at the last sealed block; on an emulator worker thread. */
  runGetMethodOnState(address: Address, shardAccount: string, method: string, stack: TupleItem[]): Promise<GetMethodResult> {
    return this.reader.runGetMethodOnState(address, shardAccount, method, stack);
  }
  /** Runs on an emulator worker thread; fails with EmulatorFailed if that worker dies under it. */
  emulateExternal(message: ExternalToEmulate, options?: { ignoreChksig?: boolean }): Promise<EmulationResult> {
    return this.reader.emulateExternal(message, options);
  }
  emulateTrace(boc: Buffer, options?: TraceEmulationOptions): Promise<EmulatedTrace> {
    return this.reader.emulateTrace(boc, options);
  }
  /** The config now, or as of masterchain block `mcSeqno` (its config contract's data then). */
  config(mcSeqno?: number): Cell {
    return this.reader.config(mcSeqno);
  }
  libraries(hashes: Buffer[]): Library[] {
    return this.reader.libraries(hashes);
  }
}
