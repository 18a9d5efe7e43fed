/**
 * `npm run bench:lite`: what tongate in lite mode adds over talking to the liteserver directly (issue 11, figures).
 *
 * A real one-validator TON network (../shared/ton-node, as the tests start it; or the running one named by
 * TONGATE_TON_NET_DIR) and one tongate in this process (`--backend mainnet=lite`, access off). For each read, in
 * interleaved pairs (so load from other processes hits both alike), one request through tongate's v2 over HTTP
 * and the same read with ton-lite-client's own LiteClient + LiteSingleEngine on the same liteserver:
 *
 *   getAddressInformation   genesis wallet; direct: getAccountState at the newest block
 *   getAddressInformation*  a new (unknown) address each time: tongate cannot have it kept
 *   getTransactions         genesis wallet, limit 10; direct: getAccountTransactions (10) from its last one
 *   runGetMethod seqno      genesis wallet; tongate emulates (kept per block); direct: runSmcMethod on the server
 *   getMasterchainInfo      for scale: an HTTP round trip with nothing behind it
 *
 * and prints p50/p99 of each side, the difference at p50 (what tongate adds; negative: it saves) and the ratio.
 * Then the fault figures: the validator is killed, and the time until tongate answers a 5xx (instead of waiting)
 * is measured; it is started again, and the time from its liteserver accepting connections to tongate's first
 * 200 on a fresh read.
 *
 * The live index under load: `--wallets` wallets (default 200) send at once, `--rounds` times (default 3); the
 * index's lag behind the network sampled every 200 ms (p50/p99), the process's CPU per indexed transaction, where
 * the touched accounts' states came from; then a second tongate back-fills the same blocks (--index-from): its
 * rate and CPU per transaction from its first written block to the last.
 *
 * Flags: --samples N (pairs per read, default 300). BENCH_STAGES=1 prints, per masterchain block of the load, the
 * time from its head to its feed being read and to its being indexed, and every lag sample above 2.
 */
import { createConnection } from 'node:net';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Address } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { loadConfig } from '../src/config/load.js';
import { startTongate } from '../src/cli/start.js';
import { freePort } from '../test/support/ports.js';
import { requireTonNode } from '../test/support/ton-node.js';
import { LiteChain } from '../src/chain/lite/index.js';
import { parseGlobalConfig } from '../src/ton/global-config.js';
import { systemClock } from '../src/util/clock.js';
import { readFileSync } from 'node:fs';
import { numberArg } from './support/args.js';
import { startLiteTongate } from './support/lite-tongate.js';
import { json, waitFor } from './support/http-json.js';
import { fundedSenders, sendRound, signedRounds } from './support/lite-senders.js';

const samples = numberArg('samples', 300);
const walletCount = Math.min(255, numberArg('wallets', 200));
const loadRounds = numberArg('rounds', 3);

/** ton-lite-client keeps account states and headers by default: the baseline is a real liteserver query each time. */
class NoCache {
  get(): undefined {
    return undefined;
  }
  set(): this {
    return this;
  }
  delete(): boolean {
    return false;
  }
  clear(): void {}
}

if (!requireTonNode()) process.exit(0);
const { node, running, port } = await startLiteTongate();
const v2 = `http://127.0.0.1:${port}/api/v2`;
const engine = new LiteSingleEngine({
  host: `tcp://127.0.0.1:${node.liteserver.port}`,
  publicKey: Buffer.from(node.liteserver.publicKeyBase64, 'base64'),
});
engine.on('error', () => undefined);
const direct = new LiteClient({ engine, cacheMap: () => new NoCache() });
while (!engine.isReady()) await new Promise((r) => setTimeout(r, 50));

const genesis = node.genesisAddress;
const genesisRaw = genesis.toRawString();

