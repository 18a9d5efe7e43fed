import { test } from 'node:test';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, internal, toNano } from '@ton/core';
import { configParseGasLimitsPrices, TonClient } from '@ton/ton';
import { DevnetClient, DevnetError } from '../../src/devnet/client.js';
import { tempDir, testWallet } from '../chain/local/support/local-chain.js';
import { answerCode, publisherCode } from '../support/library-contracts.js';
import { runTongate } from '../support/process.js';
import { getJson, postJson, startTestTongate } from '../support/tongate.js';
import { ManualClock } from '../../src/util/clock.js';
import { ADMIN_TOKEN, indexedUpTo, startManualTongate, timeLock, until } from './support/manual-tongate.js';

const raw = (a: Address) => a.toRawString().toUpperCase();

/** What a test suite would compare: v2's view and v3's view of a few accounts. */
async function views(client: TonClient, url: string, accounts: Address[]) {
  const v2 = [];
  const v3 = [];
  for (const a of accounts) {
    const state = await client.getContractState(a);
    const txs = await client.getTransactions(a, { limit: 20 });
    v2.push({ balance: state.balance, state: state.state, txs: txs.map((tx) => tx.hash().toString('base64')) });
    const v3Txs = await getJson(`${url}/api/v3/transactions?account=${a.toRawString()}&limit=20&sort=desc`);
    const v3State = await getJson(`${url}/api/v3/accountStates?address=${a.toRawString()}&include_boc=false`);
    const traces = await getJson(`${url}/api/v3/traces?account=${a.toRawString()}&limit=20`);
    v3.push({
      txs: v3Txs.body.transactions.map((tx: { hash: string }) => tx.hash),
      balance: v3State.body.accounts[0]?.balance ?? null,
      traces: traces.body.traces.map((tr: { trace_id: string; transactions_order: string[]; trace_info: object }) => [
        tr.trace_id,
        tr.transactions_order.length,
        tr.trace_info,
      ]),
    });
  }
  return { v2, v3 };
}

