/**
 * CPU time of this process's threads, grouped by the nice value each thread gave itself (Linux,
 * /proc/self/task/<tid>/stat), for benches that need to say WHICH thread a cost lands on:
 *
 *   main   the main thread (tid = pid): HTTP, block production, the index's get-method relay
 *   tx     nice 10 (WORKER_NICE): the local chain's transaction workers
 *   index  nice 15 (INDEX_NICE): the index's render and store threads (token detection runs on the store thread) and
 *          the emulator worker that runs the index's get-methods at that priority
 *   other  every other thread at nice 0: the emulator read workers (get-methods), V8's GC and compiler helper
 *          threads, libuv's pool; a thread's name does not tell them apart (all "node"), so they stay one group
 *
 * Event-loop utilization (the main thread's "busy" time) is wall time inside callbacks and grows when the
 * kernel preempts the thread for another; this is CPU time. Resolution: one clock tick (10 ms).
 * Elsewhere than Linux: null.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { WORKER_NICE, INDEX_NICE } from '../../src/util/thread-priority.js';

export type ThreadGroup = 'main' | 'tx' | 'index' | 'other';
export const THREAD_GROUPS: ThreadGroup[] = ['main', 'tx', 'index', 'other'];

/** CPU ms by thread id, with the thread's group. */
export type ThreadCpu = Map<number, { group: ThreadGroup; ms: number }>;

const TICK_MS = 10; // USER_HZ is 100 on every Linux this runs on

export function threadCpu(): ThreadCpu | null {
  const threads: ThreadCpu = new Map();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the "(comm)" (which may hold spaces): state is field 3; utime 14, stime 15, nice 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const nice = Number(fields[16]);
    const group: ThreadGroup = Number(tid) === process.pid ? 'main' : nice === WORKER_NICE ? 'tx' : nice === INDEX_NICE ? 'index' : 'other';
    threads.set(Number(tid), { group, ms });
  }
  return threads;
}

/** CPU ms per group spent between two readings (a thread started meanwhile counts from zero; one that ended is lost). */
export function threadCpuSince(before: ThreadCpu | null, after: ThreadCpu | null): Record<ThreadGroup, number> | null {
  if (!before || !after) return null;
  const spent: Record<ThreadGroup, number> = { main: 0, tx: 0, index: 0, other: 0 };
  for (const [tid, now] of after) spent[now.group] += now.ms - (before.get(tid)?.ms ?? 0);
  return spent;
}

/**
 * How many times the main thread was preempted (its involuntary context switches, /proc/self/task/<pid>/status): a
 * thread at nice 0 that another thread wakes often (a worker it posts to) loses the core to it; null elsewhere.
 */
export function mainThreadPreemptions(): number | null {
  try {
    const status = readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8');
    const found = /^nonvoluntary_ctxt_switches:\s+(\d+)$/m.exec(status);
    return found ? Number(found[1]) : null;
  } catch {
    return null;
  }
}
