/**
 * `npm run bench:stream [-- --transfers N --wallets W --connections C --runs R]`: what streaming costs a local
 * chain running wallet transfers at full speed, in one run, as ratios:
 *
 *   production  transfers sealed per second with C WebSocket clients subscribed (10 addresses each) over the same
 *               without any client (issue 26: >= 0.90); runs alternate without / with, each on its own wallets
 *   delivery    p50 / p99 from a block's seal (its handover to listeners) to a client holding a notification of it
 *               (issue 26: p99 <= 50 ms; toncenter claims 30-100 ms), measured across processes on one epoch: at
 *               `confirmed` (sent at the seal) and at `finalized` (sent once the index holds the block)
 *   memory      the server's RSS and heap per connection (after a full GC), C connections subscribed vs none
 *
 * A real tongate in this process (its local chain, its index, the gateway, the access layer off: one client
 * process holds every connection, so no key cap applies); the clients in a process of their own
 * (support/stream-clients.mjs). Each connection follows one address the transfers touch (W wallets and their W
 * destinations; W = C / 2 by default, so each is followed by one connection, as each wallet app follows its own)
 * and nine that nothing touches, at min_finality confirmed. Transfers are signed before
 * the clock starts and sent straight to the chain (as HTTP requests would arrive: one per event-loop turn, 256 in
 * flight), in 1 s blocks.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { toNano, type Address } from '@ton/core';
import pino from 'pino';
import { loadConfig } from '../src/config/load.js';
import { startTongate } from '../src/cli/start.js';
import type { LocalChain } from '../src/chain/local/index.js';
import { formatRawUpper } from '../src/ton/address.js';
import { freePort } from '../test/support/ports.js';
import { numberArg } from './support/args.js';
import { prepare } from './support/signed-transfers.js';

setFlagsFromString('--expose_gc');
const collectGarbage = runInNewContext('gc') as () => void;

const TRANSFERS = numberArg('transfers', 4000);
const CONNECTIONS_DEFAULT = 1000;
const WALLETS = numberArg('wallets', numberArg('connections', CONNECTIONS_DEFAULT) / 2);
const CONNECTIONS = numberArg('connections', CONNECTIONS_DEFAULT);
const RUNS = numberArg('runs', 2);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Batch {
  wallets: Address[];
  destinations: Address[];
  bocs: Buffer[];
}

/** W wallets with their pre-signed transfers to their own destinations (support/signed-transfers.ts); `seed` keeps batches apart. */
async function batch(seed: number, perWallet: number): Promise<Batch> {
  const { wallets, transfers } = await prepare(WALLETS, perWallet, seed * 100_000);
  return { wallets: wallets.map((w) => w.contract.address), destinations: wallets.map((w) => w.dest), bocs: transfers.map((t) => t.boc) };
}

/** Sends a batch at full speed; ms until every transfer's destination transaction is sealed. */
async function run(chain: LocalChain, b: Batch): Promise<number> {
  const started = performance.now();
  let next = 0;
  const sender = async () => {
    while (next < b.bocs.length) {
      const boc = b.bocs[next++];
      await new Promise((resolve) => setImmediate(resolve));
      await chain.sendExternal(boc);
    }
  };
  await Promise.all(Array.from({ length: 256 }, sender));
  while (chain.stats().pendingMessages > 0 || chain.stats().openTransactions > 0) {
    await new Promise<void>((resolve) => {
      const off = chain.onBlock(() => {
        off();
        resolve();
      });
    });
  }
  return performance.now() - started;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const memory = () => {
  collectGarbage();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external };
};

