/**
 * `npm run bench:token-relay`: what one token-detection get-method costs the local chain's MAIN thread (the
 * thread that also produces blocks and serves HTTP), measured alone.
 *
 * The index's store thread asks for get-methods over a port; the main thread relays each one to the chain
 * (src/index/tokens/get-methods.ts serveGetMethod -> LocalChain.runGetMethod): it reads the account as of the
 * block's masterchain seqno, hands code/data/PREVBLOCKSINFO to an emulator read worker, and passes the result
 * stack back. This bench replays what detection asks after each block of bench:tokens' jetton transfers (its
 * chain without the NFT mints), at masterchain seqnos behind the head (the index lags the producer): per sealed
 * block, get_wallet_data on every jetton wallet that block changed, all at once (as the detector does), and the
 * master's get_wallet_address for a few owners. It prints the main thread's busy time per call (event-loop
 * utilization; the TVM runs elsewhere), median and spread over several passes.
 *
 * And what those get-methods cost the emulator read workers (CPU of the nice-0 threads other than the main
 * thread: support/thread-cpu.ts), asked as detection asks them (a block's calls all at once: a read worker
 * runs those queued behind each other in one emulator call, src/chain/emulator/get-method-batch.ts) against the
 * same calls asked one at a time (each runs alone, as every call did before), passes alternating.
 *
 *   BENCH_WALLETS (40), BENCH_ROUNDS (6: blocks of history), BENCH_PASSES (7)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { beginCell, serializeTuple } from '@ton/core';
import { serveGetMethod } from '../src/index/tokens/get-methods.js';
import { openTokenChain } from './support/token-chain.js';
import { threadCpu, threadCpuSince } from './support/thread-cpu.js';

const WALLETS = Number(process.env.BENCH_WALLETS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PASSES = Number(process.env.BENCH_PASSES ?? 7);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  console.log(`bench:token-relay — ${WALLETS} jetton wallets, ${ROUNDS} rounds of transfers, ${PASSES} passes; load ${load()}`);
  const { chain, clock, master, owners, jettonWallets, sendRound } = await openTokenChain({ wallets: WALLETS });
  const firstSeqno = chain.masterchainInfo().last.id.seqno + 1;
  for (let r = 0; r < ROUNDS; r++) {
    clock.advance(1000);
    await sendRound(r);
    await chain.produceBlock();
    await chain.produceBlock();
  }
  // One more block, so even the newest seqno asked is behind the head (a history read, as when the index lags).
  await chain.produceBlock();
  const head = chain.masterchainInfo().last.id.seqno;
  const raw = (a: { toRawString(): string }) => a.toRawString();
  const relay = (address: string, method: string, stack: Uint8Array | null, mcSeqno: number) =>
    serveGetMethod(chain.runGetMethod.bind(chain), { getMethod: { id: 0, address, method, stack, mcSeqno } });

  /** One block's asks: get_wallet_data of every wallet, and the master for a few owners (detection's cross-check). */
  const asksOf = (seqno: number) => [
    ...jettonWallets.map((w) => () => relay(raw(w), 'get_wallet_data', null, seqno)),
    ...owners
      .slice(0, 4)
      .map(
        (owner) => () =>
          relay(
            raw(master),
            'get_wallet_address',
            serializeTuple([{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }]).toBoc(),
            seqno,
          ),
      ),
  ];
  const check = (a: Awaited<ReturnType<typeof relay>>) => {
    if (a.getMethodResult.error !== undefined || a.getMethodResult.exitCode !== 0)
      throw new Error(`relay: ${JSON.stringify(a.getMethodResult)}`);
  };

  const perCall: number[] = [];
  const workerCpu = { burst: [] as number[], single: [] as number[] };
  let calls = 0;
  for (let pass = 0; pass < PASSES * 2; pass++) {
    const burst = pass % 2 === 0;
    const elu = performance.eventLoopUtilization();
    const cpu = threadCpu();
    let n = 0;
    for (let seqno = firstSeqno; seqno < head; seqno++) {
      const asks = asksOf(seqno);
      if (burst) {
        const answers = await Promise.all(asks.map((ask) => ask()));
        answers.forEach(check);
      } else {
        for (const ask of asks) check(await ask());
      }
      n += asks.length;
    }
    const readWorkers = threadCpuSince(cpu, threadCpu())?.other;
    if (readWorkers !== undefined) workerCpu[burst ? 'burst' : 'single'].push(readWorkers / n);
    if (burst) perCall.push(performance.eventLoopUtilization(elu).active / n);
    calls = n;
  }
  await chain.stop();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  if (workerCpu.burst.length > 0) {
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}`;
    console.log(
      `read workers' CPU per get-method: a block's calls at once ${median(workerCpu.burst).toFixed(2)} ms (${range(workerCpu.burst)}), one at a time ${median(workerCpu.single).toFixed(2)} ms (${range(workerCpu.single)})`,
    );
    console.log(`  at once / one at a time: ${(median(workerCpu.burst) / median(workerCpu.single)).toFixed(2)}`);
  }
  const sorted = [...perCall].sort((a, b) => a - b);
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  console.log(
    `  ${calls} calls per pass at ${head - firstSeqno} masterchain seqnos behind the head; per pass: ${perCall.map(us).join(', ')}`,
  );
  console.log(
    `main thread busy per relayed get-method: ${us(sorted[Math.floor(sorted.length / 2)])} (${us(sorted[0])}..${us(sorted.at(-1)!)}); load ${load()}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
