/**
 * `npm run bench:emulate`: what the Emulate API's `emulateTrace` of a jetton transfer costs, beside a plain
 * `runGetMethod` (get_wallet_data) on the same local chain and the same emulator read worker (calls one at a time:
 * a second read worker starts only while the first is busy).
 *
 * The chain: tongate's own TEP-74 jetton (src/contracts/jetton) minted to a v4 wallet. The message is that wallet's
 * signed jetton transfer to another owner with a forwarded notification (a trace of 5 transactions: the wallet,
 * its jetton wallet, the receiver's jetton wallet deployed, the notification, the excess back), emulated on the
 * last sealed block, never sent.
 * Per run, interleaved call by call so both see the same machine:
 *
 *   get-method    chain.runGetMethod(jetton wallet, 'get_wallet_data')
 *   trace         chain.emulateTrace(boc): the transactions only
 *   answer        chain.emulateTrace + the whole answer with actions (src/emulate/answer.ts: v3 JSON, classifier,
 *                 token detection on the emulated states), what POST /emulateTrace with_actions costs but HTTP
 *
 * then the same `answer` with BENCH_LOAD (4) callers at once (throughput and p50 under load). p50/p99 in ms; the
 * ratio trace/get-method and answer/get-method of each run; the load average of each run.
 *
 *   BENCH_RUNS (3), BENCH_CALLS (60 per kind per run), BENCH_LOAD (4)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { NetworkContext } from '../src/http/network-context.js';
import { emulateAnswer } from '../src/emulate/answer.js';
import { expandActionTypes } from '../src/index/actions/versions.js';
import { contractAddress, internal, toNano } from '@ton/core';
import { LocalChain } from '../src/chain/local/index.js';
import { onchainContent } from '../src/contracts/content.js';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../src/contracts/jetton/jetton.js';
import { ManualClock } from '../src/util/clock.js';
import { FAUCET_MNEMONIC, signedExternal, signer } from './support/token-chain.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CALLS = Number(process.env.BENCH_CALLS ?? 60);
const LOAD = Number(process.env.BENCH_LOAD ?? 4);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
};
const ms = (v: number) => v.toFixed(2);

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

async function main(): Promise<void> {
  console.log(`bench:emulate — ${RUNS} runs, ${CALLS} calls of each kind per run, ${LOAD} callers under load; load ${load()}`);
  const clock = new ManualClock();
  const chain = await LocalChain.open({ network: 'testnet', globalId: -3, faucetMnemonic: FAUCET_MNEMONIC, clock });
  const [admin, alice, bob] = [signer(51), signer(52), signer(53)];
  await Promise.all([chain.fund(admin.wallet.address, toNano('10')), chain.fund(alice.wallet.address, toNano('10')), chain.produceBlock()]);
  const validUntil = Math.floor(clock.now() / 1000) + 3600;
  const jettonInit = jettonMasterInit({
    admin: admin.wallet.address,
    content: onchainContent({ name: 'Bench', symbol: 'BNC', decimals: '9' }),
  });
  const master = contractAddress(0, jettonInit);
  const mint = mintBody({ to: alice.wallet.address, amount: 1000n, tonAmount: toNano('0.05'), response: admin.wallet.address });
  await chain.sendExternal(
    signedExternal(admin, 0, validUntil, [internal({ to: master, value: toNano('0.2'), body: mint, init: jettonInit })]),
  );
  await chain.sendExternal(signedExternal(alice, 0, validUntil, []));
  for (let i = 0; i < 8; i++) await chain.produceBlock();
  const aliceJetton = jettonWalletAddress(alice.wallet.address, master);
  const transfer = jettonTransferBody({
    to: bob.wallet.address,
    amount: 300n,
    response: alice.wallet.address,
    forwardTonAmount: toNano('0.05'),
  });
  const boc = signedExternal(alice, 1, validUntil, [internal({ to: aliceJetton, value: toNano('0.2'), body: transfer })]);
  const jettonWallets = [aliceJetton];
  const network = { name: 'testnet', chain, testOnly: true } as unknown as NetworkContext;
  const options = {
    withActions: true,
    includeCodeData: false,
    includeAddressBook: true,
    includeMetadata: false,
    supportedActionTypes: expandActionTypes([]),
  };
  const getMethod = () => Promise.resolve(chain.runGetMethod(jettonWallets[0], 'get_wallet_data', []));
  const trace = () => chain.emulateTrace(boc);
  const answer = async () => emulateAnswer(await chain.emulateTrace(boc), options, network);

  const first = (await answer()) as { transactions: object; actions: { type: string }[] };
  console.log(`the trace: ${Object.keys(first.transactions).length} transactions, actions ${first.actions.map((a) => a.type).join(', ')}`);
  // Warm-up: the workers, the emulator's compiled code, the JIT.
  for (let i = 0; i < 20; i++) await Promise.all([getMethod(), trace(), answer()].map((p) => p.then(() => undefined)));

  console.log('run | load avg | get-method p50/p99 | trace p50/p99 (ratio) | answer p50/p99 (ratio) | answer x' + LOAD + ' p50, per s');
  for (let run = 1; run <= RUNS; run++) {
    const samples = { get: [] as number[], trace: [] as number[], answer: [] as number[] };
    for (let i = 0; i < CALLS; i++) {
      samples.get.push(await timed(getMethod));
      samples.trace.push(await timed(trace));
      samples.answer.push(await timed(answer));
    }
    const loaded: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: LOAD }, async () => {
        for (let i = 0; i < CALLS / 2; i++) loaded.push(await timed(answer));
      }),
    );
    const perSecond = loaded.length / ((performance.now() - started) / 1000);
    const [g, tr, an, lo] = [summary(samples.get), summary(samples.trace), summary(samples.answer), summary(loaded)];
    console.log(
      `${run} | ${load()} | ${ms(g.p50)} / ${ms(g.p99)} | ${ms(tr.p50)} / ${ms(tr.p99)} (${(tr.p50 / g.p50).toFixed(1)}x) | ` +
        `${ms(an.p50)} / ${ms(an.p99)} (${(an.p50 / g.p50).toFixed(1)}x) | ${ms(lo.p50)}, ${perSecond.toFixed(0)}`,
    );
  }
  await chain.stop();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
