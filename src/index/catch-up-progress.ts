/**
 * Progress of an index catching up with its chain: a lite network's back-fill (`--index-from`, or the blocks a
 * restart missed) and a local chain's index rebuilt from its chain. Minutes of work that said nothing before;
 * now a record every few seconds (done, total, rate, ETA: util/progress.ts) and, on a terminal, a bar on stderr.
 * The total is the distance to the chain's head, which moves while the work goes on.
 */
import { ProgressReporter, type ProgressOptions, type ProgressLogger } from '../util/progress.js';
import type { Clock } from '../util/clock.js';

/** A catch-up shorter than this is not long work: no reporter, no records. */
export const CATCH_UP_REPORT_MIN_BLOCKS = 2;

export interface CatchUpProgressOptions {
  network: string;
  /** The newest block the index held before (startAt - 1 for an empty index). */
  from: number;
  /** The chain's newest masterchain seqno, now. */
  head: () => number;
  log: ProgressLogger;
  clock?: Clock;
  intervalMs?: number;
  bar?: ProgressOptions['bar'];
}

/** Returns what to call after each committed block (attach's onIndexed); undefined when there is nothing long to report. */
export function catchUpProgress(options: CatchUpProgressOptions): ((seqno: number) => void) | undefined {
  const behind = options.head() - options.from;
  if (behind < CATCH_UP_REPORT_MIN_BLOCKS) return undefined;
  const progress = new ProgressReporter({
    job: `${options.network} index back-fill`,
    unit: 'masterchain blocks',
    total: behind,
    log: options.log,
    clock: options.clock,
    intervalMs: options.intervalMs,
    bar: options.bar,
  });
  let done = options.from;
  let finished = false;
  return (seqno) => {
    if (finished || seqno <= done) return;
    const head = options.head();
    progress.setTotal(Math.max(head, seqno) - options.from);
    progress.advance(seqno - done);
    done = seqno;
    if (seqno >= head) {
      finished = true;
      progress.finish();
    }
  };
}