async function http(path: string, body?: unknown): Promise<void> {
  const response = await fetch(
    `${v2}/${path}`,
    body === undefined ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

interface Pair {
  name: string;
  tongate: () => Promise<unknown>;
  direct?: () => Promise<unknown>;
}

// The direct side asks for the newest block at most once a second (tongate follows the head the same way), so
// each of its reads is one liteserver query, as tongate's uncached ones are.
let lastId: { id: Awaited<ReturnType<typeof direct.getMasterchainInfo>>['last']; at: number } | undefined;
const last = async () => {
  if (!lastId || Date.now() - lastId.at > 1000) lastId = { id: (await direct.getMasterchainInfo()).last, at: Date.now() };
  return lastId.id;
};
const pairs: Pair[] = [
  {
    name: 'getAddressInformation',
    tongate: () => http(`getAddressInformation?address=${genesisRaw}`),
    direct: async () => direct.getAccountState(genesis, await last()),
  },
  {
    name: 'getAddressInformation*',
    tongate: () => http(`getAddressInformation?address=${new Address(0, randomBytes(32)).toRawString()}`),
    direct: async () => direct.getAccountState(new Address(0, randomBytes(32)), await last()),
  },
  {
    name: 'getTransactions',
    tongate: () => http(`getTransactions?address=${genesisRaw}&limit=10`),
    direct: async () => {
      const account = await direct.getAccountState(genesis, await last());
      const tx = account.lastTx!;
      return direct.getAccountTransactions(genesis, tx.lt.toString(), Buffer.from(tx.hash.toString(16).padStart(64, '0'), 'hex'), 10);
    },
  },
  {
    name: 'runGetMethod seqno',
    tongate: () => http('runGetMethod', { address: genesisRaw, method: 'seqno', stack: [] }),
    direct: async () => direct.runMethod(genesis, 'seqno', Buffer.alloc(0), await last()),
  },
  { name: 'getMasterchainInfo', tongate: () => http('getMasterchainInfo') },
];

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v: number) => `${v.toFixed(2)} ms`.padStart(10);

// A fresh network has no basechain block for its first seconds: wait until every read works, then warm up
// (workers, connections, JIT).
for (const pair of pairs) {
  for (let deadline = Date.now() + 60_000; ;) {
    try {
      await Promise.all([pair.tongate(), pair.direct?.()]);
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  for (let i = 0; i < 20; i++) await Promise.all([pair.tongate(), pair.direct?.()]);
}

console.log(`bench:lite  ${samples} interleaved pairs per read, one liteserver on 127.0.0.1 (a one-validator network)`);
console.log(
  'read'.padEnd(24) +
    'tongate p50'.padStart(12) +
    'p99'.padStart(11) +
    'direct p50'.padStart(12) +
    'p99'.padStart(11) +
    '   added p50   ratio p50',
);
for (const pair of pairs) {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < samples; i++) {
    // Alternate who goes first, so neither always meets the other's leftovers.
    if (i % 2 === 0) {
      ours.push(await time(pair.tongate));
      if (pair.direct) theirs.push(await time(pair.direct));
    } else {
      if (pair.direct) theirs.push(await time(pair.direct));
      ours.push(await time(pair.tongate));
    }
  }
  const line = pair.name.padEnd(24) + ms(pct(ours, 50)) + ms(pct(ours, 99));
  if (!pair.direct) {
    console.log(line);
    continue;
  }
  const added = pct(ours, 50) - pct(theirs, 50);
  console.log(
    line +
      ms(pct(theirs, 50)) +
      ms(pct(theirs, 99)) +
      `  ${(added >= 0 ? '+' : '') + added.toFixed(2)} ms`.padStart(12) +
      `${(pct(ours, 50) / pct(theirs, 50)).toFixed(2)}x`.padStart(10),
  );
}
console.log('(getAddressInformation*: a new address each time, so tongate fetches and checks the proof every time;');
console.log(' the others are kept per masterchain block: a new block comes every ~2 s.)');

// The live index under load: wallets sending at once (`--wallets` of them, `--rounds` times), the index's lag
// behind the network sampled every 200 ms, the process's CPU per indexed transaction, then a back-fill of the
// same blocks by a second tongate (--index-from).
await indexUnderLoad();

// Faults: the validator killed, then back.
const fresh = () => new Address(0, randomBytes(32)).toRawString();
engine.close();
await node.kill();
const killedAt = performance.now();
let status = 0;
while (status < 500) {
  const response = await fetch(`${v2}/getAddressInformation?address=${fresh()}`);
  await response.text();
  status = response.status;
}
const failFast = performance.now() - killedAt;
const restart = node.start();
const lsPort = node.liteserver.port;
while (!(await accepts(lsPort))) await new Promise((r) => setTimeout(r, 20));
const upAt = performance.now();
let served = false;
while (!served) {
  const response = await fetch(`${v2}/getAddressInformation?address=${fresh()}`);
  await response.text();
  served = response.status === 200;
  if (!served) await new Promise((r) => setTimeout(r, 20));
}
const recover = performance.now() - upAt;
await restart;
console.log(`liteserver killed: first ${status} after ${failFast.toFixed(0)} ms (goal: within the 5 s request timeout)`);
console.log(`liteserver back: tongate serves fresh reads ${recover.toFixed(0)} ms after it accepts connections (goal: <= 10 s)`);

await running.stop();
await node.stop();

function accepts(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: p });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function indexUnderLoad(): Promise<void> {
  const v3 = v2.replace('/api/v2', '/api/v3');
  const chain = running.networks[0].chain as LiteChain;
  const balance = async (a: Address) => BigInt((await json(`${v2}/getAddressBalance?address=${a.toRawString()}`)).result ?? 0);
  const seqnoOf = async (a: Address) => {
    const r = await json(`${v2}/runGetMethod`, { address: a.toRawString(), method: 'seqno', stack: [] });
    return r.ok && r.result.exit_code === 0 ? Number(BigInt(r.result.stack[0][1])) : -1;
  };
  // A v5 wallet funded from the genesis wallet pays every sender in one transfer.
  const { hub, senders } = await fundedSenders(node, chain.globalId, walletCount, {
    sendBoc: (boc) => json(`${v2}/sendBoc`, { boc }),
    balance,
    seqno: seqnoOf,
  });

  // Signed before the measured window and before the index's catch-up: the CPU figure is tongate's, not the load
  // generator's ed25519 signing.
  const bocs = await signedRounds(senders, loadRounds, hub.address);
  const head = async () => (await json(`${v2}/getMasterchainInfo`)).result.last.seqno as number;
  const indexed = async () => {
    const info = await json(`${v3}/masterchainInfo`);
    if (!info.last) throw new Error(`v3 masterchainInfo: ${JSON.stringify(info).slice(0, 120)}`);
    return info.last.seqno as number;
  };
  await waitFor('the index to catch up before the load', async () => (await indexed()) >= (await head()));
  const firstSeqno = (await head()) + 1;
  const lags: number[] = [];
  // A sample whose reads failed (a v3 read past its 2 s budget on a starved machine) is counted, not a crash.
  const failedSamples: string[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const t0 = performance.now();
      const direct = running.networks[0].indexLag!();
      let h: number, i: number;
      try {
        [h, i] = await Promise.all([head(), indexed()]);
      } catch (err) {
        failedSamples.push((err as Error).message);
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      lags.push(Math.max(0, h - i));
      if (process.env.BENCH_STAGES && h - i > 2)
        console.log(`  sample: v2 head ${h} v3 last ${i} direct lag ${direct} took ${(performance.now() - t0).toFixed(0)} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const followerBefore = { ...chain.follower.stats };
  // BENCH_STAGES: each block of the load, from its head to its feed being read and to its being indexed.
  const stages = new Map<number, { head?: number; fed?: number; indexed?: number; txs?: number }>();
  const stage = (n: number) => stages.get(n) ?? (stages.set(n, {}), stages.get(n)!);
  chain.onHead((n) => (stage(n).head = performance.now()));
  const origFeed = chain.follower.feedBlock.bind(chain.follower);
  chain.follower.feedBlock = (n: number) =>
    origFeed(n).then((b) => ((stage(n).fed = performance.now()), (stage(n).txs = b.transactions.length), b));
  const net = running.networks[0];
  const probe = setInterval(() => {
    const last = chain.masterchainInfo().last.id.seqno - net.indexLag!();
    for (const [n, st] of stages) if (n <= last && st.indexed === undefined) st.indexed = performance.now();
  }, 10);
  const cpuStart = process.cpuUsage();
  const loadStart = performance.now();
  for (let round = 0; round < loadRounds; round++) {
    await sendRound(round, bocs[round], senders, { send: (boc) => json(`${v2}/sendBoc`, { boc }), seqno: seqnoOf });
  }
  const lastSeqno = await head();
  await waitFor('the index to catch up after the load', async () => (await indexed()) >= lastSeqno);
  const loadMs = performance.now() - loadStart;
  const cpu = process.cpuUsage(cpuStart);
  sampling = false;
  await sampler;
  let transactions = 0;
  const perBlock = new Map<number, number>();
  for (let seqno = firstSeqno; seqno <= lastSeqno; seqno++) {
    const count = ((await json(`${v3}/transactionsByMasterchainBlock?seqno=${seqno}&limit=1000`)).transactions ?? []).length;
    perBlock.set(seqno, count);
    transactions += count;
  }
  const cpuMs = (cpu.user + cpu.system) / 1000;
  clearInterval(probe);
  if (process.env.BENCH_STAGES)
    for (const [n, st] of [...stages].sort((a, b) => a[0] - b[0]))
      console.log(
        `  #${n} txs ${st.txs} fed +${((st.fed ?? NaN) - (st.head ?? NaN)).toFixed(0)} ms indexed +${((st.indexed ?? NaN) - (st.head ?? NaN)).toFixed(0)} ms`,
      );
  console.log(
    `live index under load: ${walletCount} wallets x ${loadRounds} rounds, masterchain ${firstSeqno}..${lastSeqno}, ${transactions} transactions in ${(loadMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `  lag behind the network (masterchain blocks, sampled every 200 ms): p50 ${pct(lags, 50)}, p99 ${pct(lags, 99)}, max ${Math.max(...lags)} (goal: <= 2 at p99)` +
      (failedSamples.length > 0
        ? `; ${failedSamples.length} of ${lags.length + failedSamples.length} samples failed, e.g. ${failedSamples[0]}`
        : ''),
  );
  console.log(
    `  process CPU (follower, index threads, HTTP of this load on both sides: sends and polls): ${(cpuMs / Math.max(1, transactions)).toFixed(2)} ms per transaction`,
  );
  const fromBlocks = chain.follower.stats.accountsFromBlocks - followerBefore.accountsFromBlocks;
  const queried = chain.follower.stats.accountsQueried - followerBefore.accountsQueried;
  console.log(`  touched accounts: ${fromBlocks} read from their block's state update, ${queried} asked of the liteserver`);

  // Back-fill: a second tongate indexes the same blocks from --index-from.
  const backfillPort = await freePort();
  const second = await startTongate(
    loadConfig({
      flags: {
        ephemeral: true,
        logLevel: 'silent',
        access: 'off',
        network: [`mainnet=http://127.0.0.1:${backfillPort}`],
        backend: ['mainnet=lite'],
        liteConfig: [`mainnet=${node.globalConfigFile}`],
        indexFrom: [`mainnet=${firstSeqno}`],
      },
      env: {},
    }),
    { logger: pino({ level: 'silent' }) },
  );
  const v3b = `http://127.0.0.1:${backfillPort}/api/v3`;
  // The index's threads start with its first block (and, run from the sources, compile their TypeScript): the
  // rate and the CPU are measured from the first block written to the last.
  let firstWritten = firstSeqno;
  await waitFor(
    "the back-fill's first block",
    async () => {
      const info = await json(`${v3b}/masterchainInfo`);
      firstWritten = info.last?.seqno;
      return info.first?.seqno === firstSeqno;
    },
    120_000,
    20,
  );
  const backfillCpu = process.cpuUsage();
  const started = performance.now();
  await waitFor(
    'the back-fill',
    async () => ((await json(`${v3b}/blocks?workchain=-1&seqno=${lastSeqno}`)).blocks ?? []).length === 1,
    600_000,
    20,
  );
  const backfillS = (performance.now() - started) / 1000;
  const backfillCpuMs = (() => {
    const c = process.cpuUsage(backfillCpu);
    return (c.user + c.system) / 1000;
  })();
  let backfilled = 0;
  for (let seqno = firstWritten + 1; seqno <= lastSeqno; seqno++) backfilled += perBlock.get(seqno) ?? 0;
  console.log(
    `  back-fill (--index-from ${firstSeqno}) of those blocks: ${(backfilled / backfillS).toFixed(0)} transactions/s ` +
      `(${backfilled} transactions of blocks ${firstWritten + 1}..${lastSeqno} in ${backfillS.toFixed(1)} s), ` +
      `process CPU ${(backfillCpuMs / Math.max(1, backfilled)).toFixed(2)} ms per transaction (the follower and index alone: no HTTP load)`,
  );
  await second.stop();

  // The follower alone, in this thread, on the same blocks: a fresh lite chain (nothing kept) reads each one as the
  // index would, the touched accounts' states from their blocks' state updates, then with a proven read for each
  // (what the follower did before): CPU per transaction of each, and the ratio.
  const cost: Record<string, { cpuMs: number; s: number }> = {};
  for (const statesFrom of ['blocks', 'proofs'] as const) {
    const fresh = await LiteChain.open({
      network: 'mainnet',
      globalConfig: parseGlobalConfig(JSON.parse(readFileSync(node.globalConfigFile, 'utf8'))),
      clock: systemClock,
      follower: { statesFrom, readAhead: 0 },
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let seqno = firstSeqno; seqno <= lastSeqno; seqno++) await fresh.feedBlock(seqno);
    const c = process.cpuUsage(cpu0);
    cost[statesFrom] = { cpuMs: (c.user + c.system) / 1000, s: (performance.now() - t0) / 1000 };
    await fresh.stop();
  }
  const perTx = (k: string) => cost[k].cpuMs / Math.max(1, transactions);
  console.log(
    `  the follower alone (this thread, blocks ${firstSeqno}..${lastSeqno} read one at a time, nothing kept): ` +
      `states from the blocks ${perTx('blocks').toFixed(3)} ms CPU per transaction (${(transactions / cost.blocks.s).toFixed(0)} tx/s), ` +
      `a proven read per account ${perTx('proofs').toFixed(3)} ms (${(transactions / cost.proofs.s).toFixed(0)} tx/s): ${(perTx('proofs') / perTx('blocks')).toFixed(1)}x less CPU`,
  );
}
