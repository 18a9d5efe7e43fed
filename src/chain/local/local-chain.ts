/**
 * LocalChain: the embedded chain of one network. It wires the store, the emulator, the block
 * producer and the readers together, runs the block timer, and implements the faucet.
 */
import { Address, beginCell, Cell, external, internal, loadMessage, SendMode, storeMessage, type Message, type TupleItem } from '@ton/core';
import { systemClock, type Clock } from '../../util/clock.js';
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
  DevnetChain,
  MiningMode,
  ChainTime,
  ChainRewind,
  InjectedMessage,
  SnapshotRestored,
  EmulationResult,
  ExternalToEmulate,
  FaucetInfo,
  FaucetMessage,
  GetMethodOptions,
  GetMethodResult,
  Library,
  MasterchainInfo,
  OpenBlockTransaction,
  SealedBlock,
  SentMessage,
  TransactionQuery,
} from '../types.js';
import { AccountView } from './account-view.js';
import { patchedShardAccount, replacedShardAccount, type AccountPatch } from './account-surgery.js';
import { ChainClock } from './chain-clock.js';
import { SealedAccounts, WorkingAccounts } from './accounts.js';
import { BASECHAIN, MASTERCHAIN } from '../../ton/workchain.js';
import { BlockIndex, ChainHead } from './blocks.js';
import { ChainConfig } from './chain-config.js';
import { changedConfig } from './config-change.js';
import { networkConfig, networkConfigOf, type NetworkConfig } from './config.js';
import { EmulatorPool } from './emulator-pool.js';
import { BadMessage, ChainDataMismatch, ChainInputError, ChainStopped, FundFailed, FundRefused } from './errors.js';
import { faucetContracts, faucetKeys, faucetWallets, type FaucetKeys, type FaucetWallet } from './faucet.js';
import { GenesisRefused } from './genesis-accounts.js';
import { FAUCET_BALANCE, writeGenesis, type ZeroStateAccount } from './genesis.js';
import { PublicLibraries } from './libraries.js';
import { holdsAccounts, parseExternal } from './messages.js';
import { configContractAddress, configContractData, readConfigContractData, systemContracts } from './system-accounts.js';
import { BlockProducer, type Logger, type QueuedMessage, type SealedStep } from './producer.js';
import { ChainReader } from './reader.js';
import { messageFromRecord, transactionFromExecuted } from './records.js';
import { ChainStore } from './store.js';
import type { SnapshotInfo } from './snapshot-store.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';


/** What a fund leaves in the faucet for its own fees (a transfer costs ~0.005 TON; 1 TON is ample). */
const FAUCET_FEE_RESERVE = 1_000_000_000n;

export interface LocalChainOptions {
  /** Network name ('mainnet', 'testnet', ...): recorded in the data dir, which then serves only it. */
  network: string;
  /** -239 mainnet, -3 testnet: block global_id and config param 19. */
  globalId: number;
  /** Directory of the chain's SQLite file; undefined = ephemeral (in memory, nothing on disk). */
  dataDir?: string;
  /**
   * Time between blocks (default 1000). Blocks keep coming when the chain is idle. 0: manual mining (no block
   * until `mine()`, `fund()` or a state change asks for one).
   */
  blockIntervalMs?: number;
  /** 'manual': start in manual mining (blockIntervalMs is then the interval a switch to auto mining uses). */
  mining?: 'auto' | 'manual';
  /** 24 words: the faucet wallets' key. */
  faucetMnemonic: string[];
  clock?: Clock;
  logger?: Logger;
  /** Per-block cap on transactions from internal messages (default 10,000). */
  maxBlockTransactions?: number;
  /** Gas limit of get-methods (default 1,000,000; an endless get-method stops there, after ~1-2 s of a worker thread). */
  getMethodGasLimit?: bigint;
  /** The emulator worker threads (default: the process-wide pool, shared by every chain). */
  emulators?: EmulatorPool;
  /**
   * Accounts a new chain's zero state holds besides the faucets and the system contracts (`--genesis FILE`);
   * ignored when the data dir already holds a chain.
   */
  genesisAccounts?: ZeroStateAccount[];
}

