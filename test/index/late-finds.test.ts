/**
 * A trace classified while token detection did not know a contract among its accounts is classified again when a
 * retried detection finds it (src/index/actions/late-finds.ts), on both stores: a jetton mint on a local chain (the
 * faucet mints tongate's own TEP-74 jetton to alice) is indexed while get_wallet_data of alice's new jetton wallet
 * fails as a liteserver that does not answer in time fails; the trace is classified without the wallet (no
 * `jetton_mint`: toncenter's matcher needs the wallet known). The chain answers again, the retry at a later block
 * (mints to others change token accounts in it) detects the wallet, and in that block's DB transaction the trace's
 * actions become `jetton_mint`, its old actions and their account rows gone. A later block where no token account
 * changed runs the retry too. The walk over the account's transactions goes on over groups and is kept in the store
 * (`late_finds`), so it goes on after a restart; mints while the newer states fail too are all classified again (from
 * the first failed block); a wallet given up after its last retry and found at its next change brings its earlier
 * traces back; a find the token back-fill comes upon is walked by the next block group.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { contractAddress, toNano, type Address } from '@ton/core';
import { onchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, jettonWalletAddress, mintBody } from '../../src/contracts/jetton/jetton.js';
import { LateFinds } from '../../src/index/actions/late-finds.js';
import { feedFromChain, indexedFromFeed } from '../../src/index/feed.js';
import { openIndex, type Index, type IndexOptions } from '../../src/index/open-index.js';
import type { SqlDriver, SqlValue } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { directGetMethods, type GetMethodRunner } from '../../src/index/tokens/get-methods.js';
import { RETRY_DELAYS } from '../../src/index/tokens/detection-retry.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { TOKEN_BACKFILL } from '../../src/index/tokens/backfill-schema.js';
import { openChain, tempDir, testWallet } from '../chain/local/support/local-chain.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { eachStore, type StoreName } from './support/stores.js';

const raw = (address: Address) => formatRawUpper(address);

/** The mint indexed while alice's jetton wallet's detection fails; what the tests read and drive afterwards. */
async function mintWhileDown(t: TestContext, index: Index) {
  const { chain } = await openChain(t);
  const faucet = chain.faucets().find((f) => f.kind === 'v4r2')!.address;
  const alice = testWallet(61).wallet.address;
  const init = jettonMasterInit({ admin: faucet, content: onchainContent({ name: 'Late', symbol: 'LATE', decimals: '9' }) });
  const master = contractAddress(0, init);
  const wallet = raw(jettonWalletAddress(alice, master));

  // The chain's get-methods, but alice's jetton wallet gets no answer while `down` (a liteserver past its budget).
  const direct = directGetMethods((a, method, stack, seqno) => chain.runGetMethod(a, method, stack, seqno));
  let down = true;
  const asked: number[] = [];
  const runner: GetMethodRunner = {
    async run(account, method, stack, mcSeqno) {
      if (account === wallet && method === 'get_wallet_data') {
        asked.push(mcSeqno);
        if (down) throw new Error(`${method} on ${account}: no answer from the chain within 10000 ms`);
      }
      return direct.run(account, method, stack, mcSeqno);
    },
  };
  index.writer.useGetMethods(runner);
  let written = -1;
  // `into`: the index as reopened after a restart (it goes on from the last block written).
  const writeUpTo = async (last: number, into = index) => {
    for (; written < last;) await into.writer.write(indexedFromFeed(await feedFromChain(chain, ++written)));
  };

  const sent = chain.sendFromFaucet({
    to: master,
    value: toNano('0.3'),
    init,
    body: mintBody({ to: alice, amount: 1000n, tonAmount: toNano('0.05'), response: faucet }),
  });
  await chain.produceBlock();
  await sent;
  for (let i = 0; i < 10 && (chain.stats().pendingMessages > 0 || chain.stats().openTransactions > 0); i++) await chain.produceBlock();
  await writeUpTo(chain.masterchainInfo().last.id.seqno);

  const [minted] = await index.reads.all('SELECT trace_id, mc_seqno FROM transactions WHERE account = ?', [wallet]);
  assert.ok(minted, "the mint reached alice's jetton wallet");
  const traceId = minted.trace_id as SqlValue;
  const failedAt = Number(minted.mc_seqno);
  // Asked at the block that deployed the wallet, and again at that block's state by the retries the blocks written
  // since made due (the mint's messages take a few blocks): every one failed.
  const failures = asked.length;
  assert.ok(failures >= 1 && failures <= RETRY_DELAYS.length, `asked ${asked}`);
  assert.deepEqual(new Set(asked), new Set([failedAt]), 'always at the failed block');
  assert.equal(
    (await index.reads.all('SELECT address FROM jetton_wallets WHERE address = ?', [wallet])).length,
    0,
    'the wallet is unknown',
  );
  const [classified] = await index.reads.all('SELECT state FROM trace_classifications WHERE trace_id = ?', [traceId]);
  assert.equal(classified?.state, 'ok', 'the mint trace completed and was classified');
  const typesOf = async () =>
    (await index.reads.all('SELECT type FROM actions WHERE trace_id = ? ORDER BY type', [traceId])).map((r) => String(r.type));
  const before = await typesOf();
  assert.ok(!before.includes('jetton_mint'), `without the wallet: ${before}`);
  assert.ok(before.includes('call_contract'), `the mint is contract calls: ${before}`);
  const staleAccounts = await index.reads.all(
    "SELECT a.action_id FROM action_accounts a JOIN actions x ON x.trace_id = a.trace_id AND x.action_id = a.action_id WHERE a.trace_id = ? AND x.type = 'call_contract'",
    [traceId],
  );
  assert.ok(staleAccounts.length > 0);
  return {
    chain,
    index,
    faucet,
    master,
    alice,
    wallet,
    traceId,
    failedAt,
    failures,
    asked,
    typesOf,
    runner,
    answer: () => (down = false),
    writeAll: (into = index) => writeUpTo(chain.masterchainInfo().last.id.seqno, into),
    /** Another mint to alice (her jetton wallet changes again), its blocks written. */
    async mintAgain(amount: bigint, into = index) {
      const sent = chain.sendFromFaucet({
        to: master,
        value: toNano('0.3'),
        body: mintBody({ to: alice, amount, tonAmount: toNano('0.05'), response: faucet }),
      });
      await chain.produceBlock();
      await sent;
      for (let i = 0; i < 10 && (chain.stats().pendingMessages > 0 || chain.stats().openTransactions > 0); i++) await chain.produceBlock();
      await writeUpTo(chain.masterchainInfo().last.id.seqno, into);
    },
  };
}

