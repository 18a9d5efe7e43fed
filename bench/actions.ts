/**
 * `npm run bench:actions`: what classifying actions (src/index/actions) costs, in one run:
 *
 *   classification / production  the CPU the classification of the traces a run produced takes, over the CPU the
 *                                chain took to produce them at full speed (issue 26: <= 10 %)
 *   back-fill rate               traces per second an index upgraded to actions is classified at (its throttle on)
 *
 * The local chain (bench/support/action-chain.ts) produces, every round, one external message from each of
 * WALLETS wallets carrying a jetton transfer of tongate's own TEP-74 jetton and a TON transfer with a comment (a
 * trace of six transactions: two actions and their transactions), then two blocks, ROUNDS rounds, with the index
 * attached as a tongate runs it (its threads, token detection through the chain's get-methods, actions classified as
 * traces complete). Production CPU
 * is that of the threads that produce blocks (support/thread-cpu.ts: the main thread and the transaction workers)
 * while the rounds are sent and sealed; messages are signed before.
 *
 * Classification CPU is measured apart, on the same traces once the chain and the index are idle (the index thread
 * runs it at nice 15 among other work, where its own CPU cannot be told from rendering and detection): the step the
 * store thread runs per group (group-actions.ts: the traces' transactions and messages gathered, the token
 * contracts looked up, the classifier, the rows), read from the store (a little more than live, where most of a
 * completed trace is still in the group's memory), and the classifier alone on inputs already gathered. Each
 * repeated BENCH_REPEAT times, the median kept. The back-fill: the run's index with its actions taken away and the
 * cursor row put back, back-filled BENCH_REPEAT times (its throttle on: after each group it pauses as long as the
 * group took).
 *
 *   BENCH_WALLETS (40), BENCH_ROUNDS (8), BENCH_RUNS (3), BENCH_REPEAT (5)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { attachIndexToChain } from '../src/index/attach.js';
import { openIndex } from '../src/index/open-index.js';
import { actionBatches } from '../src/index/actions/action-rows.js';
import { backfillActions } from '../src/index/actions/backfill.js';
import { classifyTrace } from '../src/index/actions/classify.js';
import { classifyTraces } from '../src/index/actions/classify-traces.js';
import { ACTIONS_BACKFILL, ACTION_TABLES } from '../src/index/actions/schema.js';
import { knownContracts, traceInputs } from '../src/index/actions/trace-source.js';
import { SqliteDriver } from '../src/index/sql/sqlite-driver.js';
import { traceRowOf } from '../src/index/traces/trace-row.js';
import { openActionChain } from './support/action-chain.js';
import { threadCpu, threadCpuSince } from './support/thread-cpu.js';

const WALLETS = Number(process.env.BENCH_WALLETS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const ROUND_MS = 1000;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const spread = (values: number[], digits = 2) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}..${fmt(Math.max(...values), digits)})`;

/** CPU ms of this whole process spent in `work` (everything else is idle while it runs). */
async function cpuOf(work: () => Promise<unknown> | unknown): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

interface Run {
  traces: number;
  transactions: number;
  productionMs: number;
  /** The group step, read from the store (ms of CPU for all the run's traces). */
  stepMs: number;
  /** The classifier alone. */
  classifierMs: number;
  actions: Map<string, number>;
  backfill: { traces: number; seconds: number; cpuMs: number };
}

