/**
 * Actions in the index, on both stores, from the sandbox story's real transactions (test/index/support): each
 * trace classified in the DB transaction that completes it (also when it started in an earlier group), the rows
 * read back by account, trace and transaction; an index upgraded to actions gets them from the back-fill
 * (resumable, progress in the log); a snapshot restore takes the later traces' actions away.
 */
import assert from 'node:assert/strict';
import type { BlockchainTransaction } from '@ton/sandbox';
import type { Index } from '../../../src/index/open-index.js';
import { expandActionTypes } from '../../../src/index/actions/versions.js';
import { actionText, type StoredAction } from '../../../src/index/actions/reader.js';
import { ACTIONS_MIGRATION } from '../../../src/index/actions/schema.js';
import { CLASSIFIER_VERSION_MIGRATION } from '../../../src/index/actions/classifier-version-schema.js';
import { claimClassifierVersion } from '../../../src/index/actions/classifier-version.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { eachStore, openStore } from '../support/stores.js';
import { FIRST_SEQNO, story, type Story } from '../support/sandbox-blocks.js';
import type { IndexedBlock } from '../../../src/index/types.js';

const LATEST = expandActionTypes([]);
const PAGE = { limit: 100, offset: 0 };
const b64 = (tx: { hash(): Buffer }) => tx.hash().toString('base64');
const parsed = (a: StoredAction) => JSON.parse(actionText(a, { accounts: true }));

/** The story's block `step` with only the transactions `keep` selects, renumbered as masterchain block `seqno`. */
function cut(s: Story, step: number, seqno: number, keep: (tx: BlockchainTransaction) => boolean, from = step): IndexedBlock {
  const renumber = <T extends { id: { seqno: number } }>(b: T): T => ({ ...b, id: { ...b.id, seqno } });
  const header = s.blocks[step];
  return {
    masterchain: { ...renumber(header.masterchain), shardBlocks: header.masterchain.shardBlocks?.map((id) => ({ ...id, seqno })) },
    shards: header.shards.map(renumber),
    transactions: s.blocks[from].transactions.filter((item) => keep(item.transaction as BlockchainTransaction)),
    accounts: s.blocks[from].accounts,
  };
}

async function traceActions(index: Index, tx: { hash(): Buffer }) {
  return (await index.reader.actions.actions({ trace_id: [tx.hash()], supported: LATEST }, 'asc', PAGE)).map(parsed);
}

/** Every action of the index, as the answer writes them. */
const everything = async (index: Index) =>
  (await index.reader.actions.actions({ supported: LATEST }, 'asc', { limit: 1000, offset: 0 })).map(parsed);

eachStore('actions: each trace classified as it completes, read by trace, account and transaction', async (t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const A = formatRawUpper(s.walletA);
  const B = formatRawUpper(s.walletB);

  const deploy = await traceActions(index, s.deployA);
  assert.deepEqual(
    deploy.map((a) => [a.type, a.success, a.details.comment ?? null]),
    [
      ['contract_deploy', true, null],
      ['ton_transfer', true, 'hello'],
      ['ton_transfer', true, 'to treasury'],
    ],
    "A's deployment by its first external, then its two transfers",
  );
  assert.deepEqual([...deploy[1].transactions].sort(), [b64(s.deployA), b64(s.helloReceived)].sort());
  assert.equal(deploy[1].details.destination, B);
  assert.deepEqual([...deploy[1].accounts].sort(), [A, B].sort());
  assert.equal(deploy[1].trace_id, b64(s.deployA));
  assert.equal(deploy[1].finality, 'finalized');

  const bounce = await traceActions(index, s.bounceSent);
  assert.deepEqual(
    bounce.map((a) => [a.type, a.success]),
    [
      ['ton_transfer', false],
      ['call_contract', true],
    ],
    'a bounced transfer fails; the bounce back is a call',
  );
  assert.equal(bounce[1].details.opcode, '0xffffffff');

  const states = await index.reader.actions.classificationStates(s.transactions.map((tx) => tx.hash()));
  assert.equal(states.get(b64(s.deployA)), 'ok');
  assert.equal(states.get(b64(s.bounceSent)), 'ok');

  // By account: every action naming A, the newest trace first; by transaction and message: the actions holding them.
  const ofA = (await index.reader.actions.actions({ account: A, supported: LATEST }, 'desc', PAGE)).map(parsed);
  assert.ok(ofA.length >= 6);
  assert.ok(ofA.every((a) => a.accounts.includes(A)));
  const ends = ofA.map((a) => BigInt(a.trace_end_lt));
  assert.deepEqual(
    ends,
    [...ends].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)),
    'newest trace first',
  );
  const byTx = (await index.reader.actions.actions({ tx_hash: [s.helloReceived.hash()], supported: LATEST }, 'asc', PAGE)).map(parsed);
  assert.deepEqual(
    byTx.map((a) => a.details.comment),
    ['hello'],
    'only the action holding that transaction',
  );
  const inMsg = s.helloReceived.inMessage!;
  const { beginCell, storeMessage } = await import('@ton/core');
  const byMsg = (
    await index.reader.actions.actions(
      { msg_hash: [beginCell().store(storeMessage(inMsg)).endCell().hash()], supported: LATEST },
      'asc',
      PAGE,
    )
  ).map(parsed);
  // toncenter's rule: a message is held by both its transactions, the receiver's and the sender's (A's, which
  // every action of that trace holds: it started them all).
  assert.deepEqual(
    byMsg.map((a) => a.type),
    ['contract_deploy', 'ton_transfer', 'ton_transfer'],
  );
  const page = await index.reader.actions.actions({ account: A, supported: LATEST }, 'desc', { limit: 2, offset: 1 });
  assert.deepEqual(page.map(parsed), ofA.slice(1, 3));
  assert.deepEqual(
    (await index.reader.actions.actions({ account: A, action_type: ['contract_deploy'], supported: LATEST }, 'asc', PAGE)).map(
      (a) => parsed(a).type,
    ),
    ['contract_deploy'],
  );
  assert.ok(
    (await index.reader.actions.actions({ account: A, exclude_action_type: ['ton_transfer'], supported: LATEST }, 'asc', PAGE)).every(
      (a) => parsed(a).type !== 'ton_transfer',
    ),
  );
  const ids = await index.reader.actions.actions(
    { action_id: [Buffer.from(deploy[1].action_id, 'base64')], account: B, supported: LATEST },
    'asc',
    PAGE,
  );
  assert.deepEqual(ids.map(parsed), [deploy[1]]);
  t.diagnostic(`${ofA.length} actions of A`);
});

