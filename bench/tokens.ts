/**
 * `npm run bench:tokens`: what token detection (src/index/tokens) costs, in one run, as ratios.
 *
 * The local chain produces a chain of jetton transfers at full speed: WALLETS owner wallets each send a
 * jetton `transfer` body to their own jetton wallet (test/v2/support/contracts.ts's fixture wallet and
 * master) every round, so every block changes WALLETS jetton wallets (each one get_wallet_data on the
 * wallet and get_wallet_address on the master) and holds WALLETS transfer rows. The index is attached in
 * both runs; the only difference is whether it can run get-methods (the chain's runGetMethod handed over,
 * or not: then nothing is detected). Runs alternate, medians are printed with the spread.
 *
 *   production  blocks sealed per second of wall time, with detection / without (issue 13: >= 0.90)
 *   ingestion   until the index held every block, with / without (issue 13: >= 0.80)
 *   CPU         CPU time per transaction of the whole process (every thread), with / without
 *   main        time the main thread (HTTP, block production, the get-method relay) was busy, with / without
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { beginCell, external, internal, SendMode, storeMessage, toNano, type Address } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { LocalChain } from '../src/chain/local/index.js';
import { attachIndexToChain } from '../src/index/attach.js';
import type { IndexFeed } from '../src/index/feed.js';
import { openIndex } from '../src/index/open-index.js';
import { ManualClock } from '../src/util/clock.js';
import { addressOf, compileContracts } from '../test/v2/support/contracts.js';

const WALLETS = Number(process.env.BENCH_WALLETS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FAUCET_MNEMONIC =
  'region sniff brass cake cave thank still hero chronic father maze leader eagle need surface orchard earn excite gravity forest seed auto polar hurt'.split(' ');

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const fmt = (n: number, digits = 2) => n.toFixed(digits);

interface Run {
  transactions: number;
  wallMs: number;
  indexedMs: number;
  cpuMs: number;
  /** Time the main thread (HTTP, producer, the get-method relay) was busy, until indexed. */
  mainMs: number;
  detected: number;
}

/** The chain as the index sees it, with or without the get-methods detection needs. */
function feedOf(chain: LocalChain, detection: boolean): IndexFeed {
  return {
    onBlock: (listener) => chain.onBlock(listener),
    masterchainInfo: () => chain.masterchainInfo(),
    getBlock: (ref) => chain.getBlock(ref),
    shardsAt: (seqno) => chain.shardsAt(seqno),
    blockTransactions: (ref, query) => chain.blockTransactions(ref, query),
    getAccount: (address, seqno) => chain.getAccount(address, seqno),
    zeroStateAccounts: () => chain.zeroStateAccounts(),
    ...(detection ? { runGetMethod: (address, method, stack, seqno) => chain.runGetMethod(address, method, stack, seqno) } : {}),
  };
}

function transferBody(queryId: number, to: Address): ReturnType<typeof beginCell> {
  return beginCell().storeUint(0x0f8a7ea5, 32).storeUint(queryId, 64).storeCoins(1n).storeAddress(to).storeAddress(to).storeBit(false).storeCoins(0n).storeBit(false);
}

