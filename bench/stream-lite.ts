/**
 * `npm run bench:stream-lite [-- --wallets W --rounds R --target-rate-ms N]`: streaming on a lite network, from a
 * proven head to a WebSocket client holding its notification, on ../shared/ton-node-simplex (the npm script sets
 * TONGATE_TON_NETWORK) at a Simplex target rate of 400 ms (mainnet's pace).
 *
 * A tongate in this process follows the network (`--backend mainnet=lite`, access off); W wallets (default 50),
 * funded and deployed first, send R rounds (default 5) of one transfer each; W WebSocket clients in a process of
 * their own (support/stream-clients.mjs) each follow one wallet and nine addresses nothing touches, at
 * `min_finality: confirmed`. Per masterchain block, on one epoch (performance.timeOrigin + now in both processes):
 *
 *   head -> indexed     the head proven (LiteChain.onHead) to the index holding it: the baseline, what v3 waits too
 *   head -> delivered   the head proven to a client holding a notification of a transaction it commits, at
 *                       `confirmed` and at `finalized` (sent together on a lite network: src/stream/README.md)
 *   stream's share      delivered minus indexed for the same block: what streaming adds to the index's lag
 *
 * p50 / p99 of each over the rounds, with the load average (os.loadavg) before and after. Not measured here: the
 * time from a block's making to its head being proven (the pool and the proofs: bench:lite-lag has it).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import type { LiteChain } from '../src/chain/lite/index.js';
import { formatRawUpper } from '../src/ton/address.js';
import { TON_NETWORK } from '../test/support/ton-node.js';
import { numberArg } from './support/args.js';
import { json } from './support/http-json.js';
import { startLiteTongate } from './support/lite-tongate.js';
import { fundedSenders, sendRound, signedRounds } from './support/lite-senders.js';

const WALLETS = numberArg('wallets', 50);
const ROUNDS = numberArg('rounds', 5);
const TARGET_RATE_MS = numberArg('target-rate-ms', 400);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const now = () => performance.timeOrigin + performance.now();
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v: number) => (Number.isNaN(v) ? '-' : `${v.toFixed(0)} ms`);
const line = (what: string, values: number[]) =>
  console.log(
    `  ${what.padEnd(28)} p50 ${ms(percentile(values, 50)).padStart(8)}  p99 ${ms(percentile(values, 99)).padStart(8)}  (n=${values.length})`,
  );

async function main(): Promise<void> {
  console.log(`bench:stream-lite  ${TON_NETWORK}, target rate ${TARGET_RATE_MS} ms, ${WALLETS} wallets x ${ROUNDS} rounds`);
  console.log(`load average at start: ${load()}`);
  const { node, running } = await startLiteTongate({ simplexTargetRateMs: TARGET_RATE_MS });
  const network = running.networks[0];
  const chain = network.chain as unknown as LiteChain;
  const base = network.baseUrl.origin;
  const v2 = `${base}/api/v2`;
  const headAt = new Map<number, number>();
  const indexedAt = new Map<number, number>();
  chain.onHead((seqno) => {
    headAt.set(seqno, now());
    void network.indexed!(seqno).then(() => indexedAt.set(seqno, now()));
  });
  let clients: ReturnType<typeof spawn> | undefined;
  try {
    const call = (path: string, body?: Record<string, unknown>) => json(`${v2}/${path}`, body);
    const seqnoOf = async (a: Address) => {
      const r = await call('runGetMethod', { address: a.toRawString(), method: 'seqno', stack: [] });
      return r.ok && r.result.exit_code === 0 ? Number(BigInt(r.result.stack[0][1])) : -1;
    };
    const { hub, senders } = await fundedSenders(node, chain.globalId, WALLETS, {
      sendBoc: (boc) => call('sendBoc', { boc }),
      balance: async (a) => BigInt((await call(`getAddressBalance?address=${a.toRawString()}`)).result ?? 0),
      seqno: seqnoOf,
    });
    const bocs = await signedRounds(senders, ROUNDS + 1, hub.address, 3600);
    // Round 0 deploys the wallets, outside the measured window.
    await sendRound(0, bocs[0], senders, { send: (boc) => call('sendBoc', { boc }), seqno: seqnoOf });

    clients = spawn(
      process.execPath,
      [fileURLToPath(new URL('./support/stream-clients.mjs', import.meta.url)), `${base.replace('http', 'ws')}/api/streaming/v2/ws`],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: clients.stdout! });
    const next = () => new Promise<any>((resolve) => lines.once('line', (text) => resolve(JSON.parse(text))));
    const subscriptions = senders.map((s) => [
      formatRawUpper(s.wallet.address),
      ...Array.from({ length: 9 }, () => formatRawUpper(new Address(0, randomBytes(32)))),
    ]);
    clients.stdin!.write(`${JSON.stringify({ open: subscriptions })}\n`);
    const ready = await next();
    console.log(`clients: ${ready.ready} WebSocket connections subscribed`);

    for (let round = 1; round <= ROUNDS; round++) {
      await sendRound(round, bocs[round], senders, { send: (boc) => call('sendBoc', { boc }), seqno: seqnoOf });
    }
    // The last round's notifications follow its landing by the index's lag: wait for its head to be indexed and delivered.
    const last = chain.masterchainInfo().last.id.seqno;
    await network.indexed!(last);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    clients.stdin!.write('report\n');
    const report = await next();

    const indexed: number[] = [];
    const confirmed: number[] = [];
    const finalized: number[] = [];
    const share: number[] = [];
    const blocks = new Set<number>();
    for (const [seqno, at, finality] of report.received as [number, number, string][]) {
      const head = headAt.get(seqno);
      if (head === undefined) continue;
      blocks.add(seqno);
      (finality === 'c' ? confirmed : finalized).push(at - head);
      const done = indexedAt.get(seqno);
      if (done !== undefined && finality === 'c') share.push(at - done);
    }
    for (const seqno of blocks) {
      const head = headAt.get(seqno)!;
      const done = indexedAt.get(seqno);
      if (done !== undefined) indexed.push(done - head);
    }
    console.log(`notifications: ${report.received.length} in ${blocks.size} masterchain blocks; closed connections: ${report.closed}`);
    line('head -> indexed (baseline)', indexed);
    line('head -> confirmed delivered', confirmed);
    line('head -> finalized delivered', finalized);
    line("stream's share (confirmed)", share);
    console.log(`load average at the end: ${load()}`);
  } finally {
    clients?.stdin?.write('exit\n');
    clients?.kill();
    await running.stop();
    await node.stop();
  }
}

await main();
