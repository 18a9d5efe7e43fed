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
 * During the load, every 100 ms (bench/support/lag-meter.ts):
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
 * Before the load, `--idle-seconds` (default 20) of following alone: the network's rate, the head proofs' time
 * from answer to verdict and the event loop's delay with nothing else to do (what a new head itself costs the
 * HTTP thread).
 *
 * On this 2-core machine the validator itself is starved under the load and makes fewer blocks than its target
 * (1.1-2.2 a second), so the live run is not at mainnet's pace. `--replay` measures at exactly that pace instead:
 *
 *   1. record: the live run above, with tongate talking to the network's liteserver through a recorder
 *      (bench/support/liteserver-tape.ts, a child process) that keeps every answer by its query and every head's
 *      masterchain info, and after the run asks what a replayed tongate may ask that this one did not (head proofs
 *      from its key blocks, the config at each head, backward proofs of the blocks get-methods were pinned to).
 *      The run's sends and get-methods (the funding's and the load's) are kept in their batches (the calls made
 *      together), each with the network's head when it was made; a get-method with the block its answer was read
 *      at (balance polls, unpinned, are not kept). Its figures are printed as the
 *      recording run's. The tape is ~12 MB.
 *   2. replay (`--replays N` times, default 1): a fresh tongate (indexing from the block the live index started
 *      at) follows a stand-in liteserver (the same child, on loopback) serving the tape, which releases one
 *      masterchain block every `--pace-ms` (default the target rate, 400) by the clock, up to the last block of the
 *      load. Everything tongate checks is the real network's (blocks against their hashes, head proofs with their
 *      signatures), unchanged. The run's calls are made again, batch after batch, from the stand-in's process
 *      (clients are not in the server's process) once the network reaches the head they were made at (and the
 *      block after a poll's pinned block). The network's head is the clock's (start + elapsed / pace), not asked:
 *      asking would cost the measured thread. Also shown: a block's time from made to proven head. Queries not on
 *      the tape are answered "not ready" and counted (the first block's few account reads: the follower's retry a
 *      second later, before the measured window, needs none).
 *
 * Flags: --wallets N (<= 255), --rounds N, --target-rate-ms N (default 400), --idle-seconds N; --replay,
 * --replays N, --pace-ms N, --recording DIR (where the tape is kept: recorded there when DIR has none, replayed
 * from it when it has one; default a temporary directory removed at the end).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import type { LiteChain } from '../src/chain/lite/index.js';
import { LiteFollower } from '../src/chain/lite/follower.js';
import { requireTonNode, TON_NETWORK } from '../test/support/ton-node.js';
import { hasFlag, numberArg, stringArg } from './support/args.js';
import { LagMeter } from './support/lag-meter.js';
import { json, waitFor } from './support/http-json.js';
import { fundedSenders, sendRound, signedRounds } from './support/lite-senders.js';
import type { GoMessage } from './support/liteserver-tape.js';
import { liteConfigVia, startBenchNode, startTongateOn } from './support/lite-tongate.js';

const walletCount = Math.min(255, numberArg('wallets', 200));
const rounds = numberArg('rounds', 5);
const targetRateMs = numberArg('target-rate-ms', 400);
const idleSeconds = numberArg('idle-seconds', 20);
const paceMs = numberArg('pace-ms', targetRateMs);
const replays = numberArg('replays', 1);
const TAPE = fileURLToPath(new URL('./support/liteserver-tape.ts', import.meta.url));

/** A recording's run.json: where the live run's phases were, by the network's masterchain seqno. */
interface RunRecord {
  network: string;
  wallets: number;
  /** The first block the live index wrote (the replay's first head) and the last one of the load. */
  start: number;
  end: number;
  idle: { from: number; to: number };
  loadFrom: number;
  /** The head at which each round's sends began. */
  roundsAt: number[];
  calls: GoMessage['calls'];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startTape(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', TAPE, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function tapeMessage<T>(tape: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return;
      tape.off('message', onMessage);
      tape.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number) => reject(new Error(`liteserver-tape exited (${code}) before '${type}'`));
    tape.on('message', onMessage);
    tape.on('exit', onExit);
  });
}

