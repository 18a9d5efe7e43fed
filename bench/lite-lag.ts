/**
 * `npm run bench:lite-lag`: the live index's lag at mainnet's pace, on a basechain of 4 shards, while wallets send.
 *
 * The network is ../shared/ton-node-simplex (TONGATE_TON_NETWORK=ton-node-simplex, set by the npm script), started
 * fresh with TON_SPLIT=2 (the basechain splits by itself into 4 shards in its first minute) and a Simplex target
 * rate of 400 ms (TON_SIMPLEX_TARGET_RATE_MS: 2.5 masterchain blocks a second, mainnet's pace, each with its shard
 * blocks). One tongate in this process (`--backend mainnet=lite`, access off) follows it and indexes every block.
 *
 * Once the basechain has 4 shards, `--wallets` wallets (default 200, spread over the shards by their addresses)
 * send a transfer each, all at once, `--rounds` times (default 5; a round starts when the previous one landed).
 * During the load, every 100 ms:
 *
 *   lag        the network's newest masterchain block (asked of its liteserver directly, not through tongate)
 *              minus the newest block tongate has indexed: p50 / p99 / max per round and overall (goal: p99 <= 2)
 *   lag (own)  tongate's own index_lag_blocks (its proven head minus its indexed block)
 *   HTTP       the round trip of a v2 getMasterchainInfo to tongate
 *
 * per block, the time from its head being proven to its being indexed (until the index held its feed, then its
 * write), and the event loop's delay over the whole load (perf_hooks.monitorEventLoopDelay): a head's proof, a block's
 * parse or an index write that held the thread would show there. The machine's load average (os.loadavg) before
 * and after is printed with the figures.
 *
 * Before the load, `--idle-seconds` (default 20) of following alone: the network's rate, the head proofs' check time
 * on this thread and the event loop's delay with nothing else to do (what a new head itself costs the HTTP thread).
 *
 * Flags: --wallets N (<= 255), --rounds N, --target-rate-ms N (default 400), --idle-seconds N.
 */
import { cpus, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano, type Cell } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import type { LiteChain } from '../src/chain/lite/index.js';
import { genesisTransfer, requireTonNode, TON_NETWORK } from '../test/support/ton-node.js';
import { numberArg } from './support/args.js';
import { startLiteTongate } from './support/lite-tongate.js';

const walletCount = Math.min(255, numberArg('wallets', 200));
const rounds = numberArg('rounds', 5);
const targetRateMs = numberArg('target-rate-ms', 400);

if (!requireTonNode()) process.exit(0);
if (TON_NETWORK !== 'ton-node-simplex')
  console.log(`# ${TON_NETWORK}: not the Simplex network, so not at mainnet's pace (run it with npm run bench:lite-lag)`);
const loadBefore = loadavg();
const { node, running, port } = await startLiteTongate({ split: 2, simplexTargetRateMs: targetRateMs });
const network = running.networks[0];
const chain = network.chain as LiteChain;
const v2 = `http://127.0.0.1:${port}/api/v2`;

// The network's own head, asked of its liteserver directly: the lag is measured against the network, not against
// tongate's (proven) idea of it.
const engine = new LiteSingleEngine({
  host: `tcp://127.0.0.1:${node.liteserver.port}`,
  publicKey: Buffer.from(node.liteserver.publicKeyBase64, 'base64'),
});
engine.on('error', () => undefined);
const direct = new LiteClient({ engine });
while (!engine.isReady()) await new Promise((r) => setTimeout(r, 50));
const networkHead = async () => (await direct.getMasterchainInfo()).last.seqno;
const indexedSeqno = () => chain.masterchainInfo().last.id.seqno - network.indexLag!();