/** After the retry: the trace's actions are the mint, and nothing of the replaced ones is left. */
async function reclassified({ index, traceId, typesOf, master, alice, wallet }: Awaited<ReturnType<typeof mintWhileDown>>) {
  const after = await typesOf();
  assert.ok(after.includes('jetton_mint'), `classified again: ${after}`);
  assert.ok(!after.includes('call_contract'), `the contract calls are gone: ${after}`);
  const [mint] = await index.reads.all("SELECT doc, accounts FROM actions WHERE trace_id = ? AND type = 'jetton_mint'", [traceId]);
  const doc = JSON.parse(String(mint.doc));
  assert.deepEqual(doc.details, {
    asset: raw(master),
    receiver: raw(alice),
    receiver_jetton_wallet: wallet,
    amount: '1000',
    ton_amount: '50000000',
  });
  assert.equal(doc.success, true);
  // action_accounts: the mint under alice, nothing left of the replaced actions.
  const ofAlice = await index.reads.all('SELECT action_id FROM action_accounts WHERE account = ? AND trace_id = ?', [raw(alice), traceId]);
  const mintId = (await index.reads.all("SELECT action_id FROM actions WHERE trace_id = ? AND type = 'jetton_mint'", [traceId]))[0]
    .action_id;
  assert.ok(
    ofAlice.some((r) => Buffer.compare(r.action_id as Buffer, mintId as Buffer) === 0),
    "the mint is among alice's actions",
  );
  const orphans = await index.reads.all(
    'SELECT a.account FROM action_accounts a LEFT JOIN actions x ON x.trace_id = a.trace_id AND x.action_id = a.action_id WHERE a.trace_id = ? AND x.trace_id IS NULL',
    [traceId],
  );
  assert.deepEqual(orphans, [], 'no account row of a deleted action');
  const accountsOfActions = new Set(
    (await index.reads.all('SELECT accounts FROM actions WHERE trace_id = ?', [traceId])).flatMap((r) => JSON.parse(String(r.accounts))),
  );
  const accountRows = await index.reads.all('SELECT DISTINCT account FROM action_accounts WHERE trace_id = ?', [traceId]);
  assert.deepEqual(new Set(accountRows.map((r) => String(r.account))), accountsOfActions, "the trace's account rows are its actions'");
  assert.equal((await index.reads.all('SELECT state FROM trace_classifications WHERE trace_id = ?', [traceId]))[0].state, 'ok');
}