async function produce(detection: boolean): Promise<Run> {
  const code = await compileContracts();
  const clock = new ManualClock();
  const chain = await LocalChain.open({ network: 'testnet', globalId: -3, faucetMnemonic: FAUCET_MNEMONIC, clock });
  const owners = Array.from({ length: WALLETS }, (_, i) => {
    const keys = keyPairFromSeed(Buffer.alloc(32, 100 + i));
    return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys, seqno: 0 };
  });
  const masterInit = {
    code: code.jettonMaster,
    data: beginCell().storeCoins(1_000_000n).storeAddress(owners[0].wallet.address).storeRef(beginCell().storeUint(1, 8).storeStringTail('https://x/j.json').endCell()).storeRef(code.jettonWallet).endCell(),
  };
  const master = addressOf(masterInit);
  const jettonWallets = owners.map((o) => {
    const init = { code: code.jettonWallet, data: beginCell().storeCoins(0).storeAddress(o.wallet.address).storeAddress(master).endCell() };
    return { init, address: addressOf(init) };
  });
  await Promise.all([...owners.map((o) => chain.fund(o.wallet.address, toNano('100'))), chain.produceBlock()]);
  const send = async (i: number, messages: ReturnType<typeof internal>[]) => {
    const o = owners[i];
    const body = o.wallet.createTransfer({ seqno: o.seqno, secretKey: o.keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
    const boc = beginCell().store(storeMessage(external({ to: o.wallet.address, body, init: o.seqno === 0 ? o.wallet.init : undefined }))).endCell().toBoc();
    o.seqno++;
    await chain.sendExternal(boc);
  };
  // Deploys: the master (by the first owner) and each owner's jetton wallet, minted 1000.
  for (let i = 0; i < WALLETS; i++) {
    const deploys = [internal({ to: jettonWallets[i].address, value: toNano('0.5'), bounce: false, init: jettonWallets[i].init, body: beginCell().storeCoins(1000n).endCell() })];
    if (i === 0) deploys.push(internal({ to: master, value: toNano('0.5'), bounce: false, init: masterInit }));
    await send(i, deploys);
  }
  await chain.produceBlock();
  await chain.produceBlock();
  const index = await openIndex({ network: 'testnet' });
  const attachment = await attachIndexToChain(index, feedOf(chain, detection));
  await attachment.synced();

  const before = chain.masterchainInfo().last.id.seqno;
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  const started = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    clock.advance(1000);
    for (let i = 0; i < WALLETS; i++) {
      await send(i, [internal({ to: jettonWallets[i].address, value: toNano('0.05'), body: transferBody(r, owners[(i + 1) % WALLETS].wallet.address).endCell() })]);
    }
    await chain.produceBlock();
    await chain.produceBlock();
  }
  const wallMs = performance.now() - started;
  await attachment.synced();
  const indexedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const mainMs = performance.eventLoopUtilization(elu).active;
  let transactions = 0;
  for (let s = before + 1; s <= chain.masterchainInfo().last.id.seqno; s++) {
    for (const id of await chain.shardsAt(s)) transactions += (await chain.getBlock(id))!.txCount;
  }
  const detected = (await index.reader.tokens.jettonTransfers({}, 'desc', { limit: 1000, offset: 0 })).length;
  await attachment.detach();
  await chain.stop();
  await index.close();
  return { transactions, wallMs, indexedMs, cpuMs: (used.user + used.system) / 1000, mainMs, detected };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${fmt(sorted[Math.floor(sorted.length / 2)])} (${fmt(sorted[0])}..${fmt(sorted.at(-1)!)})`;
}

async function main(): Promise<void> {
  console.log(`bench:tokens — ${WALLETS} jetton transfers per block pair, ${ROUNDS} rounds, ${RUNS} alternating runs each; load ${load()}`);
  const ratios = { production: [] as number[], ingestion: [] as number[], cpu: [] as number[], main: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const off = await produce(false);
    const on = await produce(true);
    if (off.detected !== 0 || on.detected === 0) throw new Error(`detection: ${on.detected} transfer rows with it, ${off.detected} without (expected some, none)`);
    ratios.production.push((off.wallMs / off.transactions) / (on.wallMs / on.transactions));
    ratios.ingestion.push((off.indexedMs / off.transactions) / (on.indexedMs / on.transactions));
    ratios.cpu.push((on.cpuMs / on.transactions) / (off.cpuMs / off.transactions));
    ratios.main.push((on.mainMs / on.transactions) / (off.mainMs / off.transactions));
    console.log(
      `  run ${i + 1}: off ${fmt(off.wallMs / off.transactions)} ms/tx sealed, ${fmt(off.indexedMs / off.transactions)} indexed, ${fmt(off.cpuMs / off.transactions)} CPU, ` +
        `${fmt(off.mainMs / off.transactions)} main thread; on ${fmt(on.wallMs / on.transactions)} / ${fmt(on.indexedMs / on.transactions)} / ${fmt(on.cpuMs / on.transactions)} / ` +
        `${fmt(on.mainMs / on.transactions)} (${on.detected} transfer rows); load ${load()}`,
    );
  }
  console.log(`block production, detection on / off (rate ratio, target >= 0.90): ${summary(ratios.production)}`);
  console.log(`indexed, detection on / off (rate ratio, target >= 0.80):          ${summary(ratios.ingestion)}`);
  console.log(`CPU per transaction, on / off (all threads):                       ${summary(ratios.cpu)}`);
  console.log(`main thread busy per transaction, on / off:                        ${summary(ratios.main)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
