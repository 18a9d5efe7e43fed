/**
 * An --ephemeral tongate keeps its keys in its memory: `tongate keys ...` (another process) is refused with the
 * way such a server's keys are made, the banner says the same, and that way works.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { renderBanner } from '../../src/cli/banner.js';
import { keyAdminOptionsFrom } from '../../src/cli/access-options.js';
import { runTongate } from '../support/process.js';
import { getJson, postJson, startTestTongate } from '../support/tongate.js';

test('tongate keys and accounts commands refuse --ephemeral without --database-url, saying where such keys are made', async () => {
  for (const args of [
    ['keys', 'create', '--network', 'testnet'],
    ['keys', 'list'],
    ['accounts', 'set', 'team', '--network', 'testnet', '--rps', '5'],
  ]) {
    const run = await runTongate([...args, '--ephemeral']);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.equal(run.stdout, '', 'no key printed');
    assert.match(run.stderr, /^tongate: bad configuration: --ephemeral: an --ephemeral tongate keeps its keys in its own memory/);
    assert.match(run.stderr, /start it with --admin-token and create keys with POST <base>\/admin\/keys/);
  }
  // Keys in PostgreSQL outlive any process: nothing to refuse (the options resolve; no connection is made here).
  const shared = keyAdminOptionsFrom(
    loadConfig({ flags: { ephemeral: true, databaseUrl: 'postgres://postgres@127.0.0.1:5432/test' }, env: {} }),
  );
  assert.equal(shared.databaseUrl, 'postgres://postgres@127.0.0.1:5432/test');
});

test('the banner says how keys are made: tongate keys create on disk, the admin API for an --ephemeral server', () => {
  const banner = (flags: Record<string, unknown>) =>
    renderBanner(loadConfig({ flags, env: {} }), [], 'keys in SQLite', { servingMs: 10, readyMs: 10 });
  const onDisk = banner({});
  assert.match(onDisk, /Without a key: 1 request\/s per client on each network/);
  assert.match(onDisk, /Create a key: KEY=\$\(tongate keys create --network <name>\)/);
  const ephemeral = banner({ ephemeral: true });
  assert.doesNotMatch(ephemeral, /tongate keys create/);
  assert.match(ephemeral, /restart with --admin-token to create them \(POST <base>\/admin\/keys\)/);
  const withToken = banner({ ephemeral: true, adminToken: 'a-token-of-32-characters-or-more-0000' });
  assert.match(withToken, /POST <base>\/admin\/keys \{"network":"<name>"\} with the admin token/);
  assert.doesNotMatch(withToken, /a-token-of-32/, 'the token itself is never printed');
});

test('the advice works: an --ephemeral tongate with --admin-token makes a key over POST /admin/keys, and the key is honoured', async (t) => {
  const adminToken = 'ephemeral-keys-admin-token-000000000000';
  const gate = await startTestTongate({ access: 'on', adminToken });
  t.after(() => gate.stop());
  const base = gate.url('testnet');
  const created = await postJson(`${base}/admin/keys`, { network: 'testnet' }, { authorization: `Bearer ${adminToken}` });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const key = created.body.key ?? created.body.result?.key;
  assert.equal(typeof key, 'string');
  for (let i = 0; i < 3; i++) {
    const answer = await getJson(`${base}/api/v2/getMasterchainInfo`, { headers: { 'x-api-key': key } });
    assert.equal(answer.status, 200, 'three requests at once with the key: above the keyless 1 request/s');
  }
  assert.equal((await getJson(`${base}/api/v2/getMasterchainInfo?api_key=nosuchkey`)).status, 401);
});