eachStore(
  'a jetton mint classified while its wallet was not detected becomes jetton_mint when the retry detects it',
  async (t, { index }) => {
    const late = await mintWhileDown(t, index);
    const { chain, asked, failures, failedAt, wallet, alice } = late;
    // The chain answers again; mints to others change token accounts in the next blocks, where the retry comes due.
    late.answer();
    for (let i = 0; i < 8 && asked.length === failures; i++) {
      const sent = chain.sendFromFaucet({
        to: late.master,
        value: toNano('0.3'),
        body: mintBody({ to: testWallet(62 + i).wallet.address, amount: 5n, tonAmount: toNano('0.05'), response: late.faucet }),
      });
      await chain.produceBlock();
      await sent;
      await late.writeAll();
    }
    assert.deepEqual(asked.slice(failures), [failedAt], 'retried at a later block, at the failed block');
    assert.equal((await index.reads.all('SELECT owner FROM jetton_wallets WHERE address = ?', [wallet]))[0]?.owner, raw(alice));
    await reclassified(late);
  },
);

eachStore('a block where no token account changed still runs the retries due, and the trace is classified again', async (t, { index }) => {
  const late = await mintWhileDown(t, index);
  const { chain, asked, failures, failedAt } = late;
  late.answer();
  for (let i = 0; i < 8 && asked.length === failures; i++) {
    await chain.produceBlock();
    await late.writeAll();
  }
  assert.deepEqual(asked.slice(failures), [failedAt], 'retried at a later quiet block, at the failed block');
  await reclassified(late);
});

/** A second connection to the index's store, to write what a LateFinds share asks as the block committer does. */
async function driverOf(t: TestContext, index: Index): Promise<SqlDriver> {
  const location = index.location;
  const driver =
    location.kind === 'sqlite' ? SqliteDriver.open(location.file) : await PostgresDriver.open(location.databaseUrl, location.schema);
  t.after(() => driver.close());
  return driver;
}

