/**
 * bench:stream's `--production-core`: block production on one CPU of its own, everything else on the other.
 *
 * On a machine of two cores a local chain at full speed keeps both busy, so whatever else runs (the streaming
 * server's render thread, V8's collector threads, the clients that stand for wallets on other machines) is taken
 * out of block production, CPU-µs for CPU-µs. A deployment with cores to spare runs them beside production instead.
 * This places the threads of that shape on this machine: the threads that produce blocks (the main thread, which
 * also serves, and the transaction workers) on `--production-cpu` (0), every other thread of the process and every
 * thread of the clients' process on `--rest-cpu` (1). In the "without" run the same placement holds, so the ratio
 * says what streaming takes from the producing threads themselves (the main thread's part of it).
 *
 * Threads are told apart as thread-cpu.ts groups them (the main thread by its id, the transaction workers by their
 * nice value); a thread started later is placed by the next call, made before each run. Needs `taskset` (util-linux).
 */
import { execFileSync } from 'node:child_process';
import { stringArg } from './args.js';
import { threadCpu } from './thread-cpu.js';

export interface ProductionCore {
  productionCpu: string;
  restCpu: string;
  /** Places this process's threads, and every thread of `others`, as above. */
  place(others: number[]): void;
}

const taskset = (args: string[]) => execFileSync('taskset', args, { stdio: 'ignore' });

export function productionCore(): ProductionCore {
  const productionCpu = stringArg('production-cpu') ?? '0';
  const restCpu = stringArg('rest-cpu') ?? '1';
  return {
    productionCpu,
    restCpu,
    place(others) {
      const threads = threadCpu();
      if (!threads) throw new Error('--production-core needs Linux (/proc/self/task)');
      for (const [tid, { group }] of threads) {
        try {
          taskset(['-p', '-c', group === 'main' || group === 'tx' ? productionCpu : restCpu, String(tid)]);
        } catch {
          // the thread ended meanwhile
        }
      }
      for (const pid of others) taskset(['-a', '-p', '-c', restCpu, String(pid)]);
    },
  };
}
