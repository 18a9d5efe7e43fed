/**
 * `node --import tsx bench/stream-handover.ts [--builds DIR,DIR --blocks N --warmup N --transfers N --clients N]`:
 * the main thread's part of a block's seal in streaming, alone: the pending layer's and the hub's listeners (the
 * handover) and the one write per client after it, without the chain, the render thread, the index or sockets.
 * Per block, 800 wallet transfers (two transactions each, a trace each: 1,600 `confirmed` notifications) are
 * executed into the pending layer and their `confirmed` made ahead (confirmed-ahead.ts, as the render thread's texts
 * would be), then the block is sealed: timed from the first listener to the return of the last (the handover) and
 * to the last client's write (a Writable per client whose writev takes the frames and writes nothing: Node's
 * stream machinery is measured, the kernel's send is not). 1,000 clients x 10 addresses, each following one
 * address the transfers touch (`min_finality: confirmed`, `transactions`).
 *
 * `--builds`: source trees to compare (each a directory holding `src/`, e.g. an export of an earlier commit with a
 * `node_modules` link), alternated block by block in this one process (A B A B ...). Prints per build the median
 * handover and to-last-write time per notification, the median of B/A per pair of blocks with its quartiles, the
 * blocks a collection overlapped, and the heap bytes a handover left per notification in blocks without one.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { Address, beginCell, external } from '@ton/core';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const BUILDS = arg('builds', '.')
  .split(',')
  .map((b) => path.resolve(b));
const BLOCKS = Number(arg('blocks', '150'));
const WARMUP = Number(arg('warmup', '10'));
const TRANSFERS = Number(arg('transfers', '800'));
const CLIENTS = Number(arg('clients', '1000'));
const WALLETS = CLIENTS / 2;
/**
 * What a client keeps for trace_invalidated until `finalized` (the index's lag, seconds) is let go once it holds
 * more than this many traces (~20 blocks at 1.6 notifications a client and block), outside the timing.
 */
const KEPT_UNTIL_FINALIZED = 32;
/** `--profile heap|cpu FILE`: V8's sampling heap profile (allocations) or CPU profile of the measured handovers alone. */
const PROFILE = arg('profile', '');
const PROFILE_FILE = arg('profile-file', '/tmp/stream-handover.profile');
const session = PROFILE ? new Session() : undefined;
if (session) {
  session.connect();
  if (PROFILE === 'cpu') {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
  } else await session.post('HeapProfiler.enable');
}

const gcs: { start: number; end: number; kind: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gcs.push({ start: e.startTime, end: e.startTime + e.duration, kind: (e as unknown as { detail: { kind: number } }).detail?.kind });
}).observe({ entryTypes: ['gc'] });

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const addressOf = (n: number, salt: number) =>
  new Address(0, Buffer.from(`${salt.toString(16).padStart(8, '0')}${n.toString(16).padStart(56, '0')}`, 'hex'));
const wallets = Array.from({ length: WALLETS }, (_, i) => addressOf(i, 1));
const dests = Array.from({ length: WALLETS }, (_, i) => addressOf(i, 2));

/** A pending text of about a wallet transfer's size (render.ts's layout: seqnos 0, emulated, pending). */
const pendingText = (account: string, hash: string, lt: bigint) =>
  `{"account":"${account}","hash":"${hash}","lt":"${lt}","now":1700000000,"orig_status":"active","end_status":"active",` +
  `"total_fees":"2882000","total_fees_extra_currencies":{},"prev_trans_hash":"${hash}","prev_trans_lt":"${lt - 3n}",` +
  `"description":{"type":"ord","aborted":false,"destroyed":false,"credit_first":true,"is_tock":false,"installed":false,` +
  `"storage_ph":{"storage_fees_collected":"1","status_change":"unchanged"},"compute_ph":{"skipped":false,"success":true,` +
  `"msg_state_used":false,"account_activated":false,"gas_fees":"1352000","gas_used":"3308","gas_limit":"0","gas_credit":"10000",` +
  `"mode":0,"exit_code":0,"vm_steps":68,"vm_init_state_hash":"${'A'.repeat(44)}","vm_final_state_hash":"${'B'.repeat(44)}"},` +
  `"action":{"success":true,"valid":true,"no_funds":false,"status_change":"unchanged","total_fwd_fees":"266669","total_action_fees":"88887",` +
  `"result_code":0,"tot_actions":1,"spec_actions":0,"skipped_actions":0,"msgs_created":1,"action_list_hash":"${'C'.repeat(44)}",` +
  `"tot_msg_size":{"cells":"1","bits":"705"}}},"block_ref":{"workchain":0,"shard":"8000000000000000","seqno":0},` +
  `"in_msg":{"hash":"${hash}","source":null,"destination":"${account}","value":null,"fwd_fee":null,"ihr_fee":null,"created_lt":null,` +
  `"created_at":null,"opcode":"0x00000000","ihr_disabled":null,"bounce":null,"bounced":null,"import_fee":"0",` +
  `"message_content":{"hash":"${'D'.repeat(44)}","body":"te6cckEBAQEAAgAAAEysuc0=","decoded":null},"init_state":null},` +
  `"out_msgs":[],"account_state_before":{"hash":"${'E'.repeat(44)}"},"account_state_after":{"hash":"${'F'.repeat(44)}"},` +
  `"mc_block_seqno":0,"trace_id":"${hash}","emulated":true,"finality":"pending"}`;

