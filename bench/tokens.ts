/**
 * `npm run bench:tokens`: what token detection (src/index/tokens) costs, in one run, as ratios (issue 13,
 * section 5: block production with detection on vs off on a chain of jetton transfers and NFT mints at full
 * speed, and index ingestion of those token-heavy blocks).
 *
 * The local chain (bench/support/token-chain.ts) produces, every round, WALLETS jetton transfers
 * (test/api/v2/support/contracts.ts's fixture wallet and master: each changes one jetton wallet, so one
 * get_wallet_data, and the master's get_wallet_address the first time) and MINTS NFT items minted by
 * tongate's own collection (src/contracts/nft) in one batch (each new item: get_nft_data, the collection's
 * get_nft_address_by_index and get_nft_content; the collection's get_collection_data once per block), then
 * two blocks. The index is attached in both runs; the only difference is whether it can run get-methods (the
 * chain's runGetMethod handed over, or not: then nothing is detected). Runs alternate, medians are printed
 * with the spread.
 *
 * Timed: sending the round's external messages to the chain, producing the blocks, and (for ingestion) the
 * index catching up. Not timed: signing them. Every round's messages are signed before the clock starts
 * (each wallet's seqno is known in advance; valid_until is set on the chain's ManualClock, 60 s after the
 * time the round is sent at). Until 2026-11-25 (main at da5cd1f) the timed loop signed each message itself
 * (tweetnacl, ~7 ms of main thread each, ~2.4 s per run): client work that is the same with detection on and
 * off and pulled the ratios toward 1.0; and there were no NFT mints.
 *
 *   production  blocks sealed per second of wall time, with detection / without (issue 13: >= 0.90)
 *   ingestion   until the index held every block, with / without (issue 13: >= 0.80)
 *   CPU         CPU time per transaction of the whole process (every thread), with / without
 *   main        time the main thread (HTTP, block production, the get-method relay) was busy, with / without
 *               (event-loop utilization: wall time in callbacks, so it also grows when the thread is preempted)
 *   main CPU    the main thread's CPU time per transaction, with / without (Linux)
 * and, per pair, the get-methods detection asked (by method) and what each cost more, in CPU by thread group
 * (support/thread-cpu.ts: main, transaction workers, index threads with the emulator worker that runs the index's
 * get-methods at their priority, read workers with V8's helper threads).
 *
 * Before the timed pairs, BENCH_WARMUP untimed pairs (1) run the same work: the process-wide emulator pool starts the
 * worker that runs the index's get-methods at the first detection that needs it, and keeps it (as a tongate process
 * does for its lifetime). Without the warm-up the first "on" run paid that start (a thread, the emulator's WASM, the
 * code compiled) inside its timed part, and its ratio was the series' lowest every time (0.80-0.82 where the
 * pairs after it gave 0.85-0.98, 2026-11-26).
 *
 *   BENCH_WALLETS (40 jetton transfers per round), BENCH_MINTS (16 NFT items per round), BENCH_ROUNDS (8),
 *   BENCH_RUNS (3 on/off pairs), BENCH_WARMUP (1 untimed pair)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { LocalChain } from '../src/chain/local/index.js';
import { attachIndexToChain } from '../src/index/attach.js';
import type { IndexFeed } from '../src/index/feed.js';
import { openIndex } from '../src/index/open-index.js';
import { openTokenChain } from './support/token-chain.js';
import { THREAD_GROUPS, threadCpu, threadCpuSince, type ThreadGroup } from './support/thread-cpu.js';

const WALLETS = Number(process.env.BENCH_WALLETS ?? 40);
const MINTS = Number(process.env.BENCH_MINTS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
/** Chain time between rounds. */
const ROUND_MS = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const fmt = (n: number, digits = 2) => n.toFixed(digits);

