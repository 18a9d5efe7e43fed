/**
 * Background threads yield the CPU to the threads that answer requests, and the index to production.
 *
 * With two transaction workers, a read worker and the main thread, a two-core machine has more busy
 * threads than cores under load, and the kernel then preempts the main thread like any other: its
 * event loop stalled for tens of milliseconds at a time in bench:chain. Block production can wait a
 * little; an HTTP answer should not. On Linux a thread has a nice value of its own, so a transaction
 * worker lowers its own (not the process's) to `WORKER_NICE`, and the index's render and store
 * threads theirs to `INDEX_NICE`: the index follows block production, taking the CPU production
 * leaves (it falls behind under a sustained full load and catches up after, losing nothing).
 * Elsewhere, or where it is not allowed, nothing changes.
 *
 * A nice value alone does not make a thread wait: at nice 15 a thread still weighs a third of a
 * transaction worker's nice 10, and when a transaction worker wakes (its next message) it may wait
 * for the running index thread's slice to end. Production is a chain of such hand-offs between the
 * main thread and the transaction workers, so every wait lengthens it. A thread lowered to
 * `IDLE_FROM_NICE` or below (the index of a local chain, the emulator worker of its get-methods, an
 * abandoned reader) is therefore also put in the kernel's SCHED_IDLE class: it runs only on a core
 * nobody else wants, and any other thread that wakes takes the core at once. bench:tokens, block
 * production with token detection on / off: median 0.88 with nice alone, 0.94 with SCHED_IDLE
 * (src/index/tokens/README.md, stage 10). Node has no call for it; util-linux's `chrt` sets it on one thread
 * (util-linux is in the base system of Debian, Ubuntu, Fedora and most others). Where it is missing the nice value stays.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export const WORKER_NICE = 10;
export const INDEX_NICE = 15;
/**
 * The index of a lite network (a real network through liteservers) follows no block production of this process:
 * it is what v3 serves, and its lag a health figure. At nice 15 its threads starved under the machine's other
 * load (a 405-transaction block took 6 s to write in bench:lite at load average 22; the goal is 2 blocks). At 5
 * they still yield to the threads that answer requests (about a third of their CPU weight).
 */
export const LITE_INDEX_NICE = 5;

/** The lowest priority: a thread that only finishes work nobody waits for any more. */
export const ABANDONED_NICE = 19;

/** Threads lowered this far (a local chain's index and its get-methods, abandoned readers) also go to SCHED_IDLE. */
export const IDLE_FROM_NICE = INDEX_NICE;

/** The calling thread's kernel id (Linux), undefined where there is none to read. */
export function thisThreadId(): number | undefined {
  try {
    // "/proc/thread-self" -> "<pid>/task/<tid>": setpriority() on a tid affects that thread alone
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Lowers the calling thread's CPU priority; false when the platform has no per-thread priority. */
export function lowerThisThreadPriority(nice = WORKER_NICE): boolean {
  return lowerThreadPriority(thisThreadId(), nice);
}

/**
 * Lowers another thread's CPU priority, by the id it reported (thisThreadId): a thread of this process that
 * cannot be stopped at once (a worker terminated while in native code runs on until it returns).
 */
export function lowerThreadPriority(tid: number | undefined, nice: number): boolean {
  if (tid === undefined) return false;
  try {
    setPriority(tid, nice);
  } catch {
    return false;
  }
  if (nice >= IDLE_FROM_NICE) idleThread(tid);
  return true;
}

/**
 * Puts one thread in SCHED_IDLE (`chrt --idle --pid 0 <tid>` acts on that thread alone; a few ms, once per thread
 * started). A missing `chrt` or a refusal changes nothing else.
 */
function idleThread(tid: number): void {
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5000 });
  } catch {
    // no chrt: the nice value is all there is
  }
}