export const DEFAULT_BLOCK_INTERVAL_MS = 1000;
export const DEFAULT_MAX_BLOCK_TRANSACTIONS = 10_000;
export const DEFAULT_GET_METHOD_GAS_LIMIT = 1_000_000n;
/**
 * Manual mining: how long one `mine()` may spend delivering queued internal messages before sealing (nobody
 * waits on a cadence; a test wants its message chains done in the block it asked for, up to the per-block cap).
 */
const MANUAL_DRAIN_BUDGET_MS = 5_000;

export class LocalChain implements DevnetChain {
  readonly name: string;
  readonly globalId: number;
  private mining: MiningMode;
  /** The interval of auto mining when a switch to it names none: the last one used, or the configured one. */
  private autoIntervalMs: number;
  private started = false;
  private readonly listeners = new Set<(block: SealedBlock) => void>();
  private readonly openListeners = new Set<(tx: OpenBlockTransaction) => void>();
  private timer?: NodeJS.Timeout;
  private production: Promise<unknown> = Promise.resolve();
  private configChanges: Promise<unknown> = Promise.resolve();
  private stopping?: Promise<void>;
  private producer!: BlockProducer;
  private reader!: ChainReader;
  private clock!: ChainClock;
  /** The injected clock itself (wall time in production), without the chain's offset. */
  private readonly wallClock: Clock;
  /**
   * Since when a block is due, on the injected clock (not the chain's, which time controls move): the last seal, or
   * the start of auto mining if later. Undefined while none is due (manual mining, not started).
   */
  private blockDueSince?: number;
  /** The in-memory views of the store a snapshot restore resets (wire() builds them). */
  private memory!: { blocks: BlockIndex; head: ChainHead; sealed: SealedAccounts; working: WorkingAccounts; libraries: PublicLibraries };
  private readonly rewindListeners = new Set<(rewind: ChainRewind) => unknown>();

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
    this.wallClock = opts.clock ?? systemClock;
    const interval = opts.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS;
    this.autoIntervalMs = interval || DEFAULT_BLOCK_INTERVAL_MS;
    this.mining = interval === 0 || opts.mining === 'manual' ? { mode: 'manual' } : { mode: 'auto', intervalMs: interval };
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
      const emulatorReady = emulator.ready();
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
      await emulatorReady;
      const chain = new LocalChain(opts, store, chainConfig, keys, wallets, opts.logger);
      chain.wire(clock);
      opts.logger?.info({ seqno: chain.masterchainInfo().last.id.seqno, dataDir: opts.dataDir ?? null }, `${opts.network} local chain opened`);
      return chain;
    } catch (err) {
      store?.close();
      chainConfig?.close();
      throw err;
    }
  }

  private wire(clock: ChainClock): void {
    const { store, opts } = this;
    const libraries = new PublicLibraries(store.publicLibraries());
    this.clock = clock;
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
    const pending = pendingFromStore(store);
    this.memory = { blocks, head, sealed, working, libraries };
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
        if (this.blockDueSince !== undefined) this.blockDueSince = this.wallClock.now();
        this.emit(step);
      },
      onApplied: (tx) => {
        for (const listener of this.openListeners) listener(tx);
      },
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
  }

  // ---- life cycle ----

  /**
   * Starts block production: in auto mining a block every intervalMs, empty or not; in manual mining nothing
   * until asked. Idempotent.
   */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    this.scheduleBlocks();
  }

  /** The block timer of auto mining (a new one for each mode change; the running one is cleared first). */
  private scheduleBlocks(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const mining = this.mining;
    this.blockDueSince = undefined;
    if (!this.started || this.stopping || mining.mode !== 'auto') return;
    // A chain that just started (its head is the block it last sealed, maybe long ago) or leaves manual mining is
    // not late: its first block is due an interval from now.
    this.blockDueSince = this.wallClock.now();
    const interval = mining.intervalMs;
    let due = Date.now() + interval;
    const tick = () => {
      this.timer = undefined;
      this.produceBlock()
        .catch((err) => this.logger?.error({ err }, 'block production failed'))
        .finally(() => {
          // Stopped, or the mode changed meanwhile (its own timer runs, or none).
          if (this.stopping || this.mining !== mining) return;
          // Keep a steady cadence; after a long stall, restart it rather than firing a burst.
          due = Math.max(due + interval, Date.now());
          this.timer = setTimeout(tick, due - Date.now());
        });
    };
    // Not unref'd: a started chain keeps the process alive until stop(), like a server socket.
    this.timer = setTimeout(tick, interval);
  }

  /**
   * How long auto mining has gone without sealing a block, in milliseconds of the injected clock: since the last
   * seal, or since auto mining began if that is later. Undefined while no block is due (manual mining, before
   * `start()`, once stopping). What a health check calls a stuck producer; the head's gen_utime is no measure
   * of it (a restart after downtime, a slow start-up and a time control each leave the newest block old while the
   * producer is on time).
   */
  msWithoutBlock(): number | undefined {
    if (this.blockDueSince === undefined || this.stopping) return undefined;
    return Math.max(0, this.wallClock.now() - this.blockDueSince);
  }

  /** Seals a block now (delivering queued messages first); resolves with the new masterchain block. */
  produceBlock(): Promise<Block> {
    if (this.stopping) return Promise.reject(new ChainStopped(this.name));
    return this.enqueueProduction();
  }

  // ---- mining (devnet controls) ----

  miningMode(): MiningMode {
    return { ...this.mining };
  }

  /**
   * Switches between auto mining (a block every intervalMs: by default the last interval used, or the configured
   * one) and manual mining (blocks only when asked).
   */
  setMiningMode(mode: { mode: 'auto'; intervalMs?: number } | { mode: 'manual' }): MiningMode {
    if (this.stopping) throw new ChainStopped(this.name);
    if (mode.mode === 'auto') {
      const intervalMs = mode.intervalMs ?? this.autoIntervalMs;
      if (!Number.isInteger(intervalMs) || intervalMs < 1) throw new ChainInputError(`interval_ms: expected a positive integer, got ${intervalMs}`);
      this.autoIntervalMs = intervalMs;
      this.mining = { mode: 'auto', intervalMs };
    } else {
      this.mining = { mode: 'manual' };
    }
    this.scheduleBlocks();
    return this.miningMode();
  }

  /**
   * Seals `blocks` blocks one after another, the first with everything pending (the transactions executed into
   * the open block, the queued internal messages, up to the per-block cap); resolves with the last one.
   */
  async mine(blocks = 1): Promise<Block> {
    if (!Number.isInteger(blocks) || blocks < 1) throw new ChainInputError(`blocks: expected a positive integer, got ${blocks}`);
    let last: Block | undefined;
    for (let i = 0; i < blocks; i++) last = await this.produceBlock();
    return last!;
  }

  private enqueueProduction(): Promise<Block> {
    // Auto mining: half an interval at most for delivering queued messages before sealing, so blocks stay on time.
    const budget = this.mining.mode === 'auto' ? Math.max(50, this.mining.intervalMs / 2) : MANUAL_DRAIN_BUDGET_MS;
    const step = this.production.then(() => this.producer.produce(budget));
    this.production = step.catch(() => undefined);
    return step.then((s) => s.mc);
  }

  /**
   * Stops the timer, lets accepted work finish, seals the block in progress (if it holds any
   * transaction) and closes the store. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // Cleared here, not through scheduleBlocks: `stopping` is assigned only once this function first awaits.
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.production;
      await this.producer.idle();
      if (this.producer.hasOpenTransactions()) {
        await this.enqueueProduction().catch((err) => this.logger?.error({ err }, 'sealing the last block failed'));
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
    const sealed: SealedBlock = {
      masterchain: step.mc,
      shard: step.shard,
      transactions: step.txs.map((t) => transactionFromExecuted(t, seqno)),
      messages: step.messages.map((m) => messageFromRecord(m, seqno)),
      accountStates: step.changed.map((c) => {
        let cell: Cell | undefined;
        return {
          address: c.address,
          get shardAccount() {
            return (cell ??= Cell.fromBase64(c.shardAccount));
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
    return this.wallets.map(({ kind, address, walletId }) => ({ kind, address, walletId }));
  }

  /**
   * A real transfer from the v4r2 faucet: non-bounceable (so it can fund an address that has no
   * contract yet), signed with the faucet key. Funds run one at a time on the producer's lane, each
   * reading the faucet's seqno from the current state, so concurrent calls never reuse a seqno.
   */
  async fund(address: Address, amount: bigint): Promise<{ txHash: Buffer; lt: bigint; seqno: number }> {
    if (amount <= 0n) throw new ChainInputError('amount: must be positive');
    const { txHash, lt, seqno } = await this.sendFromFaucet({ to: address, value: amount, bounce: false }, 'address');
    return { txHash, lt, seqno };
  }

  /**
   * One message from the v4r2 faucet (a signed transfer, mode pay-fees-separately + ignore-errors); resolves once
   * the faucet's transaction is in a sealed block, with the hash of the message it sent. `fund` is this with no
   * body; the jetton faucet sends a mint through it.
   */
  async sendFromFaucet(message: FaucetMessage, addressField = 'to'): Promise<{ txHash: Buffer; lt: bigint; seqno: number; messageHash: Buffer }> {
    if (this.stopping) throw new ChainStopped(this.name);
    const { to, value } = message;
    // A transfer to a workchain that does not exist would be dropped by the faucet's action phase.
    if (to.workChain !== BASECHAIN && to.workChain !== MASTERCHAIN) {
      throw new FundRefused(`${addressField}: workchain ${to.workChain} does not exist on this chain (${BASECHAIN} and ${MASTERCHAIN} do)`);
    }
    const faucet = faucetContracts(this.keys.keyPair.publicKey, this.globalId).v4;
    const { tx, sealed } = await this.producer.exclusive(async ({ execute, working, chainTime, whenSealed }) => {
      const view = new AccountView(faucet.address, Buffer.from(working.get(faucet.address), 'base64'));
      if (value > view.balance - FAUCET_FEE_RESERVE) {
        throw new FundRefused(
          `amount: the faucet ${faucet.address.toString()} holds ${view.balance} nanotons and keeps ${FAUCET_FEE_RESERVE} for fees; ask for at most ${view.balance - FAUCET_FEE_RESERVE}`,
        );
      }
      const seqno = view.data ? view.data.beginParse().loadUint(32) : 0;
      const body = await faucet.createTransfer({
        seqno,
        signer: async (cell: Cell) => this.keys.signCell(cell),
        messages: [internal({ to, value, bounce: message.bounce ?? true, body: message.body, init: message.init })],
        sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
        timeout: chainTime() + 600,
      });
      const external_ = beginCell().store(storeMessage(external({ to: faucet.address, body }))).endCell();
      const tx = await execute(parseExternal(external_.toBoc()));
      if (tx.outMsgs.length !== 1) {
        throw new FundFailed(`the faucet ${faucet.address.toString()} could not send ${value} nanotons (is its balance too low?)`);
      }
      return { tx, sealed: whenSealed(tx) };
    });
    // Manual mining: nobody else would seal it, and a fund answers once its transaction is in a block.
    if (this.mining.mode === 'manual') this.produceBlock().catch(() => undefined);
    return { txHash: tx.hash, lt: tx.lt, seqno: await sealed, messageHash: tx.outMsgs[0].hash };
  }

  // ---- time (devnet controls) ----

  /** The chain's clock: its time now, the last block's gen_utime, the next block's if pinned. */
  time(): ChainTime {
    const nowMs = this.clock.now();
    return {
      utime: Math.floor(nowMs / 1000),
      nowMs,
      lastBlockUtime: this.reader.masterchainInfo().last.genUtime,
      nextBlockUtime: this.clock.nextBlockUtime,
      aheadSeconds: Math.round(this.clock.aheadMs / 1000),
    };
  }

  /** Moves the chain's time forward: the next block opened, its transactions and get-methods see it. */
  async increaseTime(seconds: number): Promise<ChainTime> {
    if (!Number.isInteger(seconds) || seconds < 0) throw new ChainInputError(`seconds: expected a non-negative integer, got ${seconds}`);
    await this.producer.retime(() => this.clock.increase(seconds));
    return this.time();
  }

  /** Sets the chain's time (refused before the last block's gen_utime: time never goes back). */
  async setTime(utime: number): Promise<ChainTime> {
    checkUtime(utime, 'utime');
    await this.producer.retime((notBefore) => this.clock.set(utime, notBefore));
    return this.time();
  }

  /** The next block's gen_utime, exactly; the chain's time runs on from there. */
  async setNextBlockTime(utime: number): Promise<ChainTime> {
    checkUtime(utime, 'utime');
    await this.producer.retime((notBefore) => this.clock.pinNextBlock(utime, notBefore));
    return this.time();
  }

  // ---- state surgery (devnet controls) ----

  /**
   * Sets an account's balance, code and/or data, or its whole ShardAccount, without a transaction, and seals
   * the change in a block (whatever the mining mode) so every reader sees it. Resolves with that block's seqno.
   */
  async setAccount(address: Address, change: AccountPatch | { shardAccount: Cell }): Promise<{ seqno: number }> {
    if (this.stopping) throw new ChainStopped(this.name);
    if (!holdsAccounts(address.workChain)) {
      throw new ChainInputError(`address: workchains 0 and -1 hold accounts on this chain, not ${address.workChain}`);
    }
    if (address.equals(configContractAddress(this.chainConfig.cell))) {
      throw new ChainInputError('address: the config contract holds the config; change it with POST /devnet/config');
    }
    const { sealed } = await this.producer.replaceAccount(address, (current, genUtime) =>
      'shardAccount' in change ? replacedShardAccount(address, change.shardAccount) : patchedShardAccount(address, current, change, genUtime),
    );
    this.produceBlock().catch(() => undefined);
    return { seqno: await sealed };
  }

  /**
   * Delivers an internal message that no transaction sent (any source, no signature): recorded in a block and
   * delivered in it (unless the block's cap is reached: then in a later one). Seals that block whatever the
   * mining mode. Resolves with the block the message is recorded in and, if delivered there, its transaction.
   */
  async sendInternal(boc: Buffer): Promise<InjectedMessage> {
    if (this.stopping) throw new ChainStopped(this.name);
    const { cell, message } = parseInternal(boc, this.reader.masterchainInfo().last.endLt);
    if (message.info.type !== 'internal') throw new Error('unreachable');
    const hash = cell.hash();
    const { sealed } = await this.producer.injectInternal({ cell, boc: cell.toBoc(), hash, dest: message.info.dest, createdLt: message.info.createdLt, message });
    this.produceBlock().catch(() => undefined);
    const seqno = await sealed;
    const tx = this.reader.getTransactionsByMessage(hash)[0];
    return { hash, seqno, ...(tx ? { transaction: { hash: tx.hash, lt: tx.lt } } : {}) };
  }

  /**
   * Sets config params (fee experiments: gas prices, limits): checked (config-change.ts), loaded by the emulator
   * workers, then written into the config contract's data in a block sealed now (whatever the mining mode).
   * Transactions after the change, get-methods and v2 getConfigParam/getConfigAll use the new config. Resolves
   * with that block's seqno and the config contract's new seqno.
   */
  setConfig(params: ReadonlyMap<number, Cell>): Promise<{ seqno: number; configSeqno: number }> {
    // One change at a time: each starts from the config the previous one left (none is lost to a race).
    const change = this.configChanges.then(() => this.changeConfig(params));
    this.configChanges = change.catch(() => undefined);
    return change;
  }

  private async changeConfig(params: ReadonlyMap<number, Cell>): Promise<{ seqno: number; configSeqno: number }> {
    if (this.stopping) throw new ChainStopped(this.name);
    const current = this.chainConfig.cell;
    const next = await this.chainConfig.prepare(changedConfig(current, params).cell);
    const address = configContractAddress(current);
    let configSeqno = 0;
    let switched = false;
    try {
      const { sealed } = await this.producer.replaceAccount(address, (shardAccount, genUtime) => {
        const view = new AccountView(address, Buffer.from(shardAccount, 'base64'));
        configSeqno = (view.data ? readConfigContractData(view.data).seqno : 0) + 1;
        const change = patchedShardAccount(address, shardAccount, { data: configContractData(next.config.cell, configSeqno) }, genUtime);
        // On the producer's lane, nothing in flight: every transaction sent from here on runs under the new config.
        this.chainConfig.switchTo(next);
        switched = true;
        return change;
      });
      this.produceBlock().catch(() => undefined);
      return { seqno: await sealed, configSeqno };
    } finally {
      if (!switched) next.emulator.close();
    }
  }

  // ---- snapshots (devnet controls; snapshot-store.ts says how they are kept) ----

  snapshots(): SnapshotInfo[] {
    return this.store.snapshots.list();
  }

  /**
   * Saves the chain as snapshot `name`: the block in progress is sealed first if it holds anything, so the
   * snapshot holds everything accepted before the call; then the last sealed block, the pending internal messages
   * and the clock's offset are recorded.
   */
  saveSnapshot(name: string): Promise<SnapshotInfo> {
    checkSnapshotName(name);
    return this.onProductionLane(() =>
      this.producer.atSealedPoint(() => {
        const { mc } = this.memory.head;
        return this.store.snapshots.save(name, mc.id.seqno, mc.id.rootHash, this.clock.now());
      }),
    );
  }

  deleteSnapshot(name: string): SnapshotInfo {
    checkSnapshotName(name);
    return this.store.snapshots.delete(name);
  }

  /**
   * Puts the chain back to snapshot `name`: later blocks are dropped (their seqnos will be produced again), the
   * accounts, the pending messages and the clock are as they were, later snapshots are dropped. Resolves once
   * the rewind listeners (the index) have followed.
   */
  async restoreSnapshot(name: string): Promise<SnapshotRestored> {
    checkSnapshotName(name);
    // The listeners run before the next block is produced: the index never sees a new block before the rewind.
    const rewind = await this.onProductionLane(async () => {
      const rewound = await this.producer.rewind(async () => {
        const result = this.store.snapshots.restore(name, (seqno) => this.store.block(MASTERCHAIN, seqno, seqno)?.rootHash);
        this.resetMemory();
        await this.resetConfig();
        return { pending: pendingFromStore(this.store), result };
      });
      await this.notifyRewind({
        seqno: rewound.seqno,
        accounts: rewound.accounts.map((a) => ({ address: new Address(a.workchain, a.account), shardAccount: a.boc })),
      });
      return rewound;
    });
    return { ...this.store.snapshots.get(name), droppedSnapshots: rewind.dropped };
  }

  /** Snapshot `name` as a chain file (snapshot-file.ts), read into memory. */
  async exportSnapshot(name: string): Promise<Buffer> {
    checkSnapshotName(name);
    const dir = mkdtempSync(join(tmpdir(), 'tongate-snapshot-'));
    try {
      const file = join(dir, 'chain.sqlite');
      // On the lane: VACUUM INTO must not meet a seal's open SQLite transaction.
      await this.producer.exclusive(() => {
        const info = this.store.snapshots.get(name);
        this.store.exportSnapshot(file, name, info.seqno);
      });
      return readFileSync(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Every account of the zero state (the faucets, the config contract and elector, the `--genesis` accounts), as
   * block 0 wrote them: a genesis file given to a restart of an existing chain changes nothing.
   */
  zeroStateAccounts(): { address: Address }[] {
    return this.store.accountsChangedAt(0).map((a) => ({ address: new Address(a.workchain, a.account) }));
  }

  /**
   * Replaces the chain by the one in `bytes` (a file of exportSnapshot, from this network) and saves it as
   * snapshot `name`; every other snapshot is dropped (they stood on the history replaced). The rewind listeners
   * (the index) start over from nothing.
   */
  async importSnapshot(name: string, bytes: Buffer): Promise<SnapshotInfo> {
    checkSnapshotName(name);
    const dir = mkdtempSync(join(tmpdir(), 'tongate-snapshot-'));
    try {
      const file = join(dir, 'chain.sqlite');
      writeFileSync(file, bytes);
      this.store.checkImport(file);
      return await this.onProductionLane(async () => {
        const info = await this.producer.rewind(async () => {
          this.store.importFile(file);
          this.resetMemory();
          await this.resetConfig();
          const { mc } = this.memory.head;
          return { pending: pendingFromStore(this.store), result: this.store.snapshots.save(name, mc.id.seqno, mc.id.rootHash, this.clock.now()) };
        });
        await this.notifyRewind({ seqno: -1, accounts: [] });
        return info;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Called after a restore or an import, before either answers; a returned promise is awaited. */
  onRewind(listener: (rewind: ChainRewind) => unknown): () => void {
    this.rewindListeners.add(listener);
    return () => this.rewindListeners.delete(listener);
  }

  /** The accounts masterchain block `mcSeqno` changed, by a transaction or by a devnet state change. */
  changedAccounts(mcSeqno: number): Address[] {
    return this.store.accountsChangedAt(mcSeqno).map((a) => new Address(a.workchain, a.account));
  }

  /** Runs a step after the block productions asked before it, and before those asked after. */
  private onProductionLane<T>(step: () => Promise<T>): Promise<T> {
    if (this.stopping) return Promise.reject(new ChainStopped(this.name));
    const result = this.production.then(step);
    this.production = result.catch(() => undefined);
    return result;
  }

  /**
   * The config the store now holds (its config contract's data as of the last block), if it is not the one the
   * chain runs under: the emulator is prepared for it and switched to (a restore to before a /devnet/config change).
   */
  private async resetConfig(): Promise<void> {
    const stored = storedConfig(this.store, this.globalId);
    if (stored.cell.hash().equals(this.chainConfig.cell.hash())) return;
    this.chainConfig.switchTo(await this.chainConfig.prepare(stored.cell));
  }

  /** The store was put back (restore, import): the views of it in memory follow. */
  private resetMemory(): void {
    const { blocks, head, sealed, working, libraries } = this.memory;
    libraries.reset(this.store.publicLibraries());
    blocks.clear();
    sealed.clear();
    working.clear();
    const last = this.store.lastMcSeqno()!;
    head.reset(blocks.get(MASTERCHAIN, 0, last)!, blocks.get(MASTERCHAIN, last, last)!, blocks.get(BASECHAIN, last, last)!, ChainHead.recentIds(blocks, last));
    this.clock.reload();
  }

  private async notifyRewind(rewind: ChainRewind): Promise<void> {
    const results = [...this.rewindListeners].map((listener) => Promise.resolve().then(() => listener(rewind)));
    for (const result of await Promise.allSettled(results)) {
      if (result.status === 'rejected') this.logger?.error({ err: result.reason, seqno: rewind.seqno }, 'a rewind listener failed');
    }
  }

  // ---- reads (visible state = last sealed block) ----

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
  runGetMethod(address: Address, method: string | number, stack: TupleItem[], mcSeqno?: number, options?: GetMethodOptions): Promise<GetMethodResult> {
    return this.reader.runGetMethod(address, method, stack, mcSeqno, options);
  }
  /** Runs on an emulator worker thread; fails with EmulatorFailed if that worker dies under it. */
  emulateExternal(message: ExternalToEmulate, options?: { ignoreChksig?: boolean }): Promise<EmulationResult> {
    return this.reader.emulateExternal(message, options);
  }
  /** The config now, or as of masterchain block `mcSeqno` (its config contract's data then). */
  config(mcSeqno?: number): Cell {
    return this.reader.config(mcSeqno);
  }
  libraries(hashes: Buffer[]): Library[] {
    return this.reader.libraries(hashes);
  }
}

/**
 * The config of a chain already on disk: what its config contract holds (POST /devnet/config changes it). A data
 * dir written before the config contract existed keeps the zero state's config.
 */
function storedConfig(store: ChainStore, globalId: number): NetworkConfig {
  const zeroState = networkConfig(globalId);
  const address = configContractAddress(zeroState.cell);
  const stored = store.accountState(address.workChain, address.hash, store.lastMcSeqno()!);
  const data = stored && new AccountView(address, stored.boc).data;
  return data ? networkConfigOf(readConfigContractData(data).config) : zeroState;
}

/** The zero state's accounts; a `--genesis` account at the address of another is refused, naming it. */
function zeroStateAccounts(wallets: FaucetWallet[], config: Cell, genesis: ZeroStateAccount[]): ZeroStateAccount[] {
  const accounts: ZeroStateAccount[] = [
    ...wallets.map((w) => ({ address: w.address, balance: FAUCET_BALANCE, code: w.code, data: w.data })),
    ...systemContracts(config).map((c) => ({ address: c.address, balance: 0n, code: c.code, data: c.data })),
  ];
  const taken = new Set(accounts.map((a) => a.address.toRawString()));
  for (const account of genesis) {
    const raw = account.address.toRawString();
    const label = account.label ?? `genesis account ${raw}`;
    if (taken.has(raw)) throw new GenesisRefused(`${label}: ${raw} is already in the zero state (a faucet, the config contract, the elector, or an earlier entry)`);
    if (!holdsAccounts(account.address.workChain)) throw new GenesisRefused(`${label}: workchains 0 and -1 hold accounts, not ${account.address.workChain}`);
    taken.add(raw);
    accounts.push(account);
  }
  return accounts;
}

/** Undelivered internal messages as the store keeps them, in created_lt order. */
function pendingFromStore(store: ChainStore): QueuedMessage[] {
  return store.pendingMessages().map((p) => {
    const cell = Cell.fromBoc(p.boc)[0];
    const info = loadMessage(cell.beginParse()).info;
    if (info.type !== 'internal') throw new Error('pending_messages holds a non-internal message');
    return { cell, boc: p.boc, hash: p.hash, dest: info.dest, createdLt: p.createdLt, onDisk: true };
  });
}

/** Names people type and URLs carry as they are: letters, digits, `.`, `_`, `-`, 1 to 64 of them. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

function checkSnapshotName(name: string): void {
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
    throw new ChainInputError(`name: expected 1 to 64 letters, digits, ".", "_" or "-", got ${JSON.stringify(String(name).slice(0, 80))}`);
  }
}

function validateOptions(opts: LocalChainOptions): void {
  if (typeof opts.network !== 'string' || opts.network === '') throw new Error('network: a non-empty name is required');
  if (!Number.isInteger(opts.globalId) || opts.globalId < -(2 ** 31) || opts.globalId >= 2 ** 31) {
    throw new Error(`globalId: expected a 32-bit integer, got ${opts.globalId}`);
  }
  const interval = opts.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS;
  if (!Number.isInteger(interval) || interval < 0) throw new Error(`blockIntervalMs: expected a non-negative integer (0: manual mining), got ${interval}`);
  const cap = opts.maxBlockTransactions ?? DEFAULT_MAX_BLOCK_TRANSACTIONS;
  if (!Number.isInteger(cap) || cap < 1) throw new Error(`maxBlockTransactions: expected a positive integer, got ${cap}`);
}

/** A data dir serves one network with one faucet key: refuse to mix them up. */
function checkIdentity(store: ChainStore, opts: LocalChainOptions, publicKey: Buffer): void {
  const expected: Record<string, string> = {
    network: opts.network,
    global_id: String(opts.globalId),
    faucet_public_key: publicKey.toString('hex'),
  };
  for (const [key, value] of Object.entries(expected)) {
    const stored = store.meta(key);
    if (stored === undefined) store.setMeta(key, value);
    else if (stored !== value) {
      const what = key === 'faucet_public_key' ? 'another faucet mnemonic' : `${key} ${stored}`;
      throw new ChainDataMismatch(`${opts.dataDir}: this chain was created with ${what}; use another data dir (or the same options)`);
    }
  }
}

function checkUtime(utime: number, field: string): void {
  if (!Number.isInteger(utime) || utime < 0 || utime > 0xffff_ffff) throw new ChainInputError(`${field}: expected a unix time in seconds (0 to 4294967295), got ${utime}`);
}

/** An internal message to deliver: one root cell, internal, to workchain 0 or -1, created no later than the chain's lt. */
function parseInternal(boc: Buffer, maxCreatedLt: bigint): { cell: Cell; message: Message } {
  let cell: Cell;
  let message: Message;
  try {
    const roots = Cell.fromBoc(boc);
    if (roots.length !== 1) throw new Error(`${roots.length} roots`);
    cell = roots[0];
    message = loadMessage(cell.beginParse());
  } catch (error) {
    throw new BadMessage(`boc: not a message (${(error as Error).message})`);
  }
  if (message.info.type !== 'internal') throw new BadMessage(`boc: an ${message.info.type} message; an internal one is delivered here`);
  if (!holdsAccounts(message.info.dest.workChain)) {
    throw new BadMessage(`boc: its destination is in workchain ${message.info.dest.workChain}; only workchains 0 and -1 hold accounts`);
  }
  if (message.info.createdLt > maxCreatedLt) {
    throw new BadMessage(`boc: created_lt ${message.info.createdLt} is after the chain's last lt ${maxCreatedLt}`);
  }
  return { cell, message };
}