test('snapshot, transfer, restore: balances, seqno, transactions (v2 and v3) are back; new blocks after it index correctly', async (t) => {
  const { devnet, client, url } = await startManualTongate(t);
  const owner = testWallet(91);
  const other = testWallet(92).wallet.address;
  await devnet.fund(owner.wallet.address, toNano(10));
  const wallet = client.open(owner.wallet);
  const lock = await timeLock(owner.wallet.address, 0);
  await wallet.sendTransfer({
    seqno: 0,
    secretKey: owner.keys.secretKey,
    messages: [internal({ to: lock.address, value: toNano(2), init: lock.init, bounce: false })],
  });
  await devnet.mine();
  assert.equal((await client.getContractState(lock.address)).state, 'active');

  const accounts = [owner.wallet.address, lock.address, other];
  const saved = await devnet.snapshot('deployed');
  const seqno = (await client.getMasterchainInfo()).latestSeqno;
  assert.equal(saved.seqno, seqno, 'taken at the last block (nothing was pending)');
  assert.equal(saved.name, 'deployed');
  const time = await devnet.time();
  await indexedUpTo(url, seqno);
  const before = await views(client, url, accounts);
  assert.equal(await wallet.getSeqno(), 1);

  // What a test case does: a transfer, a state change by surgery, the time moved.
  await wallet.sendTransfer({
    seqno: 1,
    secretKey: owner.keys.secretKey,
    messages: [internal({ to: other, value: toNano(3), bounce: false })],
  });
  await devnet.mine();
  await devnet.setAccount(lock.address, { balance: toNano(500) });
  await devnet.increaseTime(3600);
  await devnet.mine();
  assert.equal(await wallet.getSeqno(), 2, 'the seqno get-method at a later block (a v2 cache keyed by seqno holds it)');
  await indexedUpTo(url, seqno + 3);
  const changed = await views(client, url, accounts);
  assert.notDeepEqual(changed, before);
  assert.equal((await client.getMasterchainInfo()).latestSeqno, seqno + 3);

  const restored = await devnet.restoreSnapshot('deployed');
  assert.equal(restored.seqno, seqno);
  assert.deepEqual(restored.droppedSnapshots, []);
  assert.equal((await client.getMasterchainInfo()).latestSeqno, seqno, 'clients see the earlier seqno');
  assert.equal((await getJson(`${url}/api/v3/masterchainInfo`)).body.last.seqno, seqno, 'v3 as soon as the restore answered');
  assert.deepEqual(await views(client, url, accounts), before, 'v2 and v3: balances, states, transactions, traces as they were');
  assert.equal((await devnet.time()).utime, time.utime, "the chain's clock is back too");
  assert.equal(await wallet.getSeqno(), 1);

  // New blocks reuse the dropped seqnos: nothing answers from the old ones.
  const empty = await devnet.mine();
  assert.equal(empty.seqno, seqno + 1);
  assert.equal(await wallet.getSeqno(), 1, 'not the cached answer of the dropped block with this seqno');
  await wallet.sendTransfer({
    seqno: 1,
    secretKey: owner.keys.secretKey,
    messages: [internal({ to: other, value: toNano(1), bounce: false })],
  });
  const sealed = await devnet.mine();
  const otherBalance = await client.getBalance(other);
  assert.ok(otherBalance > toNano('0.99') && otherBalance <= toNano(1), 'the 1 TON sent after the restore, not the 3 TON of before');
  const [otherTx] = await client.getTransactions(other, { limit: 5 });
  const v3Other = await until(
    () => getJson(`${url}/api/v3/transactions?account=${other.toRawString()}&limit=5`),
    (r) => r.body.transactions?.length === 1,
  );
  assert.equal(v3Other.body.transactions[0].hash, otherTx.hash().toString('base64'), 'the new block is indexed, not the dropped one');
  assert.equal(v3Other.body.transactions[0].mc_block_seqno, sealed.seqno);
  const v3Block = await getJson(`${url}/api/v3/blocks?workchain=-1&seqno=${sealed.seqno}`);
  const v2Block = await getJson(`${url}/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${sealed.seqno}`);
  assert.equal(v3Block.body.blocks[0].root_hash, v2Block.body.result.root_hash);
  const trace = await getJson(`${url}/api/v3/traces?account=${other.toRawString()}`);
  assert.equal(trace.body.traces.length, 1);
  assert.equal(trace.body.traces[0].trace_info.trace_state, 'complete');
  assert.equal(trace.body.traces[0].trace_info.transactions, 2, 'the wallet and the receiver');
  const state = await getJson(`${url}/api/v3/accountStates?address=${raw(other)}&include_boc=false`);
  assert.equal(state.body.accounts[0].balance, otherBalance.toString());

  // The snapshot stays: restore again, as a suite does before each test case.
  assert.equal((await devnet.restoreSnapshot('deployed')).seqno, seqno);
  assert.deepEqual(await views(client, url, accounts), before);
});

test('snapshots: list, delete, later ones dropped by a restore', async (t) => {
  const { devnet, client } = await startManualTongate(t);
  const a = await devnet.snapshot('a');
  await devnet.mine(2);
  const b = await devnet.snapshot('b');
  await devnet.mine();
  const c = await devnet.snapshot('c');
  assert.deepEqual(
    (await devnet.snapshots()).map((s) => [s.name, s.seqno]),
    [
      ['a', a.seqno],
      ['b', a.seqno + 2],
      ['c', a.seqno + 3],
    ],
  );
  assert.equal(b.seqno, a.seqno + 2);

  const deleted = await devnet.deleteSnapshot('c');
  assert.equal(deleted.seqno, c.seqno);
  await devnet.snapshot('c'); // the name is free again
  const restored = await devnet.restoreSnapshot('a');
  assert.deepEqual(restored.droppedSnapshots.sort(), ['b', 'c'], 'their blocks are gone');
  assert.deepEqual(
    (await devnet.snapshots()).map((s) => s.name),
    ['a'],
  );
  assert.equal((await client.getMasterchainInfo()).latestSeqno, a.seqno);
});

