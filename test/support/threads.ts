/** The nice value of every thread of this process, the main thread first (Linux: read from /proc). */
import { readdirSync, readFileSync } from 'node:fs';

export function niceOfThreads(): number[] {
  return readdirSync('/proc/self/task')
    .sort((a, b) => Number(a) - Number(b))
    .map((tid) => {
      // /proc/<pid>/task/<tid>/stat: the 19th field is the nice value (after the parenthesized name)
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
}