/** The network's head asked of a liteserver directly (the lag is measured against the network, not tongate's idea of it). */
async function directHead(server: { port: number; publicKey: string }) {
  const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${server.port}`, publicKey: Buffer.from(server.publicKey, 'base64') });
  engine.on('error', () => undefined);
  const client = new LiteClient({ engine });
  while (!engine.isReady()) await sleep(50);
  return { head: async () => (await client.getMasterchainInfo()).last.seqno, close: () => engine.close() };
}

/** The live run; with `recordTo`, through a recorder that keeps the tape there. */
async function live(recordTo?: string): Promise<void> {
  const node = await startBenchNode({ split: 2, simplexTargetRateMs: targetRateMs });
  const liteserver = { port: node.liteserver.port, publicKey: node.liteserver.publicKeyBase64 };
  let tape: ChildProcess | undefined;
  let configFile = node.globalConfigFile;
  if (recordTo) {
    mkdirSync(recordTo, { recursive: true });
    tape = startTape(['record', recordTo, '127.0.0.1', String(liteserver.port), liteserver.publicKey]);
    const recorder = await tapeMessage<{ port: number; publicKey: string }>(tape, 'ready');
    copyFileSync(node.globalConfigFile, join(recordTo, 'global.config.json'));
    configFile = liteConfigVia(node.globalConfigFile, join(recordTo, 'via-recorder.config.json'), recorder);
  }
  // The first block the index asks the follower for: the replayed index starts there, its follower in the same state.
  let firstFed: number | undefined;
  const feedBlock = LiteFollower.prototype.feedBlock;
  LiteFollower.prototype.feedBlock = function (n: number) {
    firstFed ??= n;
    return feedBlock.call(this, n);
  };
  const { running, port } = await startTongateOn(configFile);
  const network = running.networks[0];
  const chain = network.chain as LiteChain;
  const direct = await directHead(liteserver);
  const calls: RunRecord['calls'] = [];
  const meter = new LagMeter({ chain, indexLag: network.indexLag!, v2: `http://127.0.0.1:${port}/api/v2`, networkHead: direct.head });
  const v2 = `http://127.0.0.1:${port}/api/v2`;
  // Calls made together (in one run of this thread: a Promise.all of them) are one batch; a replay makes a batch's
  // calls at once, and the next batch once they are answered, as here.
  let batch = 0;
  let batchOpen = false;
  /** A v2 call; kept for a replay when recording. */
  const call = async (path: string, body?: Record<string, unknown>): Promise<any> => {
    if (!batchOpen) {
      batch++;
      batchOpen = true;
      queueMicrotask(() => (batchOpen = false));
    }
    const [head, inBatch] = [meter.lastHead, batch];
    const answer = await json(`${v2}/${path}`, body);
    // Sends and get-methods (pinned to their block: see below) of every phase: a replay makes the same, so its
    // emulators have started before the load as here.
    if (recordTo && (path === 'sendBoc' || path === 'runGetMethod')) {
      // A seqno poll is made again at the block its answer was read at.
      const pinned = path === 'runGetMethod' && answer.ok ? { ...body, seqno: answer.result.block_id.seqno } : body;
      calls.push({ head, batch: inBatch, path, ...(pinned ? { body: pinned } : {}) });
    }
    return answer;
  };

  const balance = async (a: Address) => BigInt((await call(`getAddressBalance?address=${a.toRawString()}`)).result ?? 0);
  const seqnoOf = async (a: Address) => {
    const r = await call('runGetMethod', { address: a.toRawString(), method: 'seqno', stack: [] });
    return r.ok && r.result.exit_code === 0 ? Number(BigInt(r.result.stack[0][1])) : -1;
  };
  const shardsAtHead = async () => (await call(`shards?seqno=${chain.masterchainInfo().last.id.seqno}`)).result.shards.length as number;

  await waitFor('4 shards', async () => (await shardsAtHead()) === 4);

  // Senders funded by one v5 wallet (itself funded from the genesis wallet) in a single transfer.
  const { hub, senders } = await fundedSenders(node, chain.globalId, walletCount, {
    sendBoc: (boc) => call('sendBoc', { boc }),
    balance,
    seqno: seqnoOf,
  });
  const shardsOfSenders = new Set(senders.map((s) => s.wallet.address.hash[0] >> 6)).size;

  // Valid for an hour: the default minute runs out before the last rounds, all signed now.
  const bocs = await signedRounds(senders, rounds, hub.address, 3600);
  await waitFor('the index to catch up before the load', async () => meter.indexedSeqno() >= (await direct.head()));

  // Following alone first (no load): new heads proven, their blocks read and indexed; what that costs the thread.
  const endIdle = await meter.idle();
  await sleep(idleSeconds * 1000);
  const idle = await endIdle();

  const endLoad = await meter.load();
  const roundsAt: number[] = [];
  for (let round = 0; round < rounds; round++) {
    meter.round = round;
    roundsAt.push(await direct.head());
    await sendRound(round, bocs[round], senders, { send: (boc) => call('sendBoc', { boc }), seqno: seqnoOf });
  }
  meter.round = rounds;
  const load = await endLoad();
  await waitFor('the index to catch up after the load', async () => meter.indexedSeqno() >= load.to);
  await meter.stop();

  let title = `bench:lite-lag  ${TON_NETWORK}, live, target rate ${targetRateMs} ms, basechain of 4 shards (senders in ${shardsOfSenders} of them), ${walletCount} wallets x ${rounds} rounds`;
  if (recordTo && tape) {
    const start = firstFed!;
    const record: RunRecord = {
      network: TON_NETWORK,
      wallets: walletCount,
      start,
      end: load.to,
      idle,
      loadFrom: load.from,
      roundsAt,
      calls,
    };
    const pinned = calls.flatMap((c) => (typeof c.body?.seqno === 'number' ? [c.body.seqno] : []));
    tape.send({ type: 'save', start, end: load.to, pinned });
    const saved = await tapeMessage<{ answers: number; heads: number; missingHeads: number; asked: number; bytes: number }>(tape, 'saved');
    writeFileSync(join(recordTo, 'run.json'), JSON.stringify(record));
    title +=
      ` (recording run, through the recorder: masterchain ${start}..${load.to}, ${saved.answers} answers and ${saved.heads} heads on tape ` +
      `(${saved.missingHeads} heads not seen), ${saved.asked} queries asked after the run, ${(saved.bytes / 2 ** 20).toFixed(1)} MiB)`;
  }
  await meter.report(title, rounds);
  direct.close();
  await running.stop();
  tape?.kill();
  await node.stop();
}