test('snapshots: bad input is refused with what was wrong (400, 401, 404, 409, 415, 422)', async (t) => {
  const { devnet, url } = await startManualTongate(t);
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const refused = async (call: Promise<unknown>, status: number, pattern: RegExp) =>
    assert.rejects(call, (e: unknown) => e instanceof DevnetError && e.status === status && pattern.test(e.message));

  await devnet.snapshot('one');
  await refused(devnet.snapshot('one'), 409, /^name: a snapshot named "one" exists \(taken at seqno \d+\); delete it first/);
  await refused(devnet.restoreSnapshot('nope'), 404, /^name: no snapshot named "nope" \(there are: "one"\)/);
  await refused(devnet.deleteSnapshot('nope'), 404, /no snapshot named "nope"/);
  await refused(devnet.exportSnapshot('nope'), 404, /no snapshot named "nope"/);
  await refused(devnet.snapshot('has space'), 422, /^name: expected 1 to 64 letters, digits/);
  await refused(devnet.snapshot('x'.repeat(65)), 422, /^name: expected 1 to 64/);
  const missing = await postJson(`${url}/devnet/snapshots`, {}, auth);
  assert.equal(missing.status, 422);
  assert.match(missing.body.error, /^name: missing/);
  const typo = await postJson(`${url}/devnet/snapshots`, { name: 'two', nmae: 'x' }, auth);
  assert.equal(typo.status, 422);
  assert.match(typo.body.error, /^nmae: unknown field \(expected name\)/);
  const notString = await postJson(`${url}/devnet/snapshots`, { name: 5 }, auth);
  assert.equal(notString.status, 422);
  const array = await postJson(`${url}/devnet/snapshots`, [], auth);
  assert.equal(array.status, 400);
  const noToken = await postJson(`${url}/devnet/snapshots`, { name: 'three' });
  assert.equal(noToken.status, 401);
  const json = await postJson(`${url}/devnet/snapshots/one/import`, { file: 'x' }, auth);
  assert.equal(json.status, 415);
  assert.match(json.body.error, /application\/octet-stream/);
  await refused(devnet.importSnapshot('two', new TextEncoder().encode('not a database')), 422, /^file: not a tongate snapshot file/);
  // A chain of the other network of this same tongate: same faucet, another global id.
  const mainnet = new DevnetClient({ endpoint: (await startManualTongateUrl(t)).mainnet, adminToken: ADMIN_TOKEN });
  await mainnet.snapshot('m');
  await refused(
    devnet.importSnapshot('two', await mainnet.exportSnapshot('m')),
    422,
    /^file: it holds a chain of network mainnet; this network's chain has testnet/,
  );
  assert.deepEqual(
    (await devnet.snapshots()).map((s) => s.name),
    ['one'],
    'nothing was changed by the refusals',
  );
});

async function startManualTongateUrl(t: { after(fn: () => unknown): void }): Promise<{ mainnet: string }> {
  const gate = await startTestTongate({ mining: 'manual', adminToken: ADMIN_TOKEN }, {}, { clock: new ManualClock(1_750_000_000_000) });
  t.after(() => gate.stop());
  return { mainnet: gate.url('mainnet') };
}

