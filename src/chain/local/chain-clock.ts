/**
 * The chain's own clock: the injected Clock (wall time in production) plus an offset that the devnet time
 * controls move, and an optional gen_utime pinned for the next block. Block gen_utime, `now` in the TVM
 * (transactions and get-methods) and so storage fees all read it, so a test moves time instead of sleeping.
 *
 * The offset is kept in the chain store's meta table: a restart keeps the chain's time where the controls put
 * it (and gen_utime never goes back anyway: a block is never older than the one before it).
 */
import type { Clock } from '../../util/clock.js';
import { ChainInputError } from '../errors.js';

/** A time control the chain cannot follow (a time before the last block's, a jump beyond any sane date). */
export class TimeRefused extends ChainInputError {
  override name = 'TimeRefused';
}

/** Where the offset survives restarts (ChainStore's meta table). */
export interface OffsetStore {
  meta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
}

const OFFSET_KEY = 'time_offset_ms';
/** 2^32 - 1: gen_utime and `now` are 32-bit unsigned on TON. */
export const MAX_UTIME = 0xffff_ffff;

export class ChainClock implements Clock {
  private offsetMs: number;
  private pinned?: number;

  constructor(
    private readonly base: Clock,
    private readonly store: OffsetStore,
  ) {
    this.offsetMs = this.storedOffset();
  }

  /** Takes the offset the store holds again, unpinned (a snapshot restore put the snapshot's back). */
  reload(): void {
    this.offsetMs = this.storedOffset();
    this.pinned = undefined;
  }

  private storedOffset(): number {
    const stored = Number(this.store.meta(OFFSET_KEY) ?? 0);
    return Number.isFinite(stored) ? stored : 0;
  }

  /** Milliseconds since the epoch, as the chain sees it. */
  now(): number {
    return this.base.now() + this.offsetMs;
  }

  /** How far the chain's clock is ahead of the injected one (the machine's in production), in milliseconds. */
  get aheadMs(): number {
    return this.offsetMs;
  }

  /** Seconds, as gen_utime and the TVM count them. */
  utime(): number {
    return Math.floor(this.now() / 1000);
  }

  /** The pinned gen_utime of the next block, if a control set one. */
  get nextBlockUtime(): number | undefined {
    return this.pinned;
  }

  /**
   * The gen_utime of a block opened now after a block of `prevUtime`: the pinned one (used once), else the
   * chain's time, never before the previous block.
   */
  takeBlockUtime(prevUtime: number): number {
    const pinned = this.pinned;
    this.pinned = undefined;
    return Math.max(prevUtime, pinned ?? this.utime());
  }

  /** Moves the chain's time forward by `seconds`. */
  increase(seconds: number): number {
    if (this.utime() + seconds > MAX_UTIME)
      throw new TimeRefused(`seconds: the chain's time would pass ${MAX_UTIME} (2106-02-07), the largest gen_utime`);
    this.setOffset(this.offsetMs + seconds * 1000);
    return this.utime();
  }

  /** Sets the chain's time to `utime` now; it runs on from there. `notBefore`: the last block's gen_utime. */
  set(utime: number, notBefore: number, field = 'utime'): number {
    if (utime < notBefore)
      throw new TimeRefused(`${field}: ${utime} is before the last block's gen_utime ${notBefore}; the chain's time never goes back`);
    this.setOffset(utime * 1000 - this.base.now());
    return this.utime();
  }

  /** The next block opened gets exactly `utime` as gen_utime, and the chain's time runs on from there. */
  pinNextBlock(utime: number, notBefore: number): void {
    this.set(utime, notBefore);
    this.pinned = utime;
  }

  private setOffset(ms: number): void {
    this.offsetMs = ms;
    this.store.setMeta(OFFSET_KEY, String(ms));
  }
}
