/**
 * A bench's server in a child process of its own (so its CPU time is its own): the child prints one JSON line once
 * it listens, and answers the parent's 'cpu' message with its user + system CPU time (µs). On a shared machine req/s
 * swings with other processes' load, CPU per request much less. Shared by bench:access and bench:hot.
 */
import { spawn } from 'node:child_process';

export interface BenchChild<R> {
  /** What the child printed once ready. */
  ready: R;
  /** The child's process id (bench:access --pinned pins it to a CPU). */
  pid: number;
  cpuUs(): Promise<number>;
  /** Sends the child a message and resolves with its next message (its answer). */
  ask<A>(message: unknown): Promise<A>;
  stop(): Promise<void>;
}

/** Runs `script` (through tsx, unless `tsx` is false: a plain JavaScript child) with `args`; resolves once it printed its ready line. */
export async function spawnBenchChild<R>(script: string, args: string[], { tsx = true }: { tsx?: boolean } = {}): Promise<BenchChild<R>> {
  const child = spawn(process.execPath, [...(tsx ? ['--import', 'tsx'] : []), script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const ready = await new Promise<R>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)) as R);
    });
    child.once('exit', (code) => reject(new Error(`bench server ${args.join(' ')} exited (${code})`)));
  });
  const ask = <A>(message: unknown) =>
    new Promise<A>((resolve) => {
      child.once('message', (m) => resolve(m as A));
      child.send(message as string);
    });
  return {
    ready,
    pid: child.pid!,
    cpuUs: () => ask<{ cpuUs: number }>('cpu').then((m) => m.cpuUs),
    ask,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** In the child: answers the parent's 'cpu' message with this process's CPU time so far. */
export function answerCpuOverIpc(): void {
  process.on('message', (m) => {
    if (m === 'cpu') {
      const u = process.cpuUsage();
      process.send!({ cpuUs: u.user + u.system });
    }
  });
}