async function json(path: string, body?: unknown): Promise<any> {
  const response = await fetch(
    `${v2}/${path}`,
    body === undefined ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return response.json();
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const externalBoc = (to: Address, body: Cell, init?: { code: Cell; data: Cell }) =>
  beginCell()
    .store(storeMessage(external({ to, body, init })))
    .endCell()
    .toBoc()
    .toString('base64');
const balance = async (a: Address) => BigInt((await json(`getAddressBalance?address=${a.toRawString()}`)).result ?? 0);
const seqnoOf = async (a: Address) => {
  const r = await json('runGetMethod', { address: a.toRawString(), method: 'seqno', stack: [] });
  return r.ok && r.result.exit_code === 0 ? Number(BigInt(r.result.stack[0][1])) : -1;
};
const shardsAtHead = async () => (await json(`shards?seqno=${chain.masterchainInfo().last.id.seqno}`)).result.shards.length as number;

await waitFor('4 shards', async () => (await shardsAtHead()) === 4);

// Senders funded by one v5 wallet (itself funded from the genesis wallet) in a single transfer.
const hubKey = keyPairFromSeed(randomBytes(32));
const hub = WalletContractV5R1.create({ publicKey: hubKey.publicKey, walletId: { networkGlobalId: chain.globalId } });
await json('sendBoc', {
  boc: genesisTransfer(
    node,
    await seqnoOf(node.genesisAddress),
    internal({ to: hub.address, value: toNano(100_000), bounce: false }),
  ).toString('base64'),
});
await waitFor('the hub wallet to be funded', async () => (await balance(hub.address)) > 0n);
const senders = Array.from({ length: walletCount }, () => {
  const key = keyPairFromSeed(randomBytes(32));
  return { key, wallet: WalletContractV4.create({ workchain: 0, publicKey: key.publicKey }) };
});
const pay = hub.createTransfer({
  seqno: 0,
  secretKey: hubKey.secretKey,
  sendMode: SendMode.PAY_GAS_SEPARATELY,
  messages: senders.map((s) => internal({ to: s.wallet.address, value: toNano(10), bounce: false })),
});
await json('sendBoc', { boc: externalBoc(hub.address, pay, hub.init) });
await waitFor('the senders to be funded', async () =>
  (await Promise.all(senders.map((s) => balance(s.wallet.address)))).every((b) => b > 0n),
);
const shardsOfSenders = new Set(senders.map((s) => s.wallet.address.hash[0] >> 6)).size;

// Signed before the measured window (ed25519 signing would hold this thread and count as tongate's delay).
const bocs: string[][] = [];
for (let round = 0; round < rounds; round++) {
  const signed: string[] = [];
  for (const s of senders) {
    const body = s.wallet.createTransfer({
      seqno: round,
      secretKey: s.key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: hub.address, value: toNano(0.01) })],
      // Valid for an hour (the default minute runs out before the last rounds, all signed now).
      timeout: Math.floor(Date.now() / 1000) + 3600,
    });
    signed.push(externalBoc(s.wallet.address, body, round === 0 ? s.wallet.init : undefined));
    await new Promise((resolve) => setImmediate(resolve));
  }
  bocs.push(signed);
}
await waitFor('the index to catch up before the load', async () => indexedSeqno() >= (await networkHead()));

interface Sample {
  round: number;
  lag: number;
  ownLag: number;
  httpMs: number;
}
const samples: Sample[] = [];
/** -1 while following alone, then the load's round. */
let round = -1;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    const started = performance.now();
    const [head] = await Promise.all([networkHead(), json('getMasterchainInfo')]);
    const httpMs = performance.now() - started;
    samples.push({ round, lag: Math.max(0, head - indexedSeqno()), ownLag: network.indexLag!(), httpMs });
    await new Promise((r) => setTimeout(r, 100));
  }
})();

