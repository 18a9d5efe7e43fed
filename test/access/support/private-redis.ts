/**
 * A private redis-server for outage tests (and bench:access's pinned scaled-out run, which places it on a CPU): started on a free port with no persistence, and
 * paused (SIGSTOP), resumed, stopped or restarted at will. The shared Redis is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../support/ports.js';

export class PrivateRedis {
  private child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.restart();
    return redis;
  }

  /** The server's process id (bench:access --pinned places it on a CPU). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on the same port; resolves when it accepts connections. */
  async restart(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk;
        if (out.includes('Ready to accept connections')) {
          child.stdout!.off('data', onData);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
    child.stdout!.resume();
  }

  /** Freezes the process: connections stay open, nothing answers (a "slow" Redis). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Stops the server and waits for it to exit (connections are refused afterwards). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }
}
