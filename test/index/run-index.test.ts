import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toNano } from '@ton/core';
import { runIndex } from '../../src/index/run-index.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain, tempDir, testWallet } from '../chain/support.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';

test('runIndex: an ephemeral chain gets an empty index on every start, even in a PostgreSQL schema that outlives it', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  for (const run of [1, 2]) {
    const { chain } = await openChain(t);
    const a = testWallet(80 + run);
    await Promise.all([chain.fund(a.wallet.address, toNano('1')), chain.produceBlock()]);
    const running = await runIndex({ network: 'testnet', chain, databaseUrl: POSTGRES_URL, schema, ephemeral: true });
    await running.attachment.synced();
    assert.equal(running.attachment.lastIndexed(), chain.masterchainInfo().last.id.seqno, `run ${run}`);
    assert.equal((await running.index.reader.latestStates([formatRawUpper(a.wallet.address)], false)).length, 1);
    assert.equal((await running.index.reader.latestStates([formatRawUpper(testWallet(80 + 3 - run).wallet.address)], false)).length, 0, 'nothing of the other run');
    await running.close();
  }
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
  assert.equal((await second.index.reader.latestStates([formatRawUpper(a.wallet.address)], false)).length, 1, 'blocks sealed while the index was closed');
});