/** One replay of the tape in `dir`. */
async function replay(dir: string, run: number): Promise<void> {
  const record = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord;
  const tape = startTape(['replay', dir, String(record.start), String(record.end)]);
  const standIn = await tapeMessage<{ port: number; publicKey: string }>(tape, 'ready');
  const configFile = liteConfigVia(join(dir, 'global.config.json'), join(dir, 'via-tape.config.json'), standIn);
  const { running, port } = await startTongateOn(configFile, record.start);
  const network = running.networks[0];
  const chain = network.chain as LiteChain;
  const v2 = `http://127.0.0.1:${port}/api/v2`;
  const go: GoMessage = { type: 'go', paceMs, v2, calls: record.calls };
  tape.send(go);
  const { at } = await tapeMessage<{ at: number }>(tape, 'started');
  // The network's head by the clock (the stand-in releases by it; how late it ever was is reported): asking it
  // would cost this thread, the one measured, a query every time.
  const head = () => Math.min(record.end, record.start + Math.floor((Date.now() - at) / paceMs));
  const untilHead = async (seqno: number) => {
    while (head() < seqno) await sleep(Math.max(1, at + (seqno - record.start) * paceMs - Date.now()));
  };
  const meter = new LagMeter({
    chain,
    indexLag: network.indexLag!,
    v2,
    networkHead: async () => head(),
    madeAt: (seqno) => at + (seqno - record.start) * paceMs,
  });

  await untilHead(record.idle.from);
  const endIdle = await meter.idle();
  await untilHead(record.idle.to);
  await endIdle();
  await untilHead(record.loadFrom);
  const endLoad = await meter.load();
  for (let round = 0; round < rounds; round++) {
    await untilHead(record.roundsAt[round]);
    meter.round = round;
  }
  await untilHead(record.end);
  meter.round = rounds;
  await endLoad();
  await waitFor('the index to catch up after the load', async () => meter.indexedSeqno() >= record.end);
  await meter.stop();
  tape.send({ type: 'stats' });
  const stats = await tapeMessage<{
    served: number;
    misses: number;
    missed: Record<string, number>;
    lateMs: number;
    cpuMs: number;
    calls: number;
    failedCalls: number;
    failed: string[];
  }>(tape, 'stats');
  const missed = Object.entries(stats.missed).sort((a, b) => b[1] - a[1]);
  await meter.report(
    `bench:lite-lag --replay (${run + 1} of ${replays}): ${record.network} recorded, ${record.wallets} wallets x ${rounds} rounds, masterchain ${record.start}..${record.end} ` +
      `released every ${paceMs} ms (the stand-in's CPU ${(stats.cpuMs / 1000).toFixed(1)} s, a block out ${stats.lateMs.toFixed(0)} ms late at worst); ` +
      `${stats.calls} HTTP calls of the load made again from the stand-in's process (${stats.failedCalls} failed${stats.failed.length > 0 ? `: ${stats.failed.join('; ')}` : ''}); ${stats.served} answers from the tape, ${stats.misses} queries not on it` +
      (missed.length > 0
        ? ` (${missed
            .slice(0, 8)
            .map(([what, n]) => `${n} ${what}`)
            .join(', ')})`
        : ''),
    rounds,
  );
  await running.stop();
  tape.send({ type: 'stop' });
  await new Promise((resolve) => tape.once('exit', resolve));
}

if (!hasFlag('replay')) {
  if (!requireTonNode()) process.exit(0);
  if (TON_NETWORK !== 'ton-node-simplex')
    console.log(`# ${TON_NETWORK}: not the Simplex network, so not at mainnet's pace (run it with npm run bench:lite-lag)`);
  await live();
} else {
  const kept = stringArg('recording');
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'tongate-lite-lag-'));
  if (!existsSync(join(dir, 'run.json'))) {
    if (!requireTonNode()) process.exit(0);
    await live(dir);
  }
  for (let run = 0; run < replays; run++) await replay(dir, run);
  if (!kept) rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
