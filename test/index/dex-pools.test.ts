/**
 * DeDust pool detection (src/index/dex) on a local chain with tongate's own pool and factory (src/contracts/dex:
 * DeDust's get_assets and get_pool_address layouts): detected when their code hash and factory are the ones the
 * detector is given, a volatile and a stable pool, not a pool whose factory does not name it, and nothing with
 * mainnet's facts (the default: our code is not DeDust's). The detected row is written to both stores, read back as
 * the classifier reads it (trace-source.ts), and a DeDust swap trace through that pool is a `jetton_swap`.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Address, beginCell, Cell, contractAddress, toNano, type StateInit } from '@ton/core';
import { dedustFactoryInit, dedustPoolInit } from '../../src/contracts/dex/dex.js';
import { classifyTrace } from '../../src/index/actions/classify.js';
import { knownContracts } from '../../src/index/actions/trace-source.js';
import { assetSlice, DEDUST_MAINNET } from '../../src/index/dex/dedust-pools.js';
import { migrate } from '../../src/index/schema.js';
import type { InsertBatch, SqlDriver, SqlReads } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { accountCandidate, MethodCache, type TokenAccountCandidate } from '../../src/index/tokens/block-tokens.js';
import { TokenDetector } from '../../src/index/tokens/detector.js';
import { directGetMethods } from '../../src/index/tokens/get-methods.js';
import { tokenMethods } from '../../src/index/tokens/method-ids.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain } from '../chain/local/support/local-chain.js';
import { dedustCode } from '../contracts/support/code.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { swapLog, USDT, USDT_VAULT, usdtForTon, USER, USER_USDT, VAULT_USDT } from './actions/dedust-traces.js';

const raw = formatRawUpper;
const hex = (hash: Buffer) => hash.toString('hex').toUpperCase();
const noStore = { all: async () => [] } as unknown as SqlReads;

test('DeDust pools on a local chain: detected with their own facts, not with mainnet’s; the row makes a swap a jetton_swap', async (t) => {
  const { chain } = await openChain(t);
  const code = await dedustCode();
  const factoryInit = dedustFactoryInit(code.factory, code.pool);
  const factory = contractAddress(0, factoryInit);
  const assets: [Cell, Cell] = [assetSlice(null), assetSlice(Address.parseRaw(USDT))];
  const volatileInit = dedustPoolInit(code.pool, { factory, poolType: 0, assets });
  const stableInit = dedustPoolInit(code.pool, { factory, poolType: 1, assets });
  // The same code, but naming another factory: ours does not give its address back.
  const strayInit = dedustPoolInit(code.pool, { factory: Address.parseRaw(USER), poolType: 0, assets });
  let seqno = 0;
  const place = async (init: StateInit) => {
    const address = contractAddress(0, init);
    seqno = (await chain.setAccount(address, { balance: toNano(1), code: init.code!, data: init.data! })).seqno;
    return address;
  };
  await place(factoryInit);
  const pools = { volatile: await place(volatileInit), stable: await place(stableInit), stray: await place(strayInit) };

  const methods = tokenMethods(code.pool);
  assert.ok(methods.includes('get_assets'), 'the pool code offers get_assets to detection');
  const candidate = (address: Address, init: StateInit): TokenAccountCandidate => ({
    account: raw(address),
    codeHash: init.code!.hash(),
    dataHash: init.data!.hash(),
    lastTxLt: 1n,
    methods,
  });
  const candidates = [candidate(pools.volatile, volatileInit), candidate(pools.stable, stableInit), candidate(pools.stray, strayInit)];
  const runner = directGetMethods((a: Address, method, stack, mcSeqno) => chain.runGetMethod(a, method, stack, mcSeqno));
  const ours = { poolCodeHashes: new Set([hex(code.pool.hash())]), factory: raw(factory) };

  const detected = await new TokenDetector(noStore, runner, [], { dedust: ours }).rows(
    [{ seqno, accounts: candidates, events: [] }],
    () => null,
  );
  const batch = detected.find((b) => b.table === 'dex_pools');
  assert.ok(batch, 'pools detected');
  const column = (row: unknown[], name: string) => row[batch.columns.indexOf(name)];
  assert.deepEqual(
    batch.rows.map((r) => [column(r, 'address'), column(r, 'dex'), column(r, 'asset_1'), column(r, 'asset_2'), column(r, 'is_stable')]),
    [
      [raw(pools.volatile), 'dedust', null, USDT, 0],
      [raw(pools.stable), 'dedust', null, USDT, 1],
    ],
    'both pool types, the stray pool left out',
  );

  // A pool whose code is a library cell naming the pool code: matched by the library's hash.
  const library = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(code.pool.hash()).endCell().bits });
  const viaLibrary = { ...candidates[0], codeHash: library.hash(), libraryHash: hex(code.pool.hash()) };
  const byLibrary = await new TokenDetector(noStore, runner, [], { dedust: ours }).rows(
    [{ seqno, accounts: [viaLibrary], events: [] }],
    () => null,
  );
  assert.equal(byLibrary.find((b) => b.table === 'dex_pools')?.rows.length, 1, 'detected by the library hash');
  // Mainnet's pool codes as library cells are candidates (their methods cannot be read), with the library's hash.
  const [mainnetHash] = DEDUST_MAINNET.poolCodeHashes;
  const mainnetLibrary = new Cell({
    exotic: true,
    bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.from(mainnetHash, 'hex')).endCell().bits,
  });
  const libraryCandidate = accountCandidate(raw(pools.volatile), mainnetLibrary, undefined, 1n, new MethodCache());
  assert.deepEqual([libraryCandidate?.methods, libraryCandidate?.libraryHash], [['get_assets'], mainnetHash]);

  // Mainnet's facts (the default): our code is none of DeDust's three, nothing is asked and nothing detected.
  assert.ok(!DEDUST_MAINNET.poolCodeHashes.has(hex(code.pool.hash())));
  const asked: string[] = [];
  const counting = { run: (...args: Parameters<typeof runner.run>) => (asked.push(args[1]), runner.run(...args)) };
  const mainnet = await new TokenDetector(noStore, counting).rows([{ seqno, accounts: candidates, events: [] }], () => null);
  assert.equal(
    mainnet.find((b) => b.table === 'dex_pools'),
    undefined,
    'not detected with mainnet’s hashes',
  );
  assert.deepEqual(asked, [], 'an unknown code hash costs no get-method');
  // The right code hash but mainnet's factory (not on this chain): no pool either.
  const otherFactory = await new TokenDetector(noStore, runner, [], {
    dedust: { poolCodeHashes: ours.poolCodeHashes, factory: DEDUST_MAINNET.factory },
  }).rows([{ seqno, accounts: candidates, events: [] }], () => null);
  assert.equal(
    otherFactory.find((b) => b.table === 'dex_pools'),
    undefined,
    'a factory that does not name the pool',
  );

  for (const store of ['sqlite', 'postgres'] as const) {
    const driver = await openDriver(t, store);
    if (!driver) continue;
    await migrate(driver);
    await driver.write([batch as InsertBatch]);
    const pool = raw(pools.volatile);
    const known = await knownContracts(driver, [pool, raw(pools.stray)]);
    assert.deepEqual([...(known.dexPools ?? new Map()).entries()], [[pool, { dex: 'dedust', assets: [null, USDT] }]], store);
    const contracts = {
      ...known,
      jettonWallets: new Map([
        [USER_USDT, { owner: USER, jetton: USDT }],
        [VAULT_USDT, { owner: USDT_VAULT, jetton: USDT }],
      ]),
    };
    const { trace } = usdtForTon([pool], [[swapLog(USDT, null, 1_000n, 990n)]]);
    const [swap] = classifyTrace(trace, contracts).actions;
    assert.deepEqual([swap.type, swap.success], ['jetton_swap', true], store);
    const details = swap.details as Record<string, unknown>;
    assert.deepEqual([details.dex, details.asset_in, details.asset_out], ['dedust', USDT, null], store);
    // The stray pool was not detected: a swap through it stays calls and a transfer.
    const stray = usdtForTon([raw(pools.stray)], [[swapLog(USDT, null, 1_000n, 990n)]]);
    assert.ok(!classifyTrace(stray.trace, contracts).actions.some((a) => a.type === 'jetton_swap'), store);
  }
});

async function openDriver(t: TestContext, store: 'sqlite' | 'postgres'): Promise<SqlDriver | null> {
  if (store === 'sqlite') {
    const driver = SqliteDriver.open();
    t.after(() => driver.close());
    return driver;
  }
  if (!(await requireService(t, 'postgres'))) return null;
  const schema = uniqueName('tongate_dex');
  const driver = await PostgresDriver.open(POSTGRES_URL, schema);
  t.after(async () => {
    await driver.close();
    await dropSchema(schema);
  });
  return driver;
}