// Where a block's time goes once tongate has proven it as a head: until it is indexed (checked every 10 ms).
const stages = new Map<number, { round: number; head: number; fed?: number; indexed?: number }>();
chain.onHead((n) => stages.set(n, { round, head: performance.now() }));
// When the index has a block's feed in hand (the follower's read done, and the index done with the one before), apart
// from its write.
const feedBlock = chain.follower.feedBlock.bind(chain.follower);
chain.follower.feedBlock = (n: number) =>
  feedBlock(n).then((fed) => {
    const st = stages.get(n);
    if (st && st.fed === undefined) st.fed = performance.now();
    return fed;
  });
const indexProbe = setInterval(() => {
  const last = indexedSeqno();
  for (const [n, st] of stages) if (n <= last && st.indexed === undefined) st.indexed = performance.now();
}, 10);

// Following alone first (no load): new heads proven, their blocks read and indexed; what that costs the thread.
const idleSeconds = numberArg('idle-seconds', 20);
const idleLoop = monitorEventLoopDelay({ resolution: 10 });
const idleTrust = { ...chain.trust.stats };
const idleFrom = await networkHead();
const idleStart = performance.now();
idleLoop.enable();
await new Promise((r) => setTimeout(r, idleSeconds * 1000));
idleLoop.disable();
const idleBlocks = (await networkHead()) - idleFrom;
const idleElapsed = (performance.now() - idleStart) / 1000;
const idleProofs = chain.trust.stats.queries - idleTrust.queries;
const idleCheckMs = chain.trust.stats.checkMs - idleTrust.checkMs;
const idleLags = samples.filter((x) => x.round === -1).map((x) => x.lag);
const loadTrust = { ...chain.trust.stats };

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const firstSeqno = await networkHead();
const loadStart = performance.now();
for (round = 0; round < rounds; round++) {
  const sent = await Promise.all(bocs[round].map((boc) => json('sendBoc', { boc })));
  const refused = sent.filter((r) => !r.ok);
  if (refused.length > 0)
    throw new Error(`round ${round + 1}: ${refused.length} sends refused, e.g. ${JSON.stringify(refused[0]).slice(0, 300)}`);
  const probes = [senders[0], senders[senders.length >> 1], senders[senders.length - 1]];
  const landed = async (group: typeof senders) =>
    (await Promise.all(group.map((s) => seqnoOf(s.wallet.address)))).every((n) => n === round + 1);
  await waitFor(`round ${round + 1} to land`, async () => (await landed(probes)) && (await landed(senders)));
}
const lastSeqno = await networkHead();
const loadSeconds = (performance.now() - loadStart) / 1000;
await waitFor('the index to catch up after the load', async () => indexedSeqno() >= lastSeqno);
loop.disable();
sampling = false;
await sampler;

