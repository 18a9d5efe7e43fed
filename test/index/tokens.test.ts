/**
 * The token index's pure parts: method ids read from compiled code, TEP-64 content as v3 writes it, the
 * jetton and NFT message bodies, and the detector's "code hash X is not interface Y" cache (counted
 * through the runner the store thread would relay to the chain).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell, Dictionary, serializeTuple, type TupleItem } from '@ton/core';
import { blockRows, CodeBocCache } from '../../src/index/block-rows.js';
import { openIndex, type IndexOptions } from '../../src/index/open-index.js';
import { MIGRATIONS, migrate } from '../../src/index/schema.js';
import type { SqlDriver, SqlReads } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { TOKENS_MIGRATION } from '../../src/index/tokens/schema.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { story } from './support/sandbox-blocks.js';
import { ContractReads } from '../../src/index/tokens/contracts.js';
import { TokenDetector } from '../../src/index/tokens/detector.js';
import { v3TokenContent } from '../../src/index/tokens/content.js';
import { parseJettonBurn, parseJettonTransfer } from '../../src/index/tokens/jetton-messages.js';
import { interfacesOfMethods, methodId, methodIds, tokenMethods } from '../../src/index/tokens/method-ids.js';
import { parseNftTransfer } from '../../src/index/tokens/nft-messages.js';
import {
  PortGetMethods,
  serveGetMethod,
  serveGetMethods,
  type GetMethodReplies,
  type GetMethodRequest,
  type GetMethodRequests,
  type GetMethodRunner,
} from '../../src/index/tokens/get-methods.js';
import type { GetMethodResult } from '../../src/chain/types.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { compileContracts } from '../api/v2/support/contracts.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const key = (name: string) => BigInt(`0x${sha256(name).toString('hex')}`);

test('method ids: read from the code dictionary, named as toncenter names interfaces', async () => {
  const c = await compileContracts();
  assert.equal(methodId('get_jetton_data'), 106029);
  assert.equal(methodId('seqno'), 85143);
  assert.deepEqual(tokenMethods(c.jettonMaster).sort(), ['get_jetton_data', 'get_wallet_address']);
  assert.ok(methodIds(c.jettonWallet)!.has(methodId('get_wallet_data')));
  assert.deepEqual(interfacesOfMethods(tokenMethods(c.jettonMaster)), ['jetton_master']);
  assert.deepEqual(interfacesOfMethods(tokenMethods(c.nftCollection)), ['nft_collection']);
  assert.deepEqual(interfacesOfMethods(tokenMethods(c.dnsZone)), ['dns']);
  // getgems' v4 sale answers get_fix_price_data_v4 only (toncenter names it by code hash or by that method).
  assert.deepEqual(interfacesOfMethods(['get_fix_price_data_v4']), ['nft_sale_getgems_v4']);
  // A wallet's code has no token method; code of another shape has no readable dictionary.
  assert.deepEqual(tokenMethods(testWallet(1).wallet.init.code), []);
  assert.equal(methodIds(beginCell().storeUint(0xff00, 16).endCell()), null);
  assert.equal(methodIds(Cell.EMPTY), null);
});

test('TEP-64 content: offchain uri; onchain snake and chunked values of the fixed key list, others dropped', () => {
  assert.deepEqual(v3TokenContent(beginCell().storeUint(1, 8).storeStringTail('https://x.example/a.json').endCell()), {
    uri: 'https://x.example/a.json',
  });
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  dict.set(key('name'), beginCell().storeUint(0, 8).storeStringTail('Long '.repeat(40)).endCell());
  const chunks = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  chunks.set(1, beginCell().storeStringTail('DOL').endCell());
  chunks.set(0, beginCell().storeStringTail('SYM').endCell());
  dict.set(key('symbol'), beginCell().storeUint(1, 8).storeDict(chunks).endCell());
  dict.set(
    key('image_data'),
    beginCell()
      .storeUint(0, 8)
      .storeBuffer(Buffer.from([0xff, 0x00]))
      .endCell(),
  );
  dict.set(
    key('description'),
    beginCell()
      .storeUint(0, 8)
      .storeBuffer(Buffer.from([0xc3, 0x28]))
      .endCell(),
  );
  dict.set(key('website'), beginCell().storeUint(0, 8).storeStringTail('not in the list').endCell());
  const content = v3TokenContent(beginCell().storeUint(0, 8).storeDict(dict).endCell());
  assert.deepEqual(
    content,
    { name: 'Long '.repeat(40), symbol: 'SYMDOL', image_data: Buffer.from([0xff, 0x00]).toString('base64') },
    'invalid UTF-8 dropped',
  );
  assert.throws(() => v3TokenContent(beginCell().storeUint(7, 8).endCell()), /prefix/);
});

test('jetton and NFT bodies: every field read; a body that does not parse is null', () => {
  const [a, b] = [testWallet(1).wallet.address, testWallet(2).wallet.address];
  const payload = beginCell().storeUint(0, 32).storeStringTail('hello').endCell();
  const transfer = parseJettonTransfer(
    beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(3, 64)
      .storeCoins(500n)
      .storeAddress(a)
      .storeAddress(null)
      .storeMaybeRef(payload)
      .storeCoins(9n)
      .storeBit(true)
      .storeRef(payload)
      .endCell(),
  )!;
  assert.equal(transfer.queryId, '3');
  assert.equal(transfer.amount, '500');
  assert.equal(transfer.destination, `0:${a.hash.toString('hex').toUpperCase()}`);
  assert.equal(transfer.responseDestination, null);
  assert.ok(transfer.customPayload && Cell.fromBoc(transfer.customPayload)[0].equals(payload));
  assert.equal(transfer.forwardTonAmount, '9');
  assert.ok(Cell.fromBoc(transfer.forwardPayload!)[0].equals(payload), 'Either right: the reference');
  assert.equal(parseJettonTransfer(beginCell().storeUint(0x0f8a7ea5, 32).storeUint(3, 64).endCell()), null, 'truncated');
  assert.equal(parseJettonTransfer(beginCell().storeUint(0x595f07bc, 32).endCell()), null, 'another opcode');
  const burn = parseJettonBurn(
    beginCell().storeUint(0x595f07bc, 32).storeUint(1, 64).storeCoins(7n).storeAddress(b).storeBit(false).endCell(),
  )!;
  assert.deepEqual([burn.queryId, burn.amount, burn.customPayload], ['1', '7', null]);
  assert.equal(
    parseJettonBurn(beginCell().storeUint(0x595f07bc, 32).storeUint(1, 64).storeCoins(7n).storeAddress(b).endCell()),
    null,
    'no custom_payload bit: as toncenter, no row',
  );
  const nft = parseNftTransfer(
    beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(2, 64)
      .storeAddress(b)
      .storeAddress(a)
      .storeBit(false)
      .storeCoins(1n)
      .storeBit(false)
      .endCell(),
  )!;
  assert.deepEqual([nft.queryId, nft.forwardAmount, nft.customPayload], ['2', '1', null]);
});

test('detection: a code that is not an interface is remembered by its hash and not asked again', async () => {
  const calls: string[] = [];
  // The answers of a contract whose get_jetton_data fails: what the store thread would get back from the chain.
  const runner: GetMethodRunner = {
    async run(address, method) {
      calls.push(`${address}:${method}`);
      return null;
    },
  };
  const reads = new ContractReads(runner);
  const candidate = (account: string) => ({
    account,
    codeHash: Buffer.alloc(32, 1),
    dataHash: Buffer.alloc(32),
    lastTxLt: 1n,
    methods: ['get_jetton_data' as const],
  });
  assert.deepEqual(await reads.detect(candidate('0:AA'), 5), {
    master: undefined,
    wallet: undefined,
    collection: undefined,
    item: undefined,
  });
  await reads.detect(candidate('0:BB'), 6);
  assert.deepEqual(calls, ['0:AA:get_jetton_data'], 'the second account with the same code is not asked');
  await reads.detect({ ...candidate('0:CC'), codeHash: Buffer.alloc(32, 2) }, 6);
  assert.deepEqual(calls, ['0:AA:get_jetton_data', '0:CC:get_jetton_data'], 'other code is asked');
});

test('detection: a wallet its master vouched for is not cross-checked again at its next change', async () => {
  const [owner, master, wallet] = [testWallet(1), testWallet(2), testWallet(3)].map((w) => w.wallet.address);
  const slice = (address: Address) => ({ type: 'slice' as const, cell: beginCell().storeAddress(address).endCell() });
  const calls: string[] = [];
  let balance = 5n;
  const runner: GetMethodRunner = {
    async run(_address, method) {
      calls.push(method);
      if (method === 'get_wallet_data')
        return [{ type: 'int', value: balance }, slice(owner), slice(master), { type: 'cell', cell: Cell.EMPTY }];
      if (method === 'get_wallet_address') return [slice(wallet)];
      return null;
    },
  };
  const reads = new ContractReads(runner);
  const raw = `0:${wallet.hash.toString('hex').toUpperCase()}`;
  const candidate = {
    account: raw,
    codeHash: Buffer.alloc(32, 3),
    dataHash: Buffer.alloc(32),
    lastTxLt: 1n,
    methods: ['get_wallet_data' as const],
  };
  assert.equal((await reads.detect(candidate, 5))?.wallet?.balance, 5n);
  balance = 9n;
  assert.equal((await reads.detect({ ...candidate, lastTxLt: 2n }, 6))?.wallet?.balance, 9n);
  assert.deepEqual(calls, ['get_wallet_data', 'get_wallet_address', 'get_wallet_data']);
  // Another account claiming the same owner and master is asked about: the master names the real wallet.
  const other = `0:${'AB'.repeat(32)}`;
  assert.equal((await reads.detect({ ...candidate, account: other }, 7))?.wallet, undefined);
  assert.equal(calls.at(-1), 'get_wallet_address');
});

test("detection: a contract met in two blocks of one group keeps the first one's lt as first_lt (as when committed one by one)", async () => {
  const [owner, master, wallet] = [testWallet(1), testWallet(2), testWallet(3)].map((w) => w.wallet.address);
  const slice = (address: typeof owner) => ({ type: 'slice' as const, cell: beginCell().storeAddress(address).endCell() });
  const runner: GetMethodRunner = {
    async run(_address, method) {
      if (method === 'get_wallet_data')
        return [{ type: 'int', value: 7n }, slice(owner), slice(master), { type: 'cell', cell: Cell.EMPTY }];
      if (method === 'get_wallet_address') return [slice(wallet)];
      return null;
    },
  };
  const raw = `0:${wallet.hash.toString('hex').toUpperCase()}`;
  const candidate = (lastTxLt: bigint) => ({
    account: raw,
    codeHash: Buffer.alloc(32, 4),
    dataHash: Buffer.alloc(32),
    lastTxLt,
    methods: ['get_wallet_data' as const],
  });
  const reads = { all: async () => [] } as unknown as SqlReads;
  const batches = await new TokenDetector(reads, runner).rows(
    [
      { seqno: 5, accounts: [candidate(100n)], events: [] },
      { seqno: 6, accounts: [candidate(200n)], events: [] },
    ],
    () => null,
  );
  const wallets = batches.find((b) => b.table === 'jetton_wallets')!;
  const column = (name: string) => wallets.rows[0][wallets.columns.indexOf(name)];
  assert.equal(wallets.rows.length, 1);
  assert.deepEqual([column('last_transaction_lt'), column('first_lt')], [200n, 100n], 'the newest state, first met at the first block');
});

test('detection: the blocks of a group are asked at once (up to a window of accounts); a later block still wins when it answers first', async () => {
  const master = testWallet(2).wallet.address;
  const slice = (address: Address) => ({ type: 'slice' as const, cell: beginCell().storeAddress(address).endCell() });
  const wallets = Array.from({ length: 200 }, (_, i) => testWallet(100 + i).wallet.address);
  const rawOf = (address: Address) => `0:${address.hash.toString('hex').toUpperCase()}`;
  const asked: number[] = [];
  let releaseFirst!: () => void;
  const firstBlockHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  const runner: GetMethodRunner = {
    async run(address, method, args, seqno) {
      if (method === 'get_wallet_data') {
        asked.push(seqno);
        if (seqno === 5) await firstBlockHeld; // block 5 answers only after block 6 was asked
        // each wallet its own owner (the wallet's address), so the master can vouch for every one
        return [{ type: 'int', value: BigInt(seqno) }, slice(Address.parseRaw(address)), slice(master), { type: 'cell', cell: Cell.EMPTY }];
      }
      const [asker] = args; // get_wallet_address(owner): the owner's wallet is the owner's address
      return asker?.type === 'slice' ? [asker] : null;
    },
  };
  const candidate = (account: string, lastTxLt: bigint) => ({
    account,
    codeHash: Buffer.alloc(32, 5),
    dataHash: Buffer.alloc(32),
    lastTxLt,
    methods: ['get_wallet_data' as const],
  });
  const one = rawOf(wallets[0]);
  const reads = { all: async () => [] } as unknown as SqlReads;
  const detecting = new TokenDetector(reads, runner).rows(
    [
      { seqno: 5, accounts: [candidate(one, 100n)], events: [] },
      { seqno: 6, accounts: [candidate(one, 200n)], events: [] },
      // 150 more accounts: past the window, so block 7 waits for blocks 5 and 6
      { seqno: 7, accounts: wallets.slice(1, 151).map((w) => candidate(rawOf(w), 300n)), events: [] },
    ],
    () => null,
  );
  for (let turn = 0; turn < 1000 && !asked.includes(6); turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(asked, [5, 6], 'block 6 asked while block 5 waits; block 7 not yet');
  releaseFirst();
  const batches = await detecting;
  assert.equal(asked.filter((seqno) => seqno === 7).length, 150);
  const rows = batches.find((b) => b.table === 'jetton_wallets')!;
  assert.equal(rows.rows.length, 151);
  const row = rows.rows.find((r) => r[rows.columns.indexOf('address')] === one);
  assert.ok(row, 'the wallet met in blocks 5 and 6 is a row');
  assert.deepEqual(
    [row[rows.columns.indexOf('balance')], row[rows.columns.indexOf('last_transaction_lt')]],
    ['6', 200n],
    'block 6 state, though block 5 answered last',
  );
});

test('the store thread side: the calls of a turn in one message; answers by id; a call the chain never answers fails after its time budget', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const sent: GetMethodRequests[] = [];
  const port = new PortGetMethods((requests) => sent.push(requests), 5_000);
  const answered = port.run('0:AA', 'get_wallet_data', [], 3);
  const ignored = port.run('0:BB', 'get_wallet_data', [{ type: 'int', value: 7n }], 3);
  assert.equal(sent.length, 0, 'posted once the turn is over');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sent.length, 1, 'one message for both');
  const [{ getMethods }] = sent;
  assert.deepEqual(
    getMethods.map((r) => [r.address, r.mcSeqno, r.stack === null]),
    [
      ['0:AA', 3, true],
      ['0:BB', 3, false],
    ],
  );
  const emptyStack = beginCell().storeUint(0, 24).endCell().toBoc();
  port.settle({ getMethodResults: [{ id: getMethods[0].id, exitCode: 0, stack: emptyStack }] } satisfies GetMethodReplies);
  assert.deepEqual(await answered, []);
  t.mock.timers.tick(5_000);
  await assert.rejects(ignored, /no answer from the chain within 5000 ms/);
});

test('a chain that always answers (a local one): a call waits as long as it takes, none fails by time', async (t) => {
  // A local chain mining by hand may make no later block to retry a detection at: a call that failed only because a
  // busy machine made it slow would leave the contract undetected for good.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const sent: GetMethodRequests[] = [];
  const port = new PortGetMethods((requests) => sent.push(requests), null);
  let settled = false;
  const slow = port.run('0:AA', 'get_jetton_data', [], 3).finally(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.mock.timers.tick(60 * 60_000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'still waiting after an hour');
  const emptyStack = beginCell().storeUint(0, 24).endCell().toBoc();
  port.settle({ getMethodResults: [{ id: sent[0].getMethods[0].id, exitCode: 0, stack: emptyStack }] } satisfies GetMethodReplies);
  assert.deepEqual(await slow, []);
});

test('the main thread side: the stack crosses as the chain got it (stackBase64) or serialized from stackBoc, the same values either way', async () => {
  const values: TupleItem[] = [
    { type: 'int', value: 42n },
    { type: 'cell', cell: beginCell().storeUint(7, 8).endCell() },
  ];
  const stackBoc = serializeTuple(values);
  const base = {
    exitCode: 0,
    gasUsed: 1n,
    block: { workchain: -1, shard: 0n, seqno: 3, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) },
    lastTxLt: 1n,
    lastTxHash: Buffer.alloc(32),
  };
  const asked: Array<[string, string, TupleItem[], number]> = [];
  const request = (id: number): GetMethodRequest => ({
    getMethod: {
      id,
      address: `0:${'ab'.repeat(32)}`,
      method: 'get_wallet_address',
      stack: serializeTuple([{ type: 'int', value: 5n }]).toBoc(),
      mcSeqno: 3,
    },
  });
  const asCell = (bytes: Uint8Array) => Cell.fromBoc(Buffer.from(bytes))[0];
  // A local chain's answer: the emulator's BoC given, stackBoc never read (a getter that fails says so).
  const local = await serveGetMethod((address, method, stack, seqno) => {
    asked.push([address.toRawString(), method, stack, seqno]);
    const answer = { ...base, stackBase64: stackBoc.toBoc().toString('base64') } as GetMethodResult;
    Object.defineProperty(answer, 'stackBoc', { get: () => assert.fail('the relay parsed the stack') });
    return answer;
  }, request(1));
  // A chain without it (chain/lite): stackBoc serialized.
  const lite = await serveGetMethod(() => ({ ...base, stackBoc }), request(2));
  assert.deepEqual(asked, [[`0:${'ab'.repeat(32)}`, 'get_wallet_address', [{ type: 'int', value: 5n }], 3]]);
  assert.deepEqual([local.getMethodResult.id, lite.getMethodResult.id], [1, 2]);
  assert.ok(asCell(local.getMethodResult.stack!).equals(stackBoc));
  assert.ok(asCell(lite.getMethodResult.stack!).equals(stackBoc));
  // Its own bytes, not a slice of a shared pool slab that would cross the thread with it.
  assert.equal(local.getMethodResult.stack!.byteLength, local.getMethodResult.stack!.buffer.byteLength);
  // A turn's calls: every answer, in order, in one reply; a call that fails answers its error.
  const many = await serveGetMethods(
    (address) => (address.hash[0] === 0xab ? { ...base, stackBoc } : Promise.reject(new Error('no such account'))),
    { getMethods: [request(3).getMethod, { ...request(4).getMethod, address: `0:${'cd'.repeat(32)}` }, request(5).getMethod] },
  );
  assert.deepEqual(
    many.getMethodResults.map((r) => [r.id, r.error ?? r.exitCode]),
    [
      [3, 0],
      [4, 'no such account'],
      [5, 0],
    ],
  );
});

for (const store of ['sqlite', 'postgres'] as const) {
  test(`tokens migration: an index written before it opens, upgraded in place, and takes new blocks [${store}]`, async (t) => {
    let options: IndexOptions;
    let driver: () => Promise<SqlDriver>;
    if (store === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'tongate-tokens-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      options = { network: 'testnet', dataDir: dir };
      driver = async () => SqliteDriver.open(join(dir, 'testnet', 'index.sqlite'));
    } else {
      if (!(await requireService(t, 'postgres'))) return;
      const schema = uniqueName('tongate_tokens');
      t.after(() => dropSchema(schema));
      options = { network: 'testnet', databaseUrl: POSTGRES_URL, schema };
      driver = () => PostgresDriver.open(POSTGRES_URL, schema);
    }
    const s = await story();
    // What the previous tongate wrote: the migrations before this one (the later ones may build on its tables:
    // migration 9's triggers), latest states without `interfaces`.
    const old = await driver();
    await migrate(
      old,
      MIGRATIONS.filter((m) => m.version < TOKENS_MIGRATION.version),
    );
    const codeBocs = new CodeBocCache();
    const batches = blockRows(s.blocks[0], codeBocs).rows.map((batch) => {
      if (batch.table !== 'latest_account_states') return batch;
      const keep = batch.columns.map((_, i) => i).filter((i) => batch.columns[i] !== 'interfaces');
      return {
        ...batch,
        columns: keep.map((i) => batch.columns[i]),
        rows: batch.rows.map((row) => keep.map((i) => row[i])),
        conflict: batch.conflict?.replace(', interfaces = excluded.interfaces', ''),
      };
    });
    await old.write(batches);
    await old.close();

    const index = await openIndex(options);
    t.after(() => index.close());
    const accounts = (await index.reader.topAccountsByBalance({ limit: 100, offset: 0 })).map((a) => a.account);
    assert.ok(accounts.length > 0);
    assert.ok(
      (await index.reader.latestStates(accounts, false)).every((state) => Array.isArray(state.interfaces)),
      'old rows read with no interfaces',
    );
    await index.writer.write(s.blocks[1]);
    assert.deepEqual(await index.reader.tokens.jettonMasters({}, { limit: 10, offset: 0 }), []);
    assert.deepEqual(await index.reader.nfts.items({}, { limit: 10, offset: 0 }), []);
    assert.equal(await index.reader.lastMasterchainSeqno(), s.blocks[1].masterchain.id.seqno);
  });
}