async function run(): Promise<Run> {
  const { chain, clock, signRound, send } = await openActionChain(WALLETS);
  const index = await openIndex({ network: 'testnet' });
  const attachment = await attachIndexToChain(index, chain);
  await attachment.synced();
  const chainStart = clock.now();
  const rounds = Array.from({ length: ROUNDS }, (_, r) => signRound(r, Math.floor((chainStart + (r + 1) * ROUND_MS) / 1000) + 60));
  const [{ lt }] = await index.reads.all('SELECT COALESCE(MAX(end_lt), 0) AS lt FROM blocks');
  const fromLt = BigInt(lt as bigint | number);

  const threadsBefore = threadCpu();
  for (let r = 0; r < ROUNDS; r++) {
    clock.advance(ROUND_MS);
    await send(rounds[r]);
    await chain.produceBlock();
    await chain.produceBlock();
  }
  const threads = threadCpuSince(threadsBefore, threadCpu());
  if (!threads) throw new Error('bench:actions needs /proc (Linux) to tell the producing threads apart');
  await attachment.synced();
  await attachment.detach();
  await chain.stop();

  const traces = (await index.reads.all(`SELECT * FROM traces WHERE start_lt > ? AND state = 'complete'`, [fromLt])).map(traceRowOf);
  const [{ n }] = await index.reads.all('SELECT COUNT(*) AS n FROM transactions WHERE lt > ?', [fromLt]);
  const actions = new Map<string, number>();
  for (const row of await index.reads.all('SELECT type, COUNT(*) AS n FROM actions WHERE trace_end_lt > ? GROUP BY type', [fromLt]))
    actions.set(String(row.type), Number(row.n));

  const steps: number[] = [];
  const classifier: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    steps.push(await cpuOf(async () => actionBatches(await classifyTraces(index.reads, traces))));
    const inputs = await traceInputs(index.reads, traces);
    const contracts = await knownContracts(
      index.reads,
      inputs.flatMap((t) => t.transactions.map((tx) => tx.account)),
    );
    classifier.push(await cpuOf(() => inputs.map((input) => classifyTrace(input, contracts))));
  }

  // The back-fill of this index as if it had been written before actions: its actions gone, the cursor row there.
  if (index.location.kind !== 'sqlite') throw new Error('bench:actions runs on SQLite');
  const driver = SqliteDriver.open(index.location.file, index.location.synchronous);
  const [{ n: all }] = await driver.all('SELECT COUNT(*) AS n FROM traces');
  let seconds = 0;
  let backfillCpu = 0;
  for (let i = 0; i < REPEAT; i++) {
    await driver.write(
      [],
      [
        ...ACTION_TABLES.map((t) => `DELETE FROM ${t}`),
        `INSERT INTO index_backfill_cursors (name, after_key) VALUES ('${ACTIONS_BACKFILL}', '')`,
      ],
    );
    const started = performance.now();
    backfillCpu += await cpuOf(() => backfillActions(driver, {}));
    seconds += (performance.now() - started) / 1000;
  }
  await driver.close();
  await index.close();
  return {
    traces: traces.length,
    transactions: Number(n),
    productionMs: threads.main + threads.tx,
    stepMs: median(steps),
    classifierMs: median(classifier),
    actions,
    backfill: { traces: Number(all) * REPEAT, seconds, cpuMs: backfillCpu },
  };
}

async function main(): Promise<void> {
  console.log(
    `bench:actions — ${WALLETS} wallets each sending a jetton transfer and a TON transfer per block pair, ${ROUNDS} rounds, ${RUNS} runs; load ${load()}`,
  );
  const shares: number[] = [];
  const classifierShares: number[] = [];
  const rates: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await run();
    for (const type of ['jetton_transfer', 'ton_transfer']) {
      const found = r.actions.get(type) ?? 0;
      if (found < WALLETS * ROUNDS) throw new Error(`expected ${WALLETS * ROUNDS} ${type} actions, the index classified ${found}`);
    }
    shares.push(r.stepMs / r.productionMs);
    classifierShares.push(r.classifierMs / r.productionMs);
    rates.push(r.backfill.traces / r.backfill.seconds);
    console.log(
      `  run ${i + 1}: ${r.traces} traces, ${r.transactions} transactions, actions ${[...r.actions].map(([t, k]) => `${k} ${t}`).join(', ')}; ` +
        `production ${fmt(r.productionMs, 0)} ms CPU (${fmt(r.productionMs / r.traces)} per trace), classification step ${fmt(r.stepMs, 1)} ms ` +
        `(${fmt((r.stepMs / r.traces) * 1000, 0)} us per trace; classifier alone ${fmt((r.classifierMs / r.traces) * 1000, 0)} us); ` +
        `back-fill ${r.backfill.traces} traces in ${fmt(r.backfill.seconds)} s, ${fmt(r.backfill.cpuMs, 0)} ms CPU; load ${load()}`,
    );
  }
  console.log(
    `classification CPU / block production CPU (target <= 10 %): ${spread(
      shares.map((s) => s * 100),
      1,
    )} %`,
  );
  console.log(
    `  of which the classifier alone:                             ${spread(
      classifierShares.map((s) => s * 100),
      1,
    )} %`,
  );
  console.log(`back-fill rate (traces/s, throttled to half a thread):       ${spread(rates, 0)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