interface Build {
  name: string;
  traces: any;
  hub: any;
  seal: ((block: unknown) => void)[];
  connections: any[];
  prepareConfirmed: (trace: unknown, tx: unknown, text: string) => void;
  lastWrite: number;
  handover: number[];
  toLast: number[];
  gcBlocks: number;
  bytesPerNotification: number[];
}

async function load(root: string, name: string): Promise<Build> {
  const src = (file: string) => import(path.join(root, 'src', file));
  const [{ PendingTraces }, { StreamHub }, { StreamConnection }, { prepareConfirmed }, { emptySubscription }] = await Promise.all([
    src('pending/pending-traces.ts'),
    src('stream/hub.ts'),
    src('stream/connection.ts'),
    src('stream/confirmed-ahead.ts'),
    src('stream/subscription.ts'),
  ]);
  const seal: ((block: unknown) => void)[] = [];
  const chain = { onBlock: (listener: (block: unknown) => void) => (seal.push(listener), () => undefined) };
  const traces = new PendingTraces(0);
  // The chain's listeners in the gateway's order: the pending layer's first (it hears a block first), then the hub's.
  seal.push((block) => traces.sealed(block));
  // The hub hears the pending layer's seal (`landed`) only: the transactions were rendered ahead (prepareConfirmed).
  const pending = { listen: (l: { landed: unknown }) => traces.listen({ landed: l.landed }) };
  const build: Build = {
    name,
    traces,
    hub: undefined,
    seal,
    connections: [],
    prepareConfirmed,
    lastWrite: 0,
    handover: [],
    toLast: [],
    gcBlocks: 0,
    bytesPerNotification: [],
  };
  build.hub = new StreamHub({ network: { chain, testOnly: true } as never, pending: pending as never, actions: {} as never });
  for (let i = 0; i < CLIENTS; i++) {
    const w = new Writable({
      writev(_chunks, done) {
        build.lastWrite = performance.now();
        done();
      },
      write(_chunk, _encoding, done) {
        build.lastWrite = performance.now();
        done();
      },
    });
    const transport = {
      buffered: () => w.writableLength,
      write: (text: string | Uint8Array) => w.write(text),
      writeFrame: (frame: Buffer) => (w.write(frame), true),
      close: () => undefined,
      cork: () => w.cork(),
      uncork: () => w.uncork(),
    };
    const c = new StreamConnection(`c${i}`, transport, 4 << 20, 0, undefined, () => undefined);
    const followed = i < WALLETS ? wallets[i] : dests[i - WALLETS];
    const others = Array.from({ length: 9 }, (_, k) => raw(addressOf(i * 10 + k, 3)));
    c.subscription = {
      ...emptySubscription(),
      types: new Set(['transactions']),
      minFinality: 'confirmed',
      addresses: new Set([raw(followed), ...others]),
    };
    build.hub.add(c);
    build.connections.push(c);
  }
  return build;
}

const profiles: unknown[] = [];
let lt = 1_000_000n;
let bodySeq = 0;