interface Run {
  transactions: number;
  wallMs: number;
  indexedMs: number;
  cpuMs: number;
  /** Time the main thread (HTTP, producer, the get-method relay) was busy, until indexed. */
  mainMs: number;
  /** jetton_transfers rows, and NFT items, the index holds at the end. */
  detected: number;
  detectedItems: number;
  /** The get-methods detection asked, by method (counted from the start of the timed part). */
  asked: Map<string, number>;
  /** CPU ms by thread group (support/thread-cpu.ts) until indexed; null off Linux. */
  threads: Record<ThreadGroup, number> | null;
}

/** The chain as the index sees it, with or without the get-methods detection needs (counted by method into `asked`). */
function feedOf(chain: LocalChain, detection: boolean, asked: Map<string, number>): IndexFeed {
  return {
    onBlock: (listener) => chain.onBlock(listener),
    masterchainInfo: () => chain.masterchainInfo(),
    getBlock: (ref) => chain.getBlock(ref),
    shardsAt: (seqno) => chain.shardsAt(seqno),
    blockTransactions: (ref, query) => chain.blockTransactions(ref, query),
    getAccount: (address, seqno) => chain.getAccount(address, seqno),
    zeroStateAccounts: () => chain.zeroStateAccounts(),
    ...(detection
      ? {
          runGetMethod: (address, method, stack, seqno, options) => {
            asked.set(String(method), (asked.get(String(method)) ?? 0) + 1);
            return chain.runGetMethod(address, method, stack, seqno, options);
          },
        }
      : {}),
  };
}

