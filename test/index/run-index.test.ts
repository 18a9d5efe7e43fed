import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toNano } from '@ton/core';
import pg from 'pg';
import { openIndex } from '../../src/index/open-index.js';
import { runIndex } from '../../src/index/run-index.js';
import { SqliteReaderPool } from '../../src/index/worker/reader-pool.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain, tempDir, testWallet } from '../chain/local/support/local-chain.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';

test('runIndex: an ephemeral chain keeps its index to itself (a temporary SQLite file), even with a database URL', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  for (const run of [1, 2]) {
    const { chain } = await openChain(t);
    const a = testWallet(80 + run);
    await Promise.all([chain.fund(a.wallet.address, toNano('1')), chain.produceBlock()]);
    const running = await runIndex({ network: 'testnet', chain, databaseUrl: POSTGRES_URL, schema, ephemeral: true });
    assert.equal(running.index.location.kind, 'sqlite', `run ${run}`);
    assert.ok(running.index.reads instanceof SqliteReaderPool, 'v3 reads go to reader threads, not the HTTP thread');
    await running.attachment.synced();
    assert.equal(running.attachment.lastIndexed(), chain.masterchainInfo().last.id.seqno);
    assert.equal((await running.index.reader.latestStates([formatRawUpper(a.wallet.address)], false)).length, 1);
    assert.equal(
      (await running.index.reader.latestStates([formatRawUpper(testWallet(80 + 3 - run).wallet.address)], false)).length,
      0,
      'nothing of the other run',
    );
    await running.close();
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  await client.end();
  assert.equal(rows.length, 0, 'the shared database was not touched');
});

test('openIndex: instances opening one fresh PostgreSQL schema at the same moment take turns', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  const indexes = await Promise.all(Array.from({ length: 4 }, () => openIndex({ network: 'testnet', databaseUrl: POSTGRES_URL, schema })));
  for (const index of indexes) assert.equal(await index.reader.lastMasterchainSeqno(), -1);
  await Promise.all(indexes.map((index) => index.close()));
});

test('runIndex: with a data dir the index survives a restart and catches up with what the chain sealed meanwhile', async (t) => {
  const dir = tempDir(t);
  const { chain } = await openChain(t, { dataDir: dir });
  const first = await runIndex({ network: 'testnet', chain, dataDir: dir });
  await first.attachment.synced();
  await first.close();
  const a = testWallet(85);
  await Promise.all([chain.fund(a.wallet.address, toNano('1')), chain.produceBlock()]);
  await chain.produceBlock();
  const second = await runIndex({ network: 'testnet', chain, dataDir: dir });
  t.after(() => second.close());
  await second.attachment.synced();
  assert.equal(second.attachment.lastIndexed(), chain.masterchainInfo().last.id.seqno);
  assert.equal(
    (await second.index.reader.latestStates([formatRawUpper(a.wallet.address)], false)).length,
    1,
    'blocks sealed while the index was closed',
  );
});
