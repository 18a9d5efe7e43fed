/**
 * A manual clock that also schedules: periodic work asks it for its timers (src/util/scheduler.ts), and a test runs
 * that work by moving the clock (`advance`), so a 15 s keepalive, a 30 s idle close or a key store poll is checked
 * without waiting for it. Work that ends later (a task returning a promise, like a poll of a remote store) is
 * awaited with `settled()`.
 */
import { ManualClock } from '../../src/util/clock.js';

export class ManualTimers extends ManualClock {
  private readonly tasks = new Set<{ ms: number; due: number; fn: () => unknown }>();
  private running: Promise<unknown>[] = [];

  every(ms: number, fn: () => unknown): () => void {
    const task = { ms, due: this.now() + ms, fn };
    this.tasks.add(task);
    return () => this.tasks.delete(task);
  }

  /** How many tasks are scheduled (a test checks that a component asked for its timer). */
  get scheduled(): number {
    return this.tasks.size;
  }

  override advance(ms: number): void {
    const until = this.now() + ms;
    for (;;) {
      const next = [...this.tasks].sort((a, b) => a.due - b.due)[0];
      if (!next || next.due > until) break;
      super.set(next.due);
      next.due += next.ms;
      const result = next.fn();
      if (result instanceof Promise) this.running.push(result);
    }
    super.set(until);
  }

  /** Resolves when the work the due tasks started has ended (rejects with the first failure). */
  async settled(): Promise<void> {
    const running = this.running;
    this.running = [];
    await Promise.all(running);
  }
}