/** A block's transfers executed into the pending layer, their `confirmed` made ahead; the block's transactions. */
function openBlock(build: Build, seqno: number): { hash: Buffer; account: Address }[] {
  const block: { hash: Buffer; account: Address }[] = [];
  for (let j = 0; j < TRANSFERS; j++) {
    const w = (seqno * TRANSFERS + j) % WALLETS;
    const message = external({ to: wallets[w], body: beginCell().storeUint(bodySeq++, 32).endCell() });
    const out = { cell: undefined, hash: randomBytes(32), message: { info: { type: 'internal' } } };
    const root = {
      hash: randomBytes(32),
      account: wallets[w],
      lt: (lt += 2n),
      now: 1,
      inMsg: { cell: undefined, hash: randomBytes(32), message },
      outMsgs: [out],
    };
    const leaf = {
      hash: randomBytes(32),
      account: dests[w],
      lt: (lt += 2n),
      now: 1,
      inMsg: { cell: undefined, hash: out.hash, message: out.message },
      outMsgs: [],
    };
    for (const tx of [root, leaf]) build.traces.executed(tx);
    block.push(root, leaf);
  }
  for (const trace of build.traces.traces.values())
    for (const tx of trace.txs)
      if (tx.sealedIn === undefined) {
        // As the render thread's text comes back: kept on the transaction (renderer.ts), its confirmed made ahead.
        tx.rendered = pendingText(tx.account, tx.hash, tx.lt);
        build.prepareConfirmed(trace, tx, tx.rendered);
      }
  return block;
}

async function sealBlock(build: Build, seqno: number, measured: boolean): Promise<void> {
  const transactions = openBlock(build, seqno);
  const block = { masterchain: { id: { seqno } }, shard: {}, transactions, messages: [], accountStates: [] };
  await new Promise((resolve) => setImmediate(resolve));
  const heapBefore = getHeapStatistics().used_heap_size;
  const gcsBefore = gcs.length;
  if (session && measured)
    await session.post(
      PROFILE === 'cpu' ? 'Profiler.start' : 'HeapProfiler.startSampling',
      PROFILE === 'cpu' ? undefined : ({ samplingInterval: 256 } as never),
    );
  const t0 = performance.now();
  for (const listener of build.seal) listener(block);
  const t1 = performance.now();
  if (session && measured) await new Promise<void>((resolve) => process.nextTick(resolve));
  if (session && measured) {
    if (PROFILE === 'cpu') profiles.push((await session.post('Profiler.stop')).profile);
    else profiles.push((await session.post('HeapProfiler.stopSampling')).profile);
  }
  const heapAfter = getHeapStatistics().used_heap_size;
  await new Promise((resolve) => setImmediate(resolve));
  // The collections V8 reports come late (the observer's callback): read after a turn.
  await new Promise((resolve) => setTimeout(resolve, 1));
  const n = transactions.length;
  if (!measured) return;
  const overlapped = gcs.slice(gcsBefore).some((g) => g.start < build.lastWrite && g.end > t0);
  build.handover.push(((t1 - t0) * 1000) / n);
  build.toLast.push(((build.lastWrite - t0) * 1000) / n);
  if (overlapped) build.gcBlocks += 1;
  else build.bytesPerNotification.push((heapAfter - heapBefore) / n);
}

/** `finalized` of what the clients keep, as the index's lag would let it go (KEPT_UNTIL_FINALIZED). */
function finalize(build: Build): void {
  for (const c of build.connections) if (c.unsettled.size > KEPT_UNTIL_FINALIZED) c.unsettled.clear();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)];
};
const quartiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor(s.length / 4)], s[Math.floor((3 * s.length) / 4)]];
};

const builds: Build[] = [];
for (const [i, root] of BUILDS.entries()) builds.push(await load(root, String.fromCharCode(65 + i)));
for (let b = 0; b < WARMUP + BLOCKS; b++) {
  for (const build of b % 2 === 0 ? builds : [...builds].reverse()) {
    await sealBlock(build, b + 1, b >= WARMUP);
    finalize(build);
  }
}
const f = (x: number) => x.toFixed(2);
for (const build of builds)
  console.log(
    `${build.name} ${BUILDS[builds.indexOf(build)]}: handover ${f(median(build.handover))} µs per notification, to the last write ${f(median(build.toLast))} µs (medians of ${build.handover.length} blocks); a collection in ${build.gcBlocks} blocks; heap left by the handover ${f(median(build.bytesPerNotification))} B per notification (blocks without one)`,
  );
const ratio = (x: Build, y: Build) => {
  for (const key of ['handover', 'toLast'] as const) {
    const ratios = x[key].map((v, k) => v / y[key][k]);
    const [q1, q3] = quartiles(ratios);
    console.log(
      `${x.name}/${y.name} ${key}: median ${f(median(ratios))} (quartiles ${f(q1)}-${f(q3)}) over ${ratios.length} pairs of blocks`,
    );
  }
};
// Each build against the first, and against the one before it (a cut on top of the previous one).
for (let i = 1; i < builds.length; i++) {
  ratio(builds[i], builds[0]);
  if (i > 1) ratio(builds[i], builds[i - 1]);
}
if (session) writeFileSync(PROFILE_FILE, JSON.stringify(profiles));
process.exit(0);
