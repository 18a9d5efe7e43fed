/**
 * `GET /networks` (src/http/networks.ts) on a real tongate with two networks on two ports, keys on: the same list on
 * every base URL, each network with its base URL, kind and global_id; no key asked and never limited.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../support/ports.js';
import { getJson, startTestTongate, type TestTongate } from '../support/tongate.js';

let tongate: TestTongate;

before(async () => {
  tongate = await startTestTongate({
    network: [`mainnet=http://127.0.0.1:${await freePort()}`, `testnet=http://127.0.0.1:${await freePort()}`],
    access: 'on',
  });
});
after(async () => tongate?.stop());

test('GET /networks: every network with its base URL, the same on each, no key, never limited', async () => {
  const expected = {
    networks: [
      { name: 'mainnet', base_url: tongate.url('mainnet'), kind: 'local', global_id: -239 },
      { name: 'testnet', base_url: tongate.url('testnet'), kind: 'local', global_id: -3 },
    ],
  };
  for (const name of ['mainnet', 'testnet']) {
    // Keyless clients get 1 request/s on /api; this path is asked five times at once and answers each.
    const answers = await Promise.all(Array.from({ length: 5 }, () => getJson(`${tongate.url(name)}/networks`)));
    for (const answer of answers) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body, expected, name);
      assert.equal(answer.headers.get('ratelimit-policy'), null, 'not limited');
      assert.match(answer.headers.get('content-type')!, /^application\/json/);
    }
  }
});
