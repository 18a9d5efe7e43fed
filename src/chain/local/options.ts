/** What LocalChain.open takes, its defaults, and the check of what it is given. */
import type { Clock } from '../../util/clock.js';
import type { EmulatorPool } from '../emulator/emulator-pool.js';
import type { ZeroStateAccount } from './genesis.js';
import type { Logger } from './producer.js';

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
   * Open without waiting for the emulator worker to load (~0.3 s of another thread): the chain's reads answer at
   * once, emulator calls wait in the worker's queue, and `emulatorLoaded()` says when (or whether) it loaded.
   * `tongate start` serves first and waits for it after. Default: open waits, and fails if the emulator does.
   */
  emulatorLater?: boolean;
  /**
   * The emulator's read worker (get-methods, emulations) loads once the transaction worker has, and once this
   * settles; a get-method before then starts it at once. `tongate start`: once the v3 indexes are open. Default: at
   * once.
   */
  emulatorReadAfter?: Promise<unknown>;
  /**
   * Accounts a new chain's zero state holds besides the faucets and the system contracts (`--genesis FILE`);
   * ignored when the data dir already holds a chain.
   */
  genesisAccounts?: ZeroStateAccount[];
}

/** Blocks of the local chains in auto mining; also the interval a chain started in manual mining switches to. */
export const DEFAULT_BLOCK_INTERVAL_MS = 1000;
export const DEFAULT_MAX_BLOCK_TRANSACTIONS = 10_000;
export const DEFAULT_GET_METHOD_GAS_LIMIT = 1_000_000n;
export function validateOptions(opts: LocalChainOptions): void {
  if (typeof opts.network !== 'string' || opts.network === '') throw new Error('network: a non-empty name is required');
  if (!Number.isInteger(opts.globalId) || opts.globalId < -(2 ** 31) || opts.globalId >= 2 ** 31) {
    throw new Error(`globalId: expected a 32-bit integer, got ${opts.globalId}`);
  }
  const interval = opts.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS;
  if (!Number.isInteger(interval) || interval < 0)
    throw new Error(`blockIntervalMs: expected a non-negative integer (0: manual mining), got ${interval}`);
  const cap = opts.maxBlockTransactions ?? DEFAULT_MAX_BLOCK_TRANSACTIONS;
  if (!Number.isInteger(cap) || cap < 1) throw new Error(`maxBlockTransactions: expected a positive integer, got ${cap}`);
}
