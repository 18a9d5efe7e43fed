/**
 * Whether the kernel groups CPU time by session (Linux's `sched_autogroup_enabled`, on by default in many
 * distributions' desktop kernels). With it on, each session (a terminal, a `setsid` job) gets an equal share of
 * the CPU as a whole, whatever its processes' nice values: a `nice -n 19` build started from another session takes
 * as much as the whole bench, whose own nice values (the clients' process, the transaction workers) then only
 * weigh within the bench. A bench that prints this says so beside its figures; `sysctl kernel.sched_autogroup_enabled=0`
 * (as root) makes nice values count across sessions.
 */
import { readFileSync } from 'node:fs';

export function autogroupNote(): string {
  let value: string;
  try {
    value = readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim();
  } catch {
    return 'session CPU groups: unknown (no /proc/sys/kernel/sched_autogroup_enabled)';
  }
  return value === '1'
    ? 'session CPU groups: ON (work from another session takes an equal share whatever its nice value; see bench/support/autogroup.ts)'
    : 'session CPU groups: off (nice values count across sessions)';
}
