/**
 * A manual clock that also schedules: streaming asks it for its periodic work (src/stream/timers.ts), and a test
 * runs that work by moving the clock (`advance`), so a 15 s keepalive or a 30 s idle close is checked without
 * waiting for it.
 */
import { ManualClock } from '../../../src/util/clock.js';

export class ManualTimers extends ManualClock {
  private readonly tasks = new Set<{ ms: number; due: number; fn: () => void }>();

  every(ms: number, fn: () => void): () => void {
    const task = { ms, due: this.now() + ms, fn };
    this.tasks.add(task);
    return () => this.tasks.delete(task);
  }

  override advance(ms: number): void {
    const until = this.now() + ms;
    for (;;) {
      const next = [...this.tasks].sort((a, b) => a.due - b.due)[0];
      if (!next || next.due > until) break;
      super.set(next.due);
      next.due += next.ms;
      next.fn();
    }
    super.set(until);
  }
}
