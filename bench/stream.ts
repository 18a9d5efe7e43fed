/**
 * `npm run bench:stream [-- --transfers N --wallets W --connections C --rounds R --clients-nice N --block-interval MS --actions-clients K]`: what streaming costs a local
 * chain running wallet transfers at full speed, as ratios measured in one run:
 *
 *   production  transfers sealed per second while C WebSocket clients follow the addresses the transfers touch
 *               (10 addresses each) over the same while they follow only addresses nothing touches (issue 26:
 *               >= 0.90). R rounds, each one run of each kind on fresh wallets, the order alternating round by
 *               round (without/with, then with/without): the chain's state, the index and the JIT grow the same
 *               for both kinds. The clients stay connected throughout; between runs they only resubscribe.
 *   cpu         tongate's own CPU (every thread of its process) per transfer, with over without: what streaming
 *               costs the server whatever else the machine runs; how often its main thread was preempted (a thread
 *               it wakes taking its core); and the clients' process's CPU per transfer
 *   delivery    p50 / p99 from a block's seal (its handover to listeners) to a client holding a notification of it
 *               (issue 26: p99 <= 50 ms; toncenter claims 30-100 ms), measured across processes on one epoch: at
 *               `confirmed` (sent at the seal) and at `finalized` (sent once the index holds the block); and the
 *               server's part alone, from the seal to the notification's write leaving for its client's socket (once
 *               the turn that wrote it uncorked the socket; the clients run on the same two cores at a lower
 *               priority: their own wait for the CPU is in the first figure)
 *   memory      the server's RSS and heap per connection (after a full GC), C connections subscribed vs none
 *
 * A real tongate in this process (its local chain, its index, the gateway, the access layer off: one client
 * process holds every connection, so no key cap applies); the clients in a process of their own
 * (support/stream-clients.mjs). In a "with" run each connection follows one address the run's transfers touch (W
 * wallets and their W destinations; W = C / 2 by default, so each is followed by one connection, as each wallet app
 * follows its own) and nine that nothing touches, at min_finality confirmed. Transfers are signed before the clock
 * starts and sent straight to the chain (as HTTP requests would arrive: one per event-loop turn, 256 in flight), in
 * 1 s blocks (the local chain's default; `--block-interval 400` runs at mainnet's pace since 2026, so a block holds
 * fewer transfers and `confirmed` waits for fewer notifications ahead of it).
 *
 * `--per-block 1`: a line per followed block besides (what sets the p99: the block's size, its handover, a collection
 * in it): its `confirmed` notifications, the seal's handover (its listeners, every delivery ready then written to a
 * corked socket), the first, median and last write leaving for a client's socket, the client's median and last
 * receipt, and the main thread's collections that overlap the seal's turn and its writes (V8's `gc` performance
 * entries: kind 1 a scavenge, 2 a mark-compact, 4 incremental marking).
 *
 * `--production-core`: block production (the main thread and the transaction workers) on one CPU, every other thread
 * (the render thread, V8's helpers, the index, the clients' process) on the other (support/production-core.ts): what
 * streaming takes from the producing threads on a machine with a core to spare, where the default run says what it
 * takes on a machine whose cores production keeps busy.
 *
 * `--actions-clients K`: the first K connections ask for `actions` too (types transactions and actions), in both kinds of
 * runs: while one is connected every pending trace is classified on the render thread and every sealed block's
 * actions are read (src/stream/README.md), whoever follows what, so their cost is not in the with/without ratio of
 * one run; it is a run with K against a run without (alternated). Their `actions` notifications are timed apart.
 *
 * The clients stand for wallets on other machines: their process runs at the nice value of the chain's
 * transaction workers (src/util/thread-priority.ts), so on a machine of few cores the load generator does not take
 * the CPU ahead of the block production it measures (at nice 0 it would weigh nine times a transaction worker;
 * `--clients-nice 0` measures that too).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
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
import { autogroupNote } from './support/autogroup.js';
import { productionCore } from './support/production-core.js';
import { prepare } from './support/signed-transfers.js';
import { mainThreadPreemptions, THREAD_GROUPS, threadCpu, threadCpuSince, type ThreadGroup } from './support/thread-cpu.js';
import { lowerThreadPriority, WORKER_NICE } from '../src/util/thread-priority.js';
import { StreamConnection } from '../src/stream/connection.js';
import type { FramedText } from '../src/stream/ws-frame.js';

setFlagsFromString('--expose_gc');
const collectGarbage = runInNewContext('gc') as () => void;

const TRANSFERS = numberArg('transfers', 4000);
const CONNECTIONS_DEFAULT = 1000;
const WALLETS = numberArg('wallets', numberArg('connections', CONNECTIONS_DEFAULT) / 2);
const CONNECTIONS = numberArg('connections', CONNECTIONS_DEFAULT);
const ROUNDS = numberArg('rounds', numberArg('runs', 3));
const CLIENTS_NICE = numberArg('clients-nice', WORKER_NICE);
const BLOCK_INTERVAL_MS = numberArg('block-interval', 1000);
const ACTIONS_CLIENTS = numberArg('actions-clients', 0);
const PER_BLOCK = numberArg('per-block', 0) > 0;
const PRODUCTION_CORE = process.argv.includes('--production-core') ? productionCore() : undefined;
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
    `bench:stream  ${perWallet * WALLETS} transfers per run from ${WALLETS} wallets, ${CONNECTIONS} WebSocket clients x 10 addresses (${ACTIONS_CLIENTS} of them with actions), ${BLOCK_INTERVAL_MS} ms blocks (node ${process.version})`,
  );
  if (PRODUCTION_CORE)
    console.log(
      `production on CPU ${PRODUCTION_CORE.productionCpu} (the main thread, the transaction workers); every other thread and the clients on CPU ${PRODUCTION_CORE.restCpu}`,
    );
  console.log(`load average at start: ${load()}; ${autogroupNote()}`);
  const port = await freePort();
  const config = loadConfig({
    flags: {
      ephemeral: true,
      blockInterval: String(BLOCK_INTERVAL_MS),
      logLevel: 'silent',
      access: 'off',
      network: [`testnet=http://127.0.0.1:${port}`],
    },
    env: {},
  });
  const tongate = await startTongate(config, { logger: pino({ level: 'silent' }) });
  const network = tongate.networks[0];
  const chain = network.chain as unknown as LocalChain;
  const sealedAt = new Map<number, number>();
  let lastSealed = 0;
  // The seal's handover: from the first of the chain's block listeners to the last (the pending layer's and the
  // stream's among them, which write what is ready at once). A notification written during it waited for nothing;
  // one written later waited for a text still on the render thread (or for a delivery of its trace before it).
  let sealTurn = 0;
  chain.onBlock((block) => {
    lastSealed = block.masterchain.id.seqno;
    sealedAt.set(lastSealed, performance.timeOrigin + performance.now());
    sealTurn = lastSealed;
  });
  // The seal's time is taken by the first listener, before the index packs the block's cells (~0.02 ms per
  // transaction) and before the stream's: the chain calls its listeners in the order they came (a Set).
  const listeners = (chain as unknown as { listeners: Set<unknown> }).listeners;
  const ours = [...listeners].pop();
  const others = [...listeners].slice(0, -1);
  listeners.clear();
  for (const l of [ours, ...others]) listeners.add(l);
  /** Per block (--per-block): the end of its handover, and each `confirmed` written and received (ms after the seal). */
  const handedOver = new Map<number, number>();
  const perBlock = { written: new Map<number, number[]>(), received: new Map<number, number[]>() };
  const note = (map: Map<number, number[]>, seqno: number, ms: number) => {
    if (!PER_BLOCK) return;
    const list = map.get(seqno);
    if (list) list.push(ms);
    else map.set(seqno, [ms]);
  };
  const collections: { at: number; ms: number; kind: number }[] = [];
  if (PER_BLOCK)
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        collections.push({
          at: performance.timeOrigin + e.startTime,
          ms: e.duration,
          kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0,
        });
    }).observe({ entryTypes: ['gc'] });
  listeners.add(() => {
    sealTurn = 0;
    if (PER_BLOCK) handedOver.set(lastSealed, performance.timeOrigin + performance.now());
  });

  // Server side: when each `transactions` notification leaves for its client's socket: the socket is corked until
  // the ticks of the turn that wrote it run (its uncork is queued by the first write), so the time is taken in a
  // tick queued after the write. The clients share this machine's two cores at a lower priority, so the
  // client-side figure holds their own scheduling too; this one is tongate's part alone.
  const written = { c: [] as number[], f: [] as number[] };
  /** Of `written.c`, those written after the seal's handover. */
  const writtenLater: number[] = [];
  let measuring = false;
  const send = StreamConnection.prototype.send;
  StreamConnection.prototype.send = function (this: StreamConnection, data: string | FramedText) {
    // A notification made ahead comes framed (src/stream/confirmed-ahead.ts, ws-frame.ts): its head read as text.
    const text = typeof data === 'string' ? data : measuring ? data.bytes.toString('latin1', 0, 1024) : '';
    send.call(this, data);
    if (measuring && text.startsWith('{"type":"transactions","finality":"')) {
      const finality = text[35] === 'c' ? 'c' : text[35] === 'f' ? 'f' : undefined;
      const at = text.indexOf('"mc_block_seqno":');
      const seqno = Number.parseInt(text.slice(at + 17, at + 30), 10);
      const sealed = finality && at > 0 ? sealedAt.get(seqno) : undefined;
      // Taken when the turn's ticks run: the socket is corked until then (its uncork was queued by the send above).
      if (finality && sealed !== undefined) {
        const later = finality === 'c' && sealTurn !== seqno;
        process.nextTick(() => {
          const d = performance.timeOrigin + performance.now() - sealed;
          written[finality].push(d);
          if (finality === 'c') note(perBlock.written, seqno, d);
          if (later) writtenLater.push(d);
        });
      }
    }
  };

  // Batches 0 and 1 warm up (without clients, then followed by them); then each round has one batch per kind.
  const batches: Batch[] = [];
  for (let i = 0; i < 2 * ROUNDS + 2; i++) batches.push(await batch(i + 1, perWallet));
  await Promise.all(batches.flatMap((b) => b.wallets.map((w) => chain.fund(w, toNano('10')))));
  // Warm-up (untimed): the emulator's code compiled, the index's threads started.
  await run(chain, batches[0]);
  const warmUp = batches[1];

  const idle = memory();
  // Nine addresses per connection that nothing touches; the tenth is one a "with" run touches, or one more untouched.
  const untouched = (c: number, k: number) => `0:${(c * 16 + k + 1).toString(16).padStart(64, 'f')}`;
  const subscriptionsFor = (b: Batch | undefined) => {
    const active = b ? b.wallets.flatMap((w, i) => [w, b.destinations[i]]).map(formatRawUpper) : [];
    return Array.from({ length: CONNECTIONS }, (_, c) => [
      active.length > 0 ? active[c % active.length] : untouched(c, 9),
      ...Array.from({ length: 9 }, (_, k) => untouched(c, k)),
    ]);
  };
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./support/stream-clients.mjs', import.meta.url)), `ws://127.0.0.1:${port}/api/streaming/v2/ws`],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  if (CLIENTS_NICE > 0) lowerThreadPriority(child.pid, CLIENTS_NICE);
  const answers = createInterface({ input: child.stdout! });
  const ask = (line: string) => {
    const answer = new Promise<any>((resolve) => answers.once('line', (l) => resolve(JSON.parse(l))));
    child.stdin!.write(`${line}\n`);
    return answer;
  };
  const ready = await ask(JSON.stringify({ open: subscriptionsFor(undefined), actions: ACTIONS_CLIENTS }));
  if (ready.ready !== CONNECTIONS) throw new Error(`only ${ready.ready} clients subscribed`);
  const withMemory = memory();
  // A second warm-up, followed: what streaming starts at its first use (the pending layer's render thread) and the
  // code it runs compiled before anything is timed.
  await ask(JSON.stringify({ subscribe: subscriptionsFor(warmUp), actions: ACTIONS_CLIENTS }));
  await run(chain, warmUp);
  await network.indexed!(lastSealed);

  interface Result {
    kind: 'without' | 'with';
    ms: number;
    serverCpuMs: number;
    clientCpuMs: number;
    threads: Record<ThreadGroup, number> | null;
    /** The main thread's involuntary context switches during the run. */
    preempted: number | null;
  }
  const results: Result[] = [];
  const latencies: number[] = [];
  const finalLatencies: number[] = [];
  /** `actions` notifications (--actions-clients), by finality. */
  const actionLatencies = { ac: [] as number[], af: [] as number[] };
  let received = 0;
  let closed = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const kinds: Result['kind'][] = r % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
    for (const [k, kind] of kinds.entries()) {
      const b = batches[2 + 2 * r + k];
      const subscribed = await ask(
        JSON.stringify({ subscribe: subscriptionsFor(kind === 'with' ? b : undefined), actions: ACTIONS_CLIENTS }),
      );
      if (subscribed.subscribed !== CONNECTIONS) throw new Error(`only ${subscribed.subscribed} clients resubscribed`);
      await ask('report'); // clears the client's notes and CPU count
      PRODUCTION_CORE?.place([child.pid!]);
      const cpuBefore = process.cpuUsage();
      const threadsBefore = threadCpu();
      const preemptedBefore = mainThreadPreemptions();
      measuring = kind === 'with';
      const ms = await run(chain, b);
      const cpu = process.cpuUsage(cpuBefore);
      const threads = threadCpuSince(threadsBefore, threadCpu());
      const preemptedAfter = mainThreadPreemptions();
      const preempted = preemptedBefore === null || preemptedAfter === null ? null : preemptedAfter - preemptedBefore;
      // Runs are kept apart: the index catches up with the run's last block (so its work does not land in the next
      // run) and the last notifications (finalized, once the index holds the block) arrive before they are counted.
      await network.indexed!(lastSealed);
      await new Promise((resolve) => setTimeout(resolve, 500));
      measuring = false;
      const report = (await ask('report')) as { received: [number, number, 'c' | 'f' | 'ac' | 'af'][]; closed: number; cpuMs: number };
      results.push({ kind, ms, serverCpuMs: (cpu.user + cpu.system) / 1000, clientCpuMs: report.cpuMs, threads, preempted });
      received += report.received.length;
      closed = report.closed;
      for (const [seqno, at, finality] of report.received) {
        const sealed = sealedAt.get(seqno);
        if (sealed === undefined) continue;
        if (finality === 'ac' || finality === 'af') actionLatencies[finality].push(at - sealed);
        else (finality === 'c' ? latencies : finalLatencies).push(at - sealed);
        if (finality === 'c') note(perBlock.received, seqno, at - sealed);
      }
    }
  }
  child.stdin!.write('exit\n');
  await tongate.stop();

  const transfers = perWallet * WALLETS;
  const rate = (r: Result) => (transfers / r.ms) * 1000;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const fmt = (xs: number[], digits = 0) => xs.map((x) => x.toFixed(digits)).join(', ');
  const kindOf = (kind: Result['kind']) => results.filter((r) => r.kind === kind);
  // Ratios round by round: each "with" run against the "without" run of its own round.
  const rounds = Array.from({ length: ROUNDS }, (_, r) => results.slice(2 * r, 2 * r + 2));
  const pair = (round: Result[]) => ({ w: round.find((x) => x.kind === 'with')!, o: round.find((x) => x.kind === 'without')! });
  const productionRatios = rounds.map((round) => {
    const { w, o } = pair(round);
    return rate(w) / rate(o);
  });
  const cpuRatios = rounds.map((round) => {
    const { w, o } = pair(round);
    return w.serverCpuMs / o.serverCpuMs;
  });
  latencies.sort((a, b) => a - b);
  finalLatencies.sort((a, b) => a - b);
  console.log('');
  console.log(
    `production  without clients ${fmt(kindOf('without').map(rate))} transfers/s; with ${CONNECTIONS} clients ${fmt(kindOf('with').map(rate))}`,
  );
  console.log(
    `            ratio with/without per round ${fmt(productionRatios, 3)}: median ${median(productionRatios).toFixed(3)}   (issue 26: >= 0.90)`,
  );
  console.log(
    `cpu         tongate per transfer without ${fmt(kindOf('without').map((r) => (r.serverCpuMs / transfers) * 1000))} µs, with ${fmt(kindOf('with').map((r) => (r.serverCpuMs / transfers) * 1000))} µs`,
  );
  console.log(`            ratio with/without per round ${fmt(cpuRatios, 3)}: median ${median(cpuRatios).toFixed(3)}`);
  for (const group of THREAD_GROUPS) {
    const perTransfer = (kind: Result['kind']) => fmt(kindOf(kind).map((r) => ((r.threads?.[group] ?? NaN) / transfers) * 1000));
    console.log(`            threads "${group}" per transfer: without ${perTransfer('without')} µs, with ${perTransfer('with')} µs`);
  }
  const preemptions = (kind: Result['kind']) =>
    fmt(
      kindOf(kind).map((r) => (r.preempted ?? NaN) / transfers),
      2,
    );
  console.log(`            the main thread preempted per transfer: without ${preemptions('without')}, with ${preemptions('with')}`);
  console.log(
    `            the clients' process per transfer: without ${fmt(kindOf('without').map((r) => (r.clientCpuMs / transfers) * 1000))} µs, with ${fmt(kindOf('with').map((r) => (r.clientCpuMs / transfers) * 1000))} µs`,
  );
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
  for (const xs of [actionLatencies.ac, actionLatencies.af]) xs.sort((a, b) => a - b);
  line('actions at confirmed', actionLatencies.ac);
  line('actions at finalized', actionLatencies.af);
  for (const xs of [written.c, written.f]) xs.sort((a, b) => a - b);
  const serverLine = (name: string, xs: number[]) =>
    xs.length > 0 &&
    console.log(
      `            ${name}: ${xs.length}, seal -> written to the client's socket p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms, max ${xs[xs.length - 1].toFixed(1)} ms`,
    );
  serverLine('confirmed, server side', written.c);
  writtenLater.sort((a, b) => a - b);
  console.log(
    `              of which written after the seal's handover (a text still rendering): ${writtenLater.length}${writtenLater.length > 0 ? `, p50 ${percentile(writtenLater, 50).toFixed(1)} ms, p99 ${percentile(writtenLater, 99).toFixed(1)} ms` : ''}`,
  );
  serverLine('finalized, server side', written.f);
  console.log(
    `memory      per connection: rss ${((withMemory.rss - idle.rss) / CONNECTIONS / 1024).toFixed(1)} KiB, heap+external ${((withMemory.heap - idle.heap) / CONNECTIONS / 1024).toFixed(1)} KiB`,
  );
  if (PER_BLOCK) {
    console.log(
      'per block  seqno: confirmed written | handover | written first / p50 / last | received p50 / last | collections in it (kind: ms @ ms after the seal)',
    );
    for (const [seqno, ds] of [...perBlock.written].sort((a, b) => a[0] - b[0])) {
      ds.sort((a, b) => a - b);
      const seal = sealedAt.get(seqno)!;
      const got = (perBlock.received.get(seqno) ?? []).sort((a, b) => a - b);
      const last = seal + ds[ds.length - 1];
      const inside = collections.filter((g) => g.at + g.ms > seal && g.at < last);
      const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1));
      console.log(
        `           ${seqno}: ${ds.length} | ${ms(handedOver.get(seqno)! - seal)} | ${ms(ds[0])} / ${ms(percentile(ds, 50))} / ${ms(ds[ds.length - 1])} | ${got.length > 0 ? `${ms(percentile(got, 50))} / ${ms(got[got.length - 1])}` : '-'} | ${inside.map((g) => `${g.kind}: ${g.ms.toFixed(1)} @ ${(g.at - seal).toFixed(0)}`).join(', ')}`,
      );
    }
  }
  console.log(`load average at the end: ${load()}`);
}

await main();