eachStore(
  'a late find walks at most its share of transactions per group; the rest waits in the store for the next groups',
  async (t, { index }) => {
    const late = await mintWhileDown(t, index);
    const driver = await driverOf(t, index);
    const traceId = (late.traceId as Buffer).toString('base64');
    const [{ since }] = await index.reads.all('SELECT MIN(mc_seqno) AS since FROM transactions WHERE trace_id = ?', [late.traceId]);
    // The faucet's transactions from the mint's first block on: its external, the excess it got back.
    const faucet = raw(late.faucet);
    const txs = await index.reads.all('SELECT trace_id, lt FROM transactions WHERE account = ? AND mc_seqno >= ? ORDER BY lt', [
      faucet,
      since as SqlValue,
    ]);
    assert.ok(txs.length >= 2, `the faucet's transactions in the mint: ${txs.length}`);
    const stored = async () =>
      (await driver.all('SELECT account, since, from_lt FROM late_finds')).map((r) => [
        String(r.account),
        Number(r.since),
        r.from_lt === null ? null : BigInt(r.from_lt as bigint),
      ]);
    // One group's share, committed as the block committer commits it (or not: a failed write).
    const group = async (finds: LateFinds, commit = true) => {
      const share = await finds.take(driver, new Set());
      if (commit) {
        await driver.write(share.batches, share.before);
        finds.committed();
      }
      return share.traces.map((trace) => trace.traceId);
    };

    let finds = new LateFinds(1);
    finds.add([{ account: faucet, since: Number(since) }]);
    const first = (txs[0].trace_id as Buffer).toString('base64');
    assert.deepEqual(await group(finds, false), [first], "group 1: one transaction's trace");
    assert.deepEqual(await stored(), [], 'a group whose write failed left nothing in the store');
    assert.ok(finds.waiting, 'its find is still held');
    for (const [i, tx] of txs.entries()) {
      assert.deepEqual(await group(finds), [(tx.trace_id as Buffer).toString('base64')], `group ${i + 1}: one transaction's trace`);
      assert.deepEqual(
        await stored(),
        [[faucet, Number(since), BigInt(tx.lt as bigint) + 1n]],
        'the walk waits in the store, where it stopped',
      );
      // A restart: what the store holds is all there is.
      finds = new LateFinds(1);
    }
    assert.deepEqual(await group(finds), [], 'nothing after its last transaction');
    assert.deepEqual(await stored(), []);
    assert.equal(finds.waiting, false);

    // The traces the group classifies anyway are left to it; a block the index does not hold finds nothing.
    const skipping = new LateFinds();
    skipping.add([
      { account: faucet, since: Number(since) },
      { account: faucet, since: 1_000_000 },
    ]);
    const share = await skipping.take(driver, new Set([traceId]));
    assert.deepEqual(share.traces, []);
    await driver.write(share.batches, share.before);
    skipping.committed();
    assert.deepEqual(await stored(), []);
    assert.equal(skipping.waiting, false);

    // The same find reported twice is one walk, one row (PostgreSQL refuses an upsert that meets a row twice).
    const twice = new LateFinds(1);
    twice.add([
      { account: faucet, since: Number(since) },
      { account: faucet, since: Number(since) + 1 },
      { account: faucet, since: Number(since) + 1 },
    ]);
    assert.deepEqual(await group(twice), [first], 'the first walk takes the share; the others wait, written once');
    assert.deepEqual(
      (await stored()).sort((a, b) => Number(a[1]) - Number(b[1])),
      [
        [faucet, Number(since), BigInt(txs[0].lt as bigint) + 1n],
        [faucet, Number(since) + 1, null],
      ],
    );
  },
);

/** An index that can be closed and opened again (a restart): SQLite in a directory of the test's, PostgreSQL in a schema of its own. */
async function restartableIndex(t: TestContext, store: StoreName, options: Partial<IndexOptions> = {}) {
  let location: Pick<IndexOptions, 'dataDir' | 'databaseUrl' | 'schema'>;
  if (store === 'sqlite') location = { dataDir: tempDir(t) };
  else {
    if (!(await requireService(t, 'postgres'))) return null;
    const schema = uniqueName('tongate_late');
    t.after(() => dropSchema(schema));
    location = { databaseUrl: POSTGRES_URL, schema };
  }
  const open = () => openIndex({ network: 'testnet', ...location, ...options });
  const opened: Index[] = [];
  t.after(async () => {
    for (const index of opened) await index.close().catch(() => undefined);
  });
  return {
    async open() {
      const index = await open();
      opened.push(index);
      return index;
    },
    async close(index: Index) {
      opened.splice(opened.indexOf(index), 1);
      await index.close();
    },
  };
}

const typesOfTrace = async (index: Index, traceId: SqlValue) =>
  (await index.reads.all('SELECT type FROM actions WHERE trace_id = ? ORDER BY type', [traceId])).map((r) => String(r.type));