eachStore(
  'actions: a trace that completes in a later group is classified with its earlier transactions from the store',
  async (_t, { index }) => {
    const s = await story();
    await index.writer.write(s.blocks[0]);
    await index.writer.write(cut(s, 1, FIRST_SEQNO + 1, (tx) => tx === s.deployA));
    assert.deepEqual(await traceActions(index, s.deployA), [], 'pending: nothing yet');
    assert.equal((await index.reader.actions.classificationStates([s.deployA.hash()])).size, 0);
    await index.writer.write(cut(s, 2, FIRST_SEQNO + 2, (tx) => tx === s.helloReceived || tx === s.treasuryReceived, 1));
    const actions = await traceActions(index, s.deployA);
    assert.deepEqual(
      actions.map((a) => a.type),
      ['contract_deploy', 'ton_transfer', 'ton_transfer'],
    );
    assert.equal(actions[0].trace_mc_seqno_end, FIRST_SEQNO + 2);
    // Written again (a catch-up overlapping the live feed): nothing twice.
    await index.writer.write(cut(s, 2, FIRST_SEQNO + 2, (tx) => tx === s.helloReceived || tx === s.treasuryReceived, 1));
    assert.deepEqual(await traceActions(index, s.deployA), actions);
  },
);

for (const name of ['sqlite', 'postgres'] as const)
  test(`actions: an index upgraded to actions is given them by the back-fill, resumably, with progress in the log [${name}]`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'tongate-actions-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const opened = await openStore(t, name, 'testnet', dir);
    if (!opened) return;
    const { index, reopen } = opened;
    const s = await story();
    for (const block of s.blocks) await index.writer.write(block);
    const live = await everything(index);
    assert.ok(live.length > 0);
    // The index as an earlier tongate left it: no actions tables, migration 11 not applied.
    const driver = (index.writer as unknown as { driver: import('../../../src/index/sql/driver.js').SqlDriver }).driver;
    await driver.write(
      [],
      [
        'DROP TABLE actions',
        'DROP TABLE action_accounts',
        'DROP TABLE trace_classifications',
        `DELETE FROM index_migrations WHERE version IN (${ACTIONS_MIGRATION.version}, ${CLASSIFIER_VERSION_MIGRATION.version})`,
      ],
    );
    await index.close();

    const upgraded = await reopen();
    t.after(() => upgraded.close());
    assert.deepEqual(await everything(upgraded), [], 'nothing classified yet');
    const lines: string[] = [];
    const logger = { info: (_o: object, message: string) => lines.push(message) };
    let groups = 0;
    const first = await upgraded.writer.backfillActions({ logger, groupTraces: 2, pauseMs: 0, stopped: () => groups++ >= 1 });
    assert.equal(first, 'stopped');
    const partial = await everything(upgraded);
    assert.ok(partial.length > 0 && partial.length < live.length, `one group of two traces done: ${partial.length} of ${live.length}`);
    assert.equal(await upgraded.writer.backfillActions({ logger, groupTraces: 2, pauseMs: 0, progressEveryMs: 0 }), 'done');
    assert.deepEqual(await everything(upgraded), live, 'the same actions as classified live');
    assert.ok(
      lines.some((l) => /classifying the actions of the traces indexed before/.test(l)),
      lines.join(' | '),
    );
    assert.ok(
      lines.some((l) => /actions back-fill: \d+ of \d+ traces/.test(l)),
      `progress: ${lines.join(' | ')}`,
    );
    assert.ok(
      lines.some((l) => /actions back-fill: done/.test(l)),
      lines.join(' | '),
    );
    assert.equal(await upgraded.writer.backfillActions({ logger }), 'none', 'the cursor row is gone: nothing more to do');
  });

