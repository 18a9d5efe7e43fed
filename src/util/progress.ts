/**
 * Progress of long work (the lite back-fill, proving the chain of key blocks at start-up): one reporter
 * for every such job, so each says the same things the same way.
 *
 * Every `intervalMs` of the injected clock it writes one log record (done, total, rate per second, ETA in
 * seconds) through the logger it was given, so an operator tailing JSON logs sees the job move; when a
 * terminal is attached (`bar`), it also redraws a one-line bar on that stream (stderr: stdout carries the
 * log records). A job with no known total reports done and rate only.
 */
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';

export interface ProgressLogger {
  info(fields: object, message: string): void;
}

export interface ProgressSnapshot {
  job: string;
  done: number;
  total: number | null;
  /** Units per second since the job started (0 before any time has passed). */
  rate: number;
  /** Seconds left at the current rate; null without a total or a rate. */
  eta_s: number | null;
}

export interface ProgressOptions {
  /** Names the job in every record: "lite back-fill", "key-block proofs". */
  job: string;
  /** The unit counted, for the message: "blocks", "links". */
  unit: string;
  total?: number | null;
  log: ProgressLogger;
  clock?: Clock;
  /** How often a record is written (default 5 s). */
  intervalMs?: number;
  /** A terminal stream for a redrawn bar (process.stderr when it is a TTY); none by default. */
  bar?: { write(chunk: string): unknown; columns?: number } | null;
}

const BAR_WIDTH = 24;

export class ProgressReporter {
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly startedAt: number;
  private lastReportAt: number;
  private doneCount = 0;
  private totalCount: number | null;
  private finished = false;

  constructor(private readonly options: ProgressOptions) {
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 5000;
    this.startedAt = this.clock.now();
    this.lastReportAt = this.startedAt;
    this.totalCount = options.total ?? null;
  }

  /** The total became known, or changed (a chain of links whose end moved). */
  setTotal(total: number | null): void {
    this.totalCount = total;
  }

  /** `n` more units are done; writes a record when the interval has passed. */
  advance(n = 1): void {
    this.doneCount += n;
    const now = this.clock.now();
    if (now - this.lastReportAt >= this.intervalMs) {
      this.lastReportAt = now;
      this.report(`${this.options.job}: ${this.describe()}`);
    }
    this.drawBar();
  }

  /** The job ended: one last record, and the bar's line closed. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.options.bar) this.options.bar.write('\n');
    this.report(`${this.options.job}: done, ${this.describe(false)}`);
  }

  snapshot(): ProgressSnapshot {
    const elapsedS = (this.clock.now() - this.startedAt) / 1000;
    const rate = elapsedS > 0 ? this.doneCount / elapsedS : 0;
    const left = this.totalCount === null ? null : Math.max(0, this.totalCount - this.doneCount);
    return {
      job: this.options.job,
      done: this.doneCount,
      total: this.totalCount,
      rate: Math.round(rate * 100) / 100,
      eta_s: left === null || rate === 0 ? null : Math.ceil(left / rate),
    };
  }

  private describe(withEta = true): string {
    const s = this.snapshot();
    const of = s.total === null ? `${s.done} ${this.options.unit}` : `${s.done} of ${s.total} ${this.options.unit}`;
    const eta = !withEta || s.eta_s === null ? '' : `, about ${formatSeconds(s.eta_s)} left`;
    return `${of} (${s.rate}/s${eta})`;
  }

  private report(message: string): void {
    this.options.log.info({ progress: this.snapshot() }, message);
  }

  private drawBar(): void {
    const bar = this.options.bar;
    if (!bar) return;
    const s = this.snapshot();
    const filled = s.total ? Math.min(BAR_WIDTH, Math.round((s.done / s.total) * BAR_WIDTH)) : 0;
    const gauge = s.total ? `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ` : '';
    bar.write(`\r${gauge}${this.options.job}: ${this.describe()}\x1b[K`);
  }
}

function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

/** The bar stream for this process: stderr when it is a terminal, else none. */
export function terminalBar(): ProgressOptions['bar'] {
  return process.stderr.isTTY ? process.stderr : null;
}