for (const store of ['sqlite', 'postgres'] as const) {
  test(`a late find walked over several groups goes on after a restart: every trace is classified again [${store}]`, async (t) => {
    const restartable = await restartableIndex(t, store, { lateFindsPerGroup: 1 });
    if (!restartable) return;
    const index = await restartable.open();
    const late = await mintWhileDown(t, index);
    // Two more mints to alice while her wallet's detection still fails: three traces with a transaction of it.
    await late.mintAgain(20n);
    await late.mintAgain(30n);
    const minted = await index.reads.all('SELECT trace_id FROM transactions WHERE account = ? ORDER BY lt', [late.wallet]);
    assert.equal(minted.length, 3);
    for (const { trace_id } of minted) assert.ok(!(await typesOfTrace(index, trace_id as SqlValue)).includes('jetton_mint'));

    // The chain answers; the retry finds the wallet at a quiet block, whose group walks one transaction of it.
    late.answer();
    for (let i = 0; i < 8 && (await index.reads.all('SELECT 1 FROM jetton_wallets WHERE address = ?', [late.wallet])).length === 0; i++) {
      await late.chain.produceBlock();
      await late.writeAll();
    }
    const mints = async (into: Index) => {
      const kinds: string[] = [];
      for (const { trace_id } of minted)
        kinds.push((await typesOfTrace(into, trace_id as SqlValue)).includes('jetton_mint') ? 'mint' : 'calls');
      return kinds;
    };
    assert.deepEqual(await mints(index), ['mint', 'calls', 'calls'], 'the first share: the first mint');
    const waiting = await index.reads.all('SELECT account, since FROM late_finds');
    assert.deepEqual(
      waiting.map((r) => [String(r.account), Number(r.since)]),
      [[late.wallet, late.failedAt]],
      'the rest waits in the store, from the first failed block',
    );

    // A restart: the walk goes on from the store.
    await restartable.close(index);
    const reopened = await restartable.open();
    for (let i = 0; i < 4; i++) {
      await late.chain.produceBlock();
      await late.writeAll(reopened);
    }
    assert.deepEqual(await mints(reopened), ['mint', 'mint', 'mint'], 'every mint classified again');
    assert.deepEqual(await reopened.reads.all('SELECT account FROM late_finds'), [], 'nothing left to walk');
    await reclassified({ ...late, index: reopened, typesOf: () => typesOfTrace(reopened, late.traceId) });
  });
}

eachStore(
  "a detection given up after its last retry and found at the account's next change: the traces since the failed block are classified again",
  async (t, { index }) => {
    const late = await mintWhileDown(t, index);
    const { chain, asked } = late;
    // Still down: every retry fails, and the wallet is given up.
    for (let i = 0; i < 12 && asked.length < 1 + RETRY_DELAYS.length; i++) {
      await chain.produceBlock();
      await late.writeAll();
    }
    assert.equal(asked.length, 1 + RETRY_DELAYS.length, `asked ${asked}`);
    for (let i = 0; i < 6; i++) {
      await chain.produceBlock();
      await late.writeAll();
    }
    assert.equal(asked.length, 1 + RETRY_DELAYS.length, 'given up: not asked again');
    assert.ok(!(await late.typesOf()).includes('jetton_mint'));

    // The chain answers; alice's wallet changes again (another mint), and its newer state is detected.
    late.answer();
    await late.mintAgain(7n);
    assert.equal((await index.reads.all('SELECT owner FROM jetton_wallets WHERE address = ?', [late.wallet]))[0]?.owner, raw(late.alice));
    await reclassified(late);
  },
);

eachStore('a late find the token back-fill comes upon (a retry due during its group) is walked by the next group', async (t, { index }) => {
  const late = await mintWhileDown(t, index);
  late.answer();
  // An index with accounts from before token detection: the back-fill's cursor row, as migration 7 leaves it.
  await index.writer.writeRows([{ table: 'index_backfill_cursors', columns: ['name', 'after_key'], rows: [[TOKEN_BACKFILL, '']] }]);
  assert.equal(await index.writer.backfillTokens({ pauseMs: 0 }), 'done');
  assert.equal((await index.reads.all('SELECT owner FROM jetton_wallets WHERE address = ?', [late.wallet]))[0]?.owner, raw(late.alice));
  assert.deepEqual(
    (await index.reads.all('SELECT account, since FROM late_finds')).map((r) => [String(r.account), Number(r.since)]),
    [[late.wallet, late.failedAt]],
    'the back-fill wrote the late find with its rows',
  );
  await late.chain.produceBlock();
  await late.writeAll();
  await reclassified(late);
  assert.deepEqual(await index.reads.all('SELECT account FROM late_finds'), []);
});