async function produce(detection: boolean): Promise<Run> {
  const { chain, clock, signRound, send } = await openTokenChain({ wallets: WALLETS, mints: MINTS });
  const index = await openIndex({ network: 'testnet' });
  const asked = new Map<string, number>();
  const attachment = await attachIndexToChain(index, feedOf(chain, detection, asked));
  await attachment.synced();
  // The client's part, before the clock starts: round r is sent at the chain time start + (r + 1) * ROUND_MS.
  const chainStart = clock.now();
  const rounds = Array.from({ length: ROUNDS }, (_, r) => signRound(r, Math.floor((chainStart + (r + 1) * ROUND_MS) / 1000) + 60));

  const before = chain.masterchainInfo().last.id.seqno;
  const cpu = process.cpuUsage();
  const threadsBefore = threadCpu();
  const elu = performance.eventLoopUtilization();
  asked.clear();
  const started = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    clock.advance(ROUND_MS);
    await send(rounds[r]);
    await chain.produceBlock();
    await chain.produceBlock();
  }
  const wallMs = performance.now() - started;
  await attachment.synced();
  const indexedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const threads = threadCpuSince(threadsBefore, threadCpu());
  const mainMs = performance.eventLoopUtilization(elu).active;
  let transactions = 0;
  for (let s = before + 1; s <= chain.masterchainInfo().last.id.seqno; s++) {
    for (const id of await chain.shardsAt(s)) transactions += (await chain.getBlock(id))!.txCount;
  }
  const detected = (await index.reader.tokens.jettonTransfers({}, 'desc', { limit: 1000, offset: 0 })).length;
  const detectedItems = (await index.reader.nfts.items({}, { limit: 1000, offset: 0 })).length;
  await attachment.detach();
  await chain.stop();
  await index.close();
  return { transactions, wallMs, indexedMs, cpuMs: (used.user + used.system) / 1000, mainMs, detected, detectedItems, asked, threads };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${fmt(sorted[Math.floor(sorted.length / 2)])} (${fmt(sorted[0])}..${fmt(sorted.at(-1)!)})`;
}

async function main(): Promise<void> {
  console.log(
    `bench:tokens — ${WALLETS} jetton transfers and ${MINTS} NFT mints per block pair (signed before timing), ${ROUNDS} rounds, ` +
      `${WARMUP} untimed pair, then ${RUNS} alternating runs each; load ${load()}`,
  );
  const ratios = { production: [] as number[], ingestion: [] as number[], cpu: [] as number[], main: [] as number[] };
  /** Main thread CPU per transaction (not event-loop busy time), on / off. */
  const mainCpu: number[] = [];
  /** Detection's extra CPU per get-method (ms), by thread group. */
  const perCall = Object.fromEntries(THREAD_GROUPS.map((g) => [g, [] as number[]])) as Record<ThreadGroup, number[]>;
  for (let i = 0; i < WARMUP; i++) {
    await produce(false);
    await produce(true);
  }
  for (let i = 0; i < RUNS; i++) {
    const off = await produce(false);
    const on = await produce(true);
    if (off.detected !== 0 || on.detected === 0)
      throw new Error(`detection: ${on.detected} transfer rows with it, ${off.detected} without (expected some, none)`);
    if (MINTS > 0 && (off.detectedItems !== 0 || on.detectedItems === 0)) {
      throw new Error(`detection: ${on.detectedItems} NFT items with it, ${off.detectedItems} without (expected some, none)`);
    }
    ratios.production.push(off.wallMs / off.transactions / (on.wallMs / on.transactions));
    ratios.ingestion.push(off.indexedMs / off.transactions / (on.indexedMs / on.transactions));
    ratios.cpu.push(on.cpuMs / on.transactions / (off.cpuMs / off.transactions));
    ratios.main.push(on.mainMs / on.transactions / (off.mainMs / off.transactions));
    console.log(
      `  run ${i + 1}: off ${fmt(off.wallMs / off.transactions)} ms/tx sealed, ${fmt(off.indexedMs / off.transactions)} indexed, ${fmt(off.cpuMs / off.transactions)} CPU, ` +
        `${fmt(off.mainMs / off.transactions)} main thread; on ${fmt(on.wallMs / on.transactions)} / ${fmt(on.indexedMs / on.transactions)} / ${fmt(on.cpuMs / on.transactions)} / ` +
        `${fmt(on.mainMs / on.transactions)} (${on.detected} transfer rows, ${on.detectedItems} NFT items; ${on.transactions} tx); load ${load()}`,
    );
    // What the difference is spread over: the get-methods detection asked (the off run asks none).
    const calls = [...on.asked.values()].reduce((a, b) => a + b, 0);
    const extra = (per: (r: Run) => number) => ((per(on) - per(off)) * on.transactions) / calls;
    console.log(
      `    ${calls} get-methods (${[...on.asked].map(([m, n]) => `${n} ${m}`).join(', ')}): ` +
        `${fmt(extra((r) => r.cpuMs / r.transactions))} ms more CPU and ${fmt(extra((r) => r.mainMs / r.transactions))} ms more main thread busy each`,
    );
    if (on.threads && off.threads) {
      mainCpu.push(on.threads.main / on.transactions / (off.threads.main / off.transactions));
      for (const g of THREAD_GROUPS) perCall[g].push(extra((r) => r.threads![g] / r.transactions));
      console.log(
        `    CPU ms by thread, off / on: ${THREAD_GROUPS.map((g) => `${g} ${off.threads![g]} / ${on.threads![g]}`).join(', ')}; ` +
          `more per get-method: ${THREAD_GROUPS.map((g) => `${g} ${fmt(perCall[g].at(-1)!)}`).join(', ')}`,
      );
    }
  }
  console.log(`block production, detection on / off (rate ratio, target >= 0.90): ${summary(ratios.production)}`);
  console.log(`indexed, detection on / off (rate ratio, target >= 0.80):          ${summary(ratios.ingestion)}`);
  console.log(`CPU per transaction, on / off (all threads):                       ${summary(ratios.cpu)}`);
  console.log(`main thread busy per transaction, on / off:                        ${summary(ratios.main)}`);
  if (perCall.main.length > 0) {
    console.log(`main thread CPU per transaction, on / off:                         ${summary(mainCpu)}`);
    console.log(
      `detection's CPU per get-method by thread (ms; main, tx workers, index threads + their emulator worker, read workers + V8/libuv helpers): ${THREAD_GROUPS.map((g) => `${g} ${summary(perCall[g])}`).join(', ')}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