async function main(): Promise<void> {
  const perWallet = Math.ceil(TRANSFERS / WALLETS);
  console.log(
    `bench:stream  ${perWallet * WALLETS} transfers per run from ${WALLETS} wallets, ${CONNECTIONS} WebSocket clients x 10 addresses (node ${process.version})`,
  );
  console.log(`load average at start: ${load()}`);
  const port = await freePort();
  const config = loadConfig({
    flags: { ephemeral: true, blockInterval: '1000', logLevel: 'silent', access: 'off', network: [`testnet=http://127.0.0.1:${port}`] },
    env: {},
  });
  const tongate = await startTongate(config, { logger: pino({ level: 'silent' }) });
  const chain = tongate.networks[0].chain as unknown as LocalChain;
  const sealedAt = new Map<number, number>();
  chain.onBlock((block) => sealedAt.set(block.masterchain.id.seqno, performance.timeOrigin + performance.now()));
  // The seal's time is taken by the first listener, before the index packs the block's cells (~0.02 ms per
  // transaction) and before the stream's: the chain calls its listeners in the order they came (a Set).
  const listeners = (chain as unknown as { listeners: Set<unknown> }).listeners;
  const ours = [...listeners].pop();
  const others = [...listeners].slice(0, -1);
  listeners.clear();
  for (const l of [ours, ...others]) listeners.add(l);

  const batches: Batch[] = [];
  for (let i = 0; i < 2 * RUNS + 1; i++) batches.push(await batch(i + 1, perWallet));
  await Promise.all(batches.flatMap((b) => b.wallets.map((w) => chain.fund(w, toNano('10')))));
  // Warm-up (untimed): the emulator's code compiled, the index's threads started.
  await run(chain, batches[0]);

  const idle = memory();
  // The clients: each follows one address the runs touch and nine nothing touches.
  const active = batches
    .slice(1 + RUNS)
    .flatMap((b) => b.wallets.flatMap((w, i) => [w, b.destinations[i]]))
    .map(formatRawUpper);
  const subscriptions = Array.from({ length: CONNECTIONS }, (_, c) => [
    active[c % active.length],
    ...Array.from({ length: 9 }, (_, k) => `0:${(c * 16 + k + 1).toString(16).padStart(64, 'f')}`),
  ]);
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./support/stream-clients.mjs', import.meta.url)), `ws://127.0.0.1:${port}/api/streaming/v2/ws`],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const answers = createInterface({ input: child.stdout! });
  const nextAnswer = () => new Promise<any>((resolve) => answers.once('line', (line) => resolve(JSON.parse(line))));

  // Without clients first (RUNS runs), then with them (RUNS runs): connecting 1,000 sockets between runs would
  // measure handshakes, not streaming.
  const results: { kind: 'without' | 'with'; ms: number }[] = [];
  for (let r = 0; r < RUNS; r++) results.push({ kind: 'without', ms: await run(chain, batches[1 + r]) });
  child.stdin!.write(`${JSON.stringify(subscriptions)}\n`);
  const ready = await nextAnswer();
  if (ready.ready !== CONNECTIONS) throw new Error(`only ${ready.ready} clients subscribed`);
  const withMemory = memory();
  child.stdin!.write('report\n');
  await nextAnswer(); // nothing came yet: clears the notes
  for (let r = 0; r < RUNS; r++) results.push({ kind: 'with', ms: await run(chain, batches[1 + RUNS + r]) });
  // The last blocks' notifications come after their seal: give them a moment before asking what came.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  child.stdin!.write('report\n');
  const report = (await nextAnswer()) as { received: [number, number, 'c' | 'f'][]; closed: number };
  const latencies: number[] = [];
  const finalLatencies: number[] = [];
  for (const [seqno, at, finality] of report.received) {
    const sealed = sealedAt.get(seqno);
    if (sealed !== undefined) (finality === 'c' ? latencies : finalLatencies).push(at - sealed);
  }
  const received = report.received.length;
  const closed = report.closed;
  child.stdin!.write('exit\n');
  await tongate.stop();

  const rate = (ms: number) => ((perWallet * WALLETS) / ms) * 1000;
  const without = results.filter((r) => r.kind === 'without').map((r) => rate(r.ms));
  const withs = results.filter((r) => r.kind === 'with').map((r) => rate(r.ms));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  latencies.sort((a, b) => a - b);
  finalLatencies.sort((a, b) => a - b);
  console.log('');
  console.log(
    `production  without clients ${without.map((x) => x.toFixed(0)).join(', ')} transfers/s; with ${CONNECTIONS} clients ${withs.map((x) => x.toFixed(0)).join(', ')}`,
  );
  console.log(`            ratio with/without ${(mean(withs) / mean(without)).toFixed(3)}   (issue 26: >= 0.90)`);
  console.log(
    `delivery    ${latencies.length + finalLatencies.length} notifications measured (${received} received, ${closed} connections closed by the server)`,
  );
  const line = (name: string, xs: number[]) =>
    xs.length > 0 &&
    console.log(
      `            ${name}: ${xs.length}, seal -> client p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms, max ${xs[xs.length - 1].toFixed(1)} ms`,
    );
  line('confirmed (issue 26: p99 <= 50 ms)', latencies);
  line('finalized (after the index holds the block)', finalLatencies);
  console.log(
    `memory      per connection: rss ${((withMemory.rss - idle.rss) / CONNECTIONS / 1024).toFixed(1)} KiB, heap+external ${((withMemory.heap - idle.heap) / CONNECTIONS / 1024).toFixed(1)} KiB`,
  );
  console.log(`load average at the end: ${load()}`);
}

await main();