test('export and import: a snapshot carried across a restart, into another data dir', async (t) => {
  const dir = tempDir(t);
  const clock = new ManualClock(1_750_000_000_000);
  const first = await startTestTongate({ mining: 'manual', adminToken: ADMIN_TOKEN, ephemeral: false, dataDir: dir }, {}, { clock });
  let url = first.url('testnet');
  let devnet = new DevnetClient({ endpoint: url, adminToken: ADMIN_TOKEN });
  let client = new TonClient({ endpoint: `${url}/api/v2/jsonRPC` });
  const owner = testWallet(95);
  await devnet.fund(owner.wallet.address, toNano(7));
  await devnet.increaseTime(1000);
  await devnet.mine();
  const saved = await devnet.snapshot('funded');
  const file = await devnet.exportSnapshot('funded');
  const time = (await devnet.time()).utime;
  const txs = (await client.getTransactions(owner.wallet.address, { limit: 5 })).map((tx) => tx.hash().toString('base64'));
  await devnet.fund(owner.wallet.address, toNano(1)); // after the snapshot: not in the file
  await first.stop();

  // Another tongate, a fresh chain of its own (ephemeral), same network and faucet.
  const second = await startTestTongate({ mining: 'manual', adminToken: ADMIN_TOKEN }, {}, { clock });
  t.after(() => second.stop());
  url = second.url('testnet');
  devnet = new DevnetClient({ endpoint: url, adminToken: ADMIN_TOKEN });
  client = new TonClient({ endpoint: `${url}/api/v2/jsonRPC` });
  assert.equal(await client.getBalance(owner.wallet.address), 0n);
  await devnet.snapshot('fresh');
  const imported = await devnet.importSnapshot('funded', file);
  assert.equal(imported.seqno, saved.seqno);
  assert.equal(imported.rootHash, saved.rootHash, 'the same block');
  assert.deepEqual(
    (await devnet.snapshots()).map((s) => s.name),
    ['funded'],
    'snapshots of the replaced chain are dropped',
  );
  assert.equal((await client.getMasterchainInfo()).latestSeqno, saved.seqno);
  assert.equal(await client.getBalance(owner.wallet.address), toNano(7));
  assert.deepEqual(
    (await client.getTransactions(owner.wallet.address, { limit: 5 })).map((tx) => tx.hash().toString('base64')),
    txs,
  );
  assert.equal((await devnet.time()).utime, time, "the snapshot's clock");
  const v3 = await getJson(`${url}/api/v3/transactions?account=${owner.wallet.address.toRawString()}&limit=5&sort=desc`);
  assert.deepEqual(
    v3.body.transactions.map((tx: { hash: string }) => tx.hash),
    txs,
    'v3 indexed the imported chain before the import answered',
  );
  // The imported chain goes on.
  await devnet.fund(owner.wallet.address, toNano(2));
  assert.ok((await client.getBalance(owner.wallet.address)) > toNano('8.99'), 'the 7 TON, 2 more, less storage fees');
  assert.equal((await devnet.restoreSnapshot('funded')).seqno, saved.seqno);
  assert.equal(await client.getBalance(owner.wallet.address), toNano(7));
});

test('tongate snapshot save, list, restore, export, import, delete: through a running tongate', async (t) => {
  const { gate, client } = await startManualTongate(t);
  const env = { TONGATE_NETWORK: `mainnet=${gate.url('mainnet')},testnet=${gate.url('testnet')}`, TONGATE_ADMIN_TOKEN: ADMIN_TOKEN };
  const seqno = (await client.getMasterchainInfo()).latestSeqno;
  const cli = (...args: string[]) => runTongate(['snapshot', ...args, '--network', 'testnet'], env);

  const saved = await cli('save', 'start');
  assert.equal(saved.code, 0, saved.stderr);
  assert.match(saved.stdout, new RegExp(`testnet: saved snapshot start at seqno ${seqno} \\(0 pending messages\\)`));
  await gate.chain('testnet').mine(2);
  const listed = await cli('list');
  assert.match(listed.stdout, new RegExp(`^start\tseqno ${seqno}\t`, 'm'));
  const restored = await cli('restore', 'start');
  assert.equal(restored.code, 0, restored.stderr);
  assert.match(restored.stdout, new RegExp(`testnet: restored snapshot start, back at seqno ${seqno}`));
  assert.equal((await client.getMasterchainInfo()).latestSeqno, seqno);

  const file = join(tempDir(t), 'start.snapshot');
  const exported = await cli('export', 'start', file);
  assert.equal(exported.code, 0, exported.stderr);
  assert.ok(statSync(file).size > 0);
  const imported = await cli('import', 'again', file);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, new RegExp(`testnet: imported .* as snapshot again, now at seqno ${seqno}`));
  const deleted = await cli('delete', 'again');
  assert.match(deleted.stdout, /testnet: deleted snapshot again/);

  const unknown = await cli('restore', 'start');
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /snapshot restore failed \(404\): name: no snapshot named "start" \(there are none\)/);
  const unreadable = await cli('import', 'x', join(tempDir(t), 'missing.snapshot'));
  assert.equal(unreadable.code, 2);
  assert.match(unreadable.stderr, /<file>: cannot read .*missing\.snapshot: ENOENT/);

  // Without --network: save, list and delete act on every local network, as `tongate mine` does; export
  // needs the network named when there are several. Times are labelled chain time.
  const every = (...args: string[]) => runTongate(['snapshot', ...args], env);
  const savedBoth = await every('save', 'both');
  assert.equal(savedBoth.code, 0, savedBoth.stderr);
  assert.match(savedBoth.stdout, /^mainnet: saved snapshot both at seqno \d+/m);
  assert.match(savedBoth.stdout, /^testnet: saved snapshot both at seqno \d+/m);
  const listedBoth = await every('list');
  assert.match(listedBoth.stdout, /^mainnet:\nboth\tseqno \d+\tchain time \d{4}-\d\d-\d\dT[\d:.]+Z\t0 pending messages$/m);
  assert.match(listedBoth.stdout, /^testnet:\nboth\tseqno \d+\tchain time /m);
  const ambiguous = await every('export', 'both', join(tempDir(t), 'both.snapshot'));
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.stderr, /--network: name one of the local networks: mainnet, testnet/);
  const deletedBoth = await every('delete', 'both');
  assert.equal(deletedBoth.code, 0, deletedBoth.stderr);
  assert.match(deletedBoth.stdout, /^mainnet: deleted snapshot both/m);
  assert.match(deletedBoth.stdout, /^testnet: deleted snapshot both/m);
});

