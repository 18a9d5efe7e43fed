/** Per-thread scheduling of this process, the main thread first (Linux: read from /proc/self/task/<tid>/stat). */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The kernel's number for the SCHED_IDLE policy (linux/sched.h). */
export const SCHED_IDLE = 5;

/** Fields after the parenthesized name (which may hold spaces): index i is the stat file's field i + 3. */
function statsOfThreads(): string[][] {
  return readdirSync('/proc/self/task')
    .sort((a, b) => Number(a) - Number(b))
    .map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    });
}

/** The nice value of every thread (the stat file's 19th field). */
export function niceOfThreads(): number[] {
  return statsOfThreads().map((fields) => Number(fields[16]));
}

/** Each thread's nice value and scheduling policy (the 41st field), for the threads at `nice`. */
export function threadsAtNice(nice: number): Array<{ nice: number; policy: number }> {
  return statsOfThreads()
    .map((fields) => ({ nice: Number(fields[16]), policy: Number(fields[38]) }))
    .filter((thread) => thread.nice === nice);
}

/** Why a test of SCHED_IDLE cannot run here (not Linux, or no util-linux `chrt`), or undefined. */
export function noIdlePolicyReason(): string | undefined {
  if (process.platform !== 'linux') return 'per-thread scheduling is read from /proc';
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'no chrt (util-linux) on this machine: threads keep their nice value only';
  }
}
