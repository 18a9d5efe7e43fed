/**
 * Drives the streaming clients that run in their own processes (ws-client.mjs, sse-client.mjs): each line they
 * print is one JSON record; `next(match)` waits for the first record (from where the last wait stopped) that
 * matches, with a bound so a missing event fails the test instead of hanging it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
/**
 * How long a record may take to come: a bound against hangs, not a timing assertion. At load 15-25 (test suites
 * beside a run) records took over 20 s, so it is far above what a working stream needs on a loaded machine.
 */
const WAIT_MS = 90_000;

export class ChildClient {
  readonly records: any[] = [];
  private read = 0;
  private waiters: (() => void)[] = [];
  exited = false;

  constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.records.push(JSON.parse(line));
      for (const wake of this.waiters.splice(0)) wake();
    });
    child.stderr!.on('data', (chunk) => process.stderr.write(chunk));
    child.on('exit', () => {
      this.exited = true;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(message: unknown): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** The next record matching `match` (records before it are passed over). */
  async next(match: (record: any) => boolean, what = 'a record'): Promise<any> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      while (this.read < this.records.length) {
        const record = this.records[this.read++];
        if (match(record)) return record;
      }
      if (this.exited) throw new Error(`the client exited before ${what}; it printed ${JSON.stringify(this.records).slice(0, 2000)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${WAIT_MS} ms; the client printed ${JSON.stringify(this.records).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Every record printed so far that matches (without moving the reading point). */
  all(match: (record: any) => boolean): any[] {
    return this.records.filter(match);
  }

  kill(): void {
    if (!this.exited) this.child.kill();
  }
}

function start(t: TestContext | undefined, script: string, args: string[]): ChildClient {
  const child = spawn(process.execPath, [here(script), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const client = new ChildClient(child);
  t?.after(() => client.kill());
  return client;
}

export const wsClient = (t: TestContext | undefined, url: string, key?: string) => start(t, 'ws-client.mjs', key ? [url, key] : [url]);
export const sseClient = (t: TestContext | undefined, url: string, body: unknown, key?: string) =>
  start(t, 'sse-client.mjs', key ? [url, JSON.stringify(body), key] : [url, JSON.stringify(body)]);

/** A WS client opened and subscribed (operation `subscribe`, id `s`): fails on anything but toncenter's "subscribed". */
export async function subscribe(client: ChildClient, subscription: Record<string, unknown>): Promise<void> {
  await client.next((r) => r.open, 'open');
  client.send({ operation: 'subscribe', id: 's', ...subscription });
  assert.deepEqual((await client.next((r) => r.message?.status || r.message?.error, 'subscribed')).message, {
    id: 's',
    status: 'subscribed',
  });
}
