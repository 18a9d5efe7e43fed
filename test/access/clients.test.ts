/**
 * Real clients against the real server with the access layer on: @ton/ton's TonClient and tonweb
 * configured with an API key work; over the key's limit (and without a key, over 1 request/s)
 * they see the 429 as an error; an unknown key is a 401 error. Keys are created through the admin
 * API of the running server. The server's clock is a manual one that never moves, so each burst falls in one
 * window however long a loaded machine takes to send it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestTongate, type TestTongate } from '../support/tongate.js';
import { ManualTimers } from '../support/manual-timers.js';

const ADMIN = 'clients-test-admin-token';
let tongate: TestTongate;
let endpoint: string;

async function createKey(network: string, rps: number): Promise<string> {
  const res = await fetch(`${tongate.url(network)}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ network, rps }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { result: { key: string } }).result.key;
}

before(async () => {
  tongate = await startTestTongate({ access: 'on', adminToken: ADMIN }, {}, { clock: new ManualTimers() });
  endpoint = `${tongate.url('mainnet')}/api/v2/jsonRPC`;
});
after(() => tongate.stop());

test('TonClient with an API key: works, and sees 429 over the key limit and 401 for an unknown key', async () => {
  const { TonClient } = await import('@ton/ton');
  const key = await createKey('mainnet', 3);
  const client = new TonClient({ endpoint, apiKey: key });
  const info = await client.getMasterchainInfo();
  assert.equal(info.workchain, -1);
  // A burst of 8 at once: 2 more fit in this second, the other 6 are refused, as errors.
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => client.getMasterchainInfo()));
  const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
  assert.equal(results.length - refused.length, 2);
  for (const r of refused) {
    assert.equal(r.reason?.response?.status, 429, String(r.reason));
    assert.deepEqual(r.reason.response.data, { ok: false, error: 'Ratelimit exceeded', code: 429 });
    assert.equal(r.reason.response.headers['retry-after'], '1');
  }
  const unknown = new TonClient({ endpoint, apiKey: 'tg_notAKeyAtAll' });
  await assert.rejects(
    unknown.getMasterchainInfo(),
    (e: any) => e.response?.status === 401 && e.response.data.error === 'API key does not exist',
  );
  const testnetKey = await createKey('testnet', 10);
  await assert.rejects(new TonClient({ endpoint, apiKey: testnetKey }).getMasterchainInfo(), (e: any) => e.response?.status === 403);
});

test('tonweb with an API key: works, and sees 429 as an error; without a key, 1 request/s', async () => {
  const TonWeb = ((await import('tonweb')) as any).default;
  const key = await createKey('mainnet', 2);
  const provider = new TonWeb.HttpProvider(endpoint, { apiKey: key });
  const info = await provider.getMasterchainInfo();
  assert.equal(info.last.workchain, -1);
  const results = await Promise.allSettled(Array.from({ length: 6 }, () => provider.getMasterchainInfo()));
  const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
  assert.equal(results.length - refused.length, 1);
  for (const r of refused) assert.equal(r.reason, 'Ratelimit exceeded');

  // Keyless (a separate network, so the keyed calls above did not touch its keyless quota).
  const keyless = new TonWeb.HttpProvider(`${tongate.url('testnet')}/api/v2/jsonRPC`);
  const first = await Promise.allSettled([keyless.getMasterchainInfo(), keyless.getMasterchainInfo(), keyless.getMasterchainInfo()]);
  assert.equal(first.filter((r) => r.status === 'fulfilled').length, 1);
  assert.ok(first.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason === 'Ratelimit exceeded'));
});
