/**
 * When a local chain seals blocks. Auto mining: a block every intervalMs on a timer, empty or not. Manual mining: a
 * block only when asked (`mine`, or a devnet control that seals its own). Every block production, and every step
 * that must fall between two of them (a snapshot restore or import), runs on one production lane, in the order asked.
 */
import type { Clock } from '../../util/clock.js';
import type { MiningMode } from '../devnet-chain.js';
import type { Block } from '../types.js';
import { ChainInputError } from '../errors.js';
import { ChainStopped } from './errors.js';
import { DEFAULT_BLOCK_INTERVAL_MS } from './options.js';
import type { BlockProducer, Logger } from './producer.js';

/**
 * Manual mining: how long one `mine()` may spend delivering queued internal messages before sealing (nobody
 * waits on a cadence; a test wants its message chains done in the block it asked for, up to the per-block cap).
 */
const MANUAL_DRAIN_BUDGET_MS = 5_000;

export interface MiningDeps {
  /** The network's name, for ChainStopped. */
  name: string;
  producer: BlockProducer;
  /** The injected clock itself (wall time in production), without the chain's offset. */
  wallClock: Clock;
  logger?: Logger;
  /** Whether the chain is stopping: no timer is set and no block is asked for from then on. */
  stopping(): boolean;
}

export class Mining {
  private current: MiningMode;
  /** The interval of auto mining when a switch to it names none: the last one used, or the configured one. */
  private autoIntervalMs: number;
  private started = false;
  private timer?: NodeJS.Timeout;
  private production: Promise<unknown> = Promise.resolve();
  /**
   * Since when a block is due, on the injected clock (not the chain's, which time controls move): the last seal, or
   * the start of auto mining if later. Undefined while none is due (manual mining, not started).
   */
  private blockDueSince?: number;

  constructor(
    private readonly d: MiningDeps,
    options: { blockIntervalMs?: number; mining?: 'auto' | 'manual' },
  ) {
    const interval = options.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS;
    this.autoIntervalMs = interval || DEFAULT_BLOCK_INTERVAL_MS;
    this.current = interval === 0 || options.mining === 'manual' ? { mode: 'manual' } : { mode: 'auto', intervalMs: interval };
  }

  /** Starts the block timer in auto mining (nothing in manual mining). Idempotent. */
  start(): void {
    if (this.started || this.d.stopping()) return;
    this.started = true;
    this.scheduleBlocks();
  }

  /**
   * The chain is stopping: the timer is cleared now (not through scheduleBlocks: the chain counts as stopping only
   * once its stop() first awaits). Resolves once the productions asked for before are done.
   */
  halt(): Promise<unknown> {
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.production;
  }

  /** A block was sealed (whoever asked for it): the next one is due an interval from now. */
  blockSealed(): void {
    if (this.blockDueSince !== undefined) this.blockDueSince = this.d.wallClock.now();
  }

  /** The block timer of auto mining (a new one for each mode change; the running one is cleared first). */
  private scheduleBlocks(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const mining = this.current;
    this.blockDueSince = undefined;
    if (!this.started || this.d.stopping() || mining.mode !== 'auto') return;
    // A chain that just started (its head is the block it last sealed, maybe long ago) or leaves manual mining is
    // not late: its first block is due an interval from now.
    this.blockDueSince = this.d.wallClock.now();
    const interval = mining.intervalMs;
    let due = Date.now() + interval;
    const tick = () => {
      this.timer = undefined;
      this.produceBlock()
        .catch((err) => this.d.logger?.error({ err }, 'block production failed'))
        .finally(() => {
          // Stopped, or the mode changed meanwhile (its own timer runs, or none).
          if (this.d.stopping() || this.current !== mining) return;
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
    if (this.blockDueSince === undefined || this.d.stopping()) return undefined;
    return Math.max(0, this.d.wallClock.now() - this.blockDueSince);
  }

  /** Seals a block now (delivering queued messages first); resolves with the new masterchain block. */
  produceBlock(): Promise<Block> {
    if (this.d.stopping()) return Promise.reject(new ChainStopped(this.d.name));
    return this.enqueueProduction();
  }

  mode(): MiningMode {
    return { ...this.current };
  }

  get manual(): boolean {
    return this.current.mode === 'manual';
  }

  /**
   * Switches between auto mining (a block every intervalMs: by default the last interval used, or the configured
   * one) and manual mining (blocks only when asked).
   */
  setMode(mode: { mode: 'auto'; intervalMs?: number } | { mode: 'manual' }): MiningMode {
    if (this.d.stopping()) throw new ChainStopped(this.d.name);
    if (mode.mode === 'auto') {
      const intervalMs = mode.intervalMs ?? this.autoIntervalMs;
      if (!Number.isInteger(intervalMs) || intervalMs < 1)
        throw new ChainInputError(`interval_ms: expected a positive integer, got ${intervalMs}`);
      this.autoIntervalMs = intervalMs;
      this.current = { mode: 'auto', intervalMs };
    } else {
      this.current = { mode: 'manual' };
    }
    this.scheduleBlocks();
    return this.mode();
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

  /** The last block of a stopping chain (asked for once it no longer takes new work). */
  sealLast(): Promise<Block> {
    return this.enqueueProduction();
  }

  /** Runs a step after the block productions asked before it, and before those asked after. */
  onProductionLane<T>(step: () => Promise<T>): Promise<T> {
    if (this.d.stopping()) return Promise.reject(new ChainStopped(this.d.name));
    const result = this.production.then(step);
    this.production = result.catch(() => undefined);
    return result;
  }

  private enqueueProduction(): Promise<Block> {
    // Auto mining: half an interval at most for delivering queued messages before sealing, so blocks stay on time.
    const budget = this.current.mode === 'auto' ? Math.max(50, this.current.intervalMs / 2) : MANUAL_DRAIN_BUDGET_MS;
    const step = this.production.then(() => this.d.producer.produce(budget));
    this.production = step.catch(() => undefined);
    return step.then((s) => s.mc);
  }
}
