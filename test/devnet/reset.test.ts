import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../chain/local/support/local-chain.js';
import { freePort } from '../support/ports.js';
import { runTongate, spawnTongate, stopTongate, waitUntilServing } from '../support/process.js';
import pg from 'pg';
import { getJson } from '../support/tongate.js';
import { POSTGRES_URL, requireService, uniqueName } from '../support/services.js';

test('tongate reset --network starts a local chain over, and refuses while a tongate holds its data', async (t) => {
  const dataDir = tempDir(t);
  const url = `http://127.0.0.1:${await freePort()}`;
  const env = { TONGATE_NETWORK: `testnet=${url}`, TONGATE_DATA_DIR: dataDir };
  const start = () => spawnTongate(['start', '--mining', 'manual', '--access', 'off'], env);
  const seqno = async () => (await getJson(`${url}/api/v2/getMasterchainInfo`)).body.result.last.seqno as number;

  let server = start();
  t.after(() => stopTongate(server));
  await waitUntilServing(server, url);
  const mined = await getJson(`${url}/devnet/mine`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"blocks":3}',
  });
  assert.equal(mined.status, 200, JSON.stringify(mined.body));
  const before = await seqno();
  assert.ok(before >= 3);

  const refused = await runTongate(['reset', '--network', 'testnet'], env);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /reset refused: a running tongate \(pid \d+\) uses .*; stop it/);
  assert.ok(existsSync(join(dataDir, 'testnet', 'chain.sqlite')), 'nothing removed while it runs');
  assert.equal(await seqno(), before, 'the running chain is untouched');

  await stopTongate(server);
  const reset = await runTongate(['reset', '--network', 'testnet'], env);
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, /testnet: removed .*testnet; the next tongate start begins a new chain at block 0/);
  assert.ok(!existsSync(join(dataDir, 'testnet')));

  server = start();
  await waitUntilServing(server, url);
  assert.ok((await seqno()) < before, 'a new chain, not the old one resumed');
  await stopTongate(server);

  const again = await runTongate(['reset', '--network', 'testnet', '--data-dir', join(dataDir, 'elsewhere')], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /testnet: nothing to reset/);
});

test('tongate reset refuses what it cannot start over: an unknown network, an ephemeral one', async () => {
  const unknown = await runTongate(['reset', '--network', 'nosuch', '--data-dir', '/nonexistent/tongate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--network: unknown network nosuch \(configured: mainnet, testnet\)/);
  const ephemeral = await runTongate(['reset', '--network', 'testnet', '--ephemeral']);
  assert.equal(ephemeral.code, 2);
  assert.match(ephemeral.stderr, /--ephemeral: an ephemeral network keeps nothing on disk/);
});

test("tongate reset with --database-url drops the network's PostgreSQL index schema too", async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const network = uniqueName('reset').toLowerCase().replace(/_/g, '-');
  const schema = `tongate_${network.replace(/-/g, '_')}`;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  t.after(async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`CREATE TABLE "${schema}".blocks (seqno int)`);
  const env = {
    TONGATE_NETWORK: `${network}=http://127.0.0.1:${await freePort()}`,
    TONGATE_DATA_DIR: tempDir(t),
    TONGATE_DATABASE_URL: POSTGRES_URL,
  };
  const reset = await runTongate(['reset', '--network', network], env);
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, new RegExp(`removed PostgreSQL schema ${schema}`));
  const left = await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
  assert.equal(left.rowCount, 0);
});
