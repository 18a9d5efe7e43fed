/**
 * `npm run bench:snapshots [-- --accounts A --max N --rounds R --postgres]`: what saving and restoring a devnet
 * snapshot cost as the chain grows (issue 14's goal: <= 200 ms each at 10k accounts and 100k transactions),
 * against a full copy of the chain store (`VACUUM INTO`, what a file-level snapshot would cost: the export).
 *
 * One local chain on disk (manual mining) with its v3 index attached and following (SQLite, or PostgreSQL in a
 * schema of its own with --postgres). A accounts (default 10,000) are created by state surgery, all one relay
 * contract that accepts any external and sends the internal message it carries; transactions come from
 * externals to random relays, each sending 0.01 TON to another relay (two transactions each), 1,000 per block.
 * At 1k, 10k and 100k transactions (up to --max), R rounds (default 5) of what a test suite does:
 *   save      chain.saveSnapshot (the store's marks and pending messages; the chain is in a sealed state)
 *   a test    10 externals sealed in a block (20 transactions), indexed
 *   restore   chain.restoreSnapshot: the store cut back, the chain's memory reset, the index rewound (awaited)
 * and once per size the export (VACUUM INTO + cut back), as the baseline. Wall time and this process's CPU time
 * (all its threads: the index's included; PostgreSQL's own CPU is not).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, contractAddress, external, internal, storeMessage, storeMessageRelaxed, toNano, type Cell } from '@ton/core';
import pg from 'pg';
import { LocalChain } from '../src/chain/local/index.js';
import { runIndex } from '../src/index/run-index.js';
import { TEST_MNEMONIC } from '../test/chain/local/support/local-chain.js';
import { compileFuncContract } from '../test/support/func.js';
import { POSTGRES_URL, uniqueName } from '../test/support/services.js';
import { hasFlag, numberArg } from './support/args.js';

const accounts = numberArg('accounts', 10_000);
const max = numberArg('max', 100_000);
const rounds = numberArg('rounds', 5);
const postgres = hasFlag('postgres');
const sizes = [1_000, 10_000, 100_000].filter((n) => n <= max);
const PER_BLOCK = 1_000;

const RELAY = `
() recv_internal(int balance, int value, cell full, slice body) impure { }
;; any external is accepted: 64 bits of nonce (a unique message), then the internal message to send
() recv_external(slice body) impure {
  accept_message();
  body~skip_bits(64);
  send_raw_message(body~load_ref(), 1);
}
`;

const dir = mkdtempSync(join(tmpdir(), 'tongate-bench-snapshots-'));
const schema = postgres ? uniqueName('tongate_bench_snap') : undefined;
const chain = await LocalChain.open({
  network: 'testnet',
  globalId: -3,
  faucetMnemonic: TEST_MNEMONIC,
  dataDir: join(dir, 'chain'),
  blockIntervalMs: 0,
});
const running = await runIndex({
  network: 'testnet',
  chain,
  ...(schema ? { databaseUrl: POSTGRES_URL, schema } : { dataDir: join(dir, 'index') }),
});

const code: Cell = await compileFuncContract('relay', RELAY);
const relays: Address[] = [];
const created: Promise<unknown>[] = [];
for (let i = 0; i < accounts; i++) {
  const data = beginCell().storeUint(i, 32).endCell();
  const address = contractAddress(0, { code, data });
  relays.push(address);
  created.push(chain.setAccount(address, { balance: toNano(1000), code, data }));
}
await Promise.all(created);

let nonce = 0n;
let transactions = 0;
const pick = () => relays[Math.floor(Math.random() * relays.length)];
function relayExternal(): Buffer {
  const send = beginCell()
    .store(storeMessageRelaxed(internal({ to: pick(), value: toNano('0.01'), bounce: false })))
    .endCell();
  const body = beginCell().storeUint(nonce++, 64).storeRef(send).endCell();
  return beginCell()
    .store(storeMessage(external({ to: pick(), body })))
    .endCell()
    .toBoc();
}

/** `count` externals (2 transactions each) in blocks of PER_BLOCK, indexed. */
async function grow(count: number): Promise<void> {
  for (let done = 0; done < count; done += PER_BLOCK) {
    const batch = Math.min(PER_BLOCK, count - done);
    await Promise.all(Array.from({ length: batch }, () => chain.sendExternal(relayExternal())));
    await chain.produceBlock();
    transactions += 2 * batch;
    if (transactions % 10_000 === 0) process.stderr.write(`  ${transactions} transactions\n`);
  }
  await running.attachment.synced();
}

async function timed(step: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await step();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number) => n.toFixed(1).padStart(7);

console.log(
  `bench:snapshots — ${accounts} accounts, ${rounds} rounds per size, index on ${postgres ? 'PostgreSQL' : 'SQLite'}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('transactions  save p50 (max) ms  cpu ms | restore p50 (max) ms  cpu ms | export ms | restore / export');
try {
  for (const size of sizes) {
    await grow((size - transactions) / 2);
    const save: { ms: number; cpuMs: number }[] = [];
    const restore: { ms: number; cpuMs: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const name = `s${size}-${round}`;
      save.push(await timed(() => chain.saveSnapshot(name)));
      await Promise.all(Array.from({ length: 10 }, () => chain.sendExternal(relayExternal())));
      await chain.produceBlock();
      await running.attachment.synced();
      restore.push(await timed(() => chain.restoreSnapshot(name)));
      chain.deleteSnapshot(name);
    }
    await chain.saveSnapshot(`export-${size}`);
    const exported = await timed(() => chain.exportSnapshot(`export-${size}`));
    chain.deleteSnapshot(`export-${size}`);
    const s = save.map((x) => x.ms);
    const r = restore.map((x) => x.ms);
    console.log(
      `${String(transactions).padStart(12)}  ${fmt(median(s))} (${fmt(Math.max(...s))})  ${fmt(median(save.map((x) => x.cpuMs)))} | ` +
        `${fmt(median(r))} (${fmt(Math.max(...r))})  ${fmt(median(restore.map((x) => x.cpuMs)))} | ${fmt(exported.ms)} | ${(median(r) / exported.ms).toFixed(3)}`,
    );
  }
  const goal = 200;
  console.log(`goal: save and restore <= ${goal} ms at ${accounts} accounts and the largest size: see the last row`);
} finally {
  await running.close();
  await chain.stop();
  rmSync(dir, { recursive: true, force: true });
  if (schema) {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}