eachStore('actions: traces an older classifier classified are classified again by the back-fill, resumably', async (t, { index }) => {
  // Classified live by "version 1"; its answers stand for an older classifier's (stale docs).
  const undo = claimClassifierVersion(1);
  t.after(undo);
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const live = await everything(index);
  assert.ok(live.length > 0);
  const driver = (index.writer as unknown as { driver: import('../../../src/index/sql/driver.js').SqlDriver }).driver;
  await driver.write([], [`UPDATE actions SET doc = '{"type":"stale"}'`], []);
  const stale = await everything(index);
  assert.notDeepEqual(stale, live, 'the stored answers are the old ones');
  assert.equal(await index.writer.backfillActions({ pauseMs: 0 }), 'none', 'the same version: nothing to do');

  claimClassifierVersion(2);
  const lines: string[] = [];
  const logger = { info: (_o: object, message: string) => lines.push(message) };
  let groups = 0;
  assert.equal(await index.writer.backfillActions({ logger, groupTraces: 2, pauseMs: 0, stopped: () => groups++ >= 1 }), 'stopped');
  const [left] = await driver.all('SELECT COUNT(*) AS n FROM trace_classifications WHERE classifier_version < 2');
  const [all] = await driver.all('SELECT COUNT(*) AS n FROM trace_classifications');
  assert.ok(Number(left.n) > 0 && Number(left.n) < Number(all.n), `one group done: ${left.n} of ${all.n} left`);
  assert.equal(await index.writer.backfillActions({ logger, groupTraces: 2, pauseMs: 0, progressEveryMs: 0 }), 'done');
  assert.deepEqual(await everything(index), live, 'every trace classified again: the answers of today');
  const [after] = await driver.all('SELECT COUNT(*) AS n FROM trace_classifications WHERE classifier_version < 2');
  assert.equal(Number(after.n), 0);
  assert.ok(
    lines.some((l) => /classifying them again/.test(l)),
    lines.join(' | '),
  );
  assert.ok(
    lines.some((l) => /actions back-fill: done/.test(l)),
    lines.join(' | '),
  );
  assert.equal(await index.writer.backfillActions({ logger }), 'none', 'all of today: nothing more');
});

eachStore('actions: a snapshot restore takes away the actions of the traces that ended after it', async (_t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  assert.ok((await traceActions(index, s.bounceSent)).length > 0);
  await index.rewind({ seqno: FIRST_SEQNO + 1, accounts: [] });
  assert.equal((await traceActions(index, s.deployA)).length, 3, 'a trace that ended by then keeps its actions');
  assert.deepEqual(await traceActions(index, s.bounceSent), []);
  assert.deepEqual(await traceActions(index, s.replySent), []);
  assert.equal((await index.reader.actions.classificationStates([s.bounceSent.hash()])).size, 0);
  const A = formatRawUpper(s.walletA);
  const left = (await index.reader.actions.actions({ account: A, supported: LATEST }, 'asc', PAGE)).map(parsed);
  assert.ok(
    left.every((a) => a.trace_mc_seqno_end <= FIRST_SEQNO + 1),
    'no account row of a dropped action is left',
  );
  // The chain goes on from there: the same blocks again classify the same actions.
  for (const block of s.blocks.slice(2)) await index.writer.write(block);
  assert.equal((await traceActions(index, s.bounceSent)).length, 2);
});

eachStore(
  'a restore to before the first block empties the whole index, the late finds and failed detections too',
  async (_t, { index }) => {
    const s = await story();
    for (const block of s.blocks) await index.writer.write(block);
    const driver = (index.writer as unknown as { driver: import('../../../src/index/sql/driver.js').SqlDriver }).driver;
    const A = formatRawUpper(s.walletA);
    await driver.write(
      [],
      [
        `INSERT INTO late_finds (account, since, from_lt) VALUES ('${A}', ${FIRST_SEQNO}, NULL)`,
        `INSERT INTO token_detection_failures (account, since, seqno, failures, due_at, candidate, noted) VALUES ('${A}', ${FIRST_SEQNO}, ${FIRST_SEQNO}, 1, NULL, NULL, 1)`,
      ],
      [],
    );
    const count = async (table: string) => Number((await driver.all(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
    for (const table of ['blocks', 'transactions', 'actions', 'late_finds', 'token_detection_failures'])
      assert.ok((await count(table)) > 0, table);
    await index.rewind({ seqno: -1, accounts: [] });
    for (const table of ['blocks', 'transactions', 'actions', 'late_finds', 'token_detection_failures'])
      assert.equal(await count(table), 0, table);
  },
);