// What the load was: masterchain blocks, shard blocks and transactions in the window (from the index).
const v3 = v2.replace('/api/v2', '/api/v3');
let shardBlocks = 0;
let transactions = 0;
for (let seqno = firstSeqno + 1; seqno <= lastSeqno; seqno++) {
  const blocks = ((await (await fetch(`${v3}/masterchainBlockShards?seqno=${seqno}&limit=256`)).json()).blocks ?? []) as {
    workchain: number;
    tx_count: number;
  }[];
  shardBlocks += blocks.filter((b) => b.workchain === 0).length;
  transactions += blocks.reduce((n, b) => n + b.tx_count, 0);
}
const loadAfter = loadavg();
clearInterval(indexProbe);
const stagesOf = (inLoad: boolean) =>
  [...stages.values()].filter((st) => st.indexed !== undefined && st.fed !== undefined && st.round >= 0 === inLoad);

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const mcBlocks = lastSeqno - firstSeqno;
console.log(
  `bench:lite-lag  ${TON_NETWORK}, target rate ${targetRateMs} ms, basechain of 4 shards (senders in ${shardsOfSenders} of them)`,
);
console.log(
  `load: ${walletCount} wallets x ${rounds} rounds in ${loadSeconds.toFixed(1)} s: masterchain ${firstSeqno + 1}..${lastSeqno} (${(mcBlocks / loadSeconds).toFixed(2)} blocks/s), ` +
    `${shardBlocks} shard blocks (${(shardBlocks / Math.max(1, mcBlocks)).toFixed(1)} per masterchain block), ${transactions} transactions`,
);
console.log('round   samples   lag p50 p99 max   own lag p99   HTTP p50 / p99 ms');
for (let r = 0; r < rounds; r++) {
  const s = samples.filter((x) => x.round === r);
  if (s.length === 0) continue;
  const lags = s.map((x) => x.lag);
  console.log(
    `${String(r + 1).padStart(5)}${String(s.length).padStart(10)}   ${String(pct(lags, 50)).padStart(7)}${String(pct(lags, 99)).padStart(4)}${String(Math.max(...lags)).padStart(4)}` +
      `${String(
        pct(
          s.map((x) => x.ownLag),
          99,
        ),
      ).padStart(14)}   ${pct(
        s.map((x) => x.httpMs),
        50,
      )
        .toFixed(1)
        .padStart(8)} / ${pct(
        s.map((x) => x.httpMs),
        99,
      ).toFixed(1)}`,
  );
}
const during = samples.filter((x) => x.round >= 0); // the catch-up after the last round included
const lags = during.map((x) => x.lag);
const perRound = Array.from({ length: rounds }, (_, r) => during.filter((x) => x.round === r).map((x) => x.lag))
  .filter((l) => l.length > 0)
  .map((l) => pct(l, 99));
console.log(
  `index lag behind the network (masterchain blocks, every 100 ms): p50 ${pct(lags, 50)}, p99 ${pct(lags, 99)} (rounds ${Math.min(...perRound)}..${Math.max(...perRound)}), max ${Math.max(...lags)} (goal: p99 <= 2)`,
);
const ms = (ns: number) => (ns / 1e6).toFixed(1);
for (const [what, inLoad] of [
  ['following alone', false],
  ['under load', true],
] as const) {
  const st = stagesOf(inLoad);
  if (st.length === 0) continue;
  const line = (values: number[]) => `p50 ${pct(values, 50).toFixed(0)} / p99 ${pct(values, 99).toFixed(0)} ms`;
  console.log(
    `from a proven head to its block indexed, ${what} (${st.length} blocks): ${line(st.map((x) => x.indexed! - x.head))}; ` +
      `of which until the index held its feed (read by the follower, or the index busy before) ${line(st.map((x) => x.fed! - x.head))}, then written ${line(st.map((x) => x.indexed! - x.fed!))}`,
  );
}
console.log(`event loop delay over the load: p50 ${ms(loop.percentile(50))} ms, p99 ${ms(loop.percentile(99))} ms, max ${ms(loop.max)} ms`);
const loadProofs = chain.trust.stats.queries - loadTrust.queries;
const loadCheckMs = chain.trust.stats.checkMs - loadTrust.checkMs;
console.log(
  `head proofs under load: ${loadProofs}, checked in ${(loadCheckMs / Math.max(1, loadProofs)).toFixed(2)} ms of this thread each (mean), ${chain.trust.stats.refused} refused`,
);
console.log(
  `following alone (${idleSeconds} s before the load): ${(idleBlocks / idleElapsed).toFixed(2)} masterchain blocks/s, ${idleProofs} head proofs checked in ` +
    `${(idleCheckMs / Math.max(1, idleProofs)).toFixed(2)} ms each (mean); index lag p50 ${pct(idleLags, 50)}, p99 ${pct(idleLags, 99)}, max ${Math.max(...idleLags)}; event loop delay p50 ${ms(idleLoop.percentile(50))} ms, p99 ${ms(idleLoop.percentile(99))} ms, max ${ms(idleLoop.max)} ms`,
);
console.log(
  `machine: ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after`,
);

engine.close();
await running.stop();
await node.stop();
process.exit(0);
