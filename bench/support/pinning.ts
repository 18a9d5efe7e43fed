/**
 * Pinning a bench's processes to CPUs: its servers (all their threads, `taskset -a`) on one CPU, the bench process
 * with its load generator on another, so the client never takes the servers' CPU and a server alone under load sets
 * the pace. Shared by `bench:access --pinned` and `bench:hot --pinned` (and the same way `bench:upstream`'s pinned arm
 * does it). Flags: --server-cpu (1), --client-cpu (0).
 */
import { execFileSync } from 'node:child_process';
import { stringArg } from './args.js';

export interface Pinning {
  serverCpu: string;
  clientCpu: string;
  /** The machine's CPU count, as `nproc` says. */
  cpus: number;
  /** Pins these servers to the server CPU and this process to the client CPU. */
  pin(serverPids: number[]): void;
  /** This process back on every CPU. */
  release(): void;
}

/** Pins a process, all its threads, to the given CPUs ('0', '1', '0-1'). */
export function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

export function pinning(): Pinning {
  const cpus = Number(execFileSync('nproc').toString().trim());
  const serverCpu = stringArg('server-cpu') ?? '1';
  const clientCpu = stringArg('client-cpu') ?? '0';
  return {
    serverCpu,
    clientCpu,
    cpus,
    pin(serverPids) {
      for (const pid of serverPids) pin(pid, serverCpu);
      pin(process.pid, clientCpu);
    },
    release() {
      pin(process.pid, `0-${cpus - 1}`);
    },
  };
}