const keptFailures = async (index: Index) =>
  (await index.reads.all('SELECT account, since, failures, due_at FROM token_detection_failures')).map((r) => ({
    account: String(r.account),
    since: Number(r.since),
    failures: Number(r.failures),
    waiting: r.due_at !== null,
  }));

for (const store of ['sqlite', 'postgres'] as const) {
  test(`a retry that waited when the index was closed runs after it is opened again, and the trace is classified again [${store}]`, async (t) => {
    const restartable = await restartableIndex(t, store);
    if (!restartable) return;
    const index = await restartable.open();
    const late = await mintWhileDown(t, index);
    const { asked, failures, failedAt } = late;
    assert.deepEqual(
      await keptFailures(index),
      [{ account: late.wallet, since: failedAt, failures, waiting: true }],
      'the waiting retry is kept in the store with the group that noted it',
    );

    // A restart; the chain answers again. Quiet blocks: only the retry kept in the store can find the wallet.
    await restartable.close(index);
    const reopened = await restartable.open();
    reopened.writer.useGetMethods(late.runner);
    late.answer();
    for (let i = 0; i < 8 && asked.length === failures; i++) {
      await late.chain.produceBlock();
      await late.writeAll(reopened);
    }
    assert.deepEqual(asked.slice(failures), [failedAt], 'retried after the restart, at the failed block');
    assert.equal(
      (await reopened.reads.all('SELECT owner FROM jetton_wallets WHERE address = ?', [late.wallet]))[0]?.owner,
      raw(late.alice),
    );
    assert.deepEqual(await keptFailures(reopened), [], 'the retry that succeeded is gone from the store');
    await reclassified({ ...late, index: reopened, typesOf: () => typesOfTrace(reopened, late.traceId) });
  });

  test(`an account given up before a restart and found at its next change after it: its earlier traces are classified again [${store}]`, async (t) => {
    const restartable = await restartableIndex(t, store);
    if (!restartable) return;
    const index = await restartable.open();
    const late = await mintWhileDown(t, index);
    const { chain, asked, failedAt } = late;
    // Still down: every retry fails, and the wallet is given up.
    for (let i = 0; i < 12 && asked.length < 1 + RETRY_DELAYS.length; i++) {
      await chain.produceBlock();
      await late.writeAll();
    }
    assert.equal(asked.length, 1 + RETRY_DELAYS.length, `asked ${asked}`);
    assert.deepEqual(
      await keptFailures(index),
      [{ account: late.wallet, since: failedAt, failures: 1 + RETRY_DELAYS.length, waiting: false }],
      'given up, kept by its first failed block',
    );

    await restartable.close(index);
    const reopened = await restartable.open();
    reopened.writer.useGetMethods(late.runner);
    for (let i = 0; i < 4; i++) {
      await chain.produceBlock();
      await late.writeAll(reopened);
    }
    assert.equal(asked.length, 1 + RETRY_DELAYS.length, 'still given up after the restart: not asked again');

    // The chain answers; alice's wallet changes again (another mint), and its newer state is detected.
    late.answer();
    await late.mintAgain(7n, reopened);
    assert.equal(
      (await reopened.reads.all('SELECT owner FROM jetton_wallets WHERE address = ?', [late.wallet]))[0]?.owner,
      raw(late.alice),
    );
    assert.deepEqual(await keptFailures(reopened), [], 'found: forgotten in the store too');
    await reclassified({ ...late, index: reopened, typesOf: () => typesOfTrace(reopened, late.traceId) });
  });
}