test('a restore to before a /devnet/config change: the config contract, getConfigParam and the fees transactions pay are back', async (t) => {
  const { devnet, client, url, gate } = await startManualTongate(t);
  const faucet = gate.chain('testnet').faucets()[0].address;
  const fundGasFees = async (seed: number) => {
    await devnet.fund(testWallet(seed).wallet.address, toNano(1));
    const [tx] = await client.getTransactions(faucet, { limit: 1 });
    const d = tx.description;
    assert.ok(d.type === 'generic' && d.computePhase.type === 'vm');
    return d.computePhase.gasFees;
  };
  const param21 = async () => Cell.fromBase64((await getJson(`${url}/api/v2/getConfigParam?config_id=21`)).body.result.config.bytes);
  const before = await fundGasFees(131);
  const original = await param21();
  await devnet.snapshot('cheap');
  const p = configParseGasLimitsPrices(original.beginParse());
  const raised = beginCell()
    .storeUint(0xd1, 8)
    .storeUint(p.flatLimit, 64)
    .storeUint(p.flatGasPrice, 64)
    .storeUint(0xde, 8)
    .storeUint(p.other.gasPrice * 10n, 64)
    .storeUint(p.other.gasLimit, 64)
    .storeUint(p.other.specialGasLimit ?? p.other.gasLimit, 64)
    .storeUint(p.other.gasCredit, 64)
    .storeUint(p.other.blockGasLimit, 64)
    .storeUint(p.other.freezeDueLimit, 64)
    .storeUint(p.other.deleteDueLimit, 64)
    .endCell();
  await devnet.setConfig({ 21: raised });
  assert.ok((await fundGasFees(132)) > before * 5n, 'the raised gas price applies');

  await devnet.restoreSnapshot('cheap');
  assert.ok((await param21()).equals(original), "getConfigParam: the snapshot's config");
  assert.equal(await fundGasFees(133), before, 'transactions run under the config of the snapshot again');
});

test('a restore to before a library was published: getLibraries no longer has it, after it again once republished', async (t) => {
  const { devnet, url } = await startManualTongate(t);
  const code = await answerCode();
  const publisher = Address.parse(`-1:${'71'.repeat(32)}`);
  await devnet.setAccount(publisher, { balance: toNano(10), code: await publisherCode(), data: Cell.EMPTY });
  const libraries = async () =>
    (await getJson(`${url}/api/v2/getLibraries?libraries=${encodeURIComponent(code.hash().toString('base64'))}`)).body.result.result.length;
  await devnet.snapshot('no-library');
  await devnet.sendInternal({
    from: Address.parse(`0:${'98'.repeat(32)}`),
    to: publisher,
    value: toNano(1),
    body: beginCell().storeRef(code).endCell(),
  });
  assert.equal(await libraries(), 1);
  await devnet.snapshot('library');

  await devnet.restoreSnapshot('no-library');
  assert.equal(await libraries(), 0, 'the library set of the snapshot');
  await devnet.sendInternal({
    from: Address.parse(`0:${'98'.repeat(32)}`),
    to: publisher,
    value: toNano(1),
    body: beginCell().storeRef(code).endCell(),
  });
  assert.equal(await libraries(), 1, 'published again in the new history');
});
