/**
 * Paths in any case and with a trailing slash reach their route, as toncenter's v3 (fiber's defaults) matches them:
 * the same answer as the path as documented, on GET and POST, v2 and v3. An unknown path is still a 404.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getJson, postJson, startTestTongate, type TestTongate } from '../support/tongate.js';

let tongate: TestTongate;
before(async () => {
  tongate = await startTestTongate();
});
after(() => tongate?.stop());

test('a path in another case or with a trailing slash answers as the documented path', async () => {
  const base = tongate.url('mainnet');
  const spellings: Array<[documented: string, others: string[]]> = [
    ['/api/v3/masterchainInfo', ['/api/v3/masterchainInfo/', '/api/v3/MasterchainInfo', '/API/V3/MASTERCHAININFO/']],
    ['/api/v2/getMasterchainInfo', ['/api/v2/getMasterchainInfo/', '/api/v2/getmasterchaininfo']],
    ['/api/v3/decode?opcodes=0x0f8a7ea5', ['/api/v3/decode/?opcodes=0x0f8a7ea5', '/api/v3/Decode?opcodes=0x0f8a7ea5']],
  ];
  for (const [documented, others] of spellings) {
    const expected = await getJson(`${base}${documented}`);
    assert.equal(expected.status, 200, documented);
    // v2's `@extra` differs per request: its result is compared.
    const answer = (body: any) => body.result ?? body;
    for (const other of others) assert.deepEqual(answer((await getJson(`${base}${other}`)).body), answer(expected.body), other);
  }
  const posted = await postJson(`${base}/api/v3/DECODE/`, { opcodes: ['0x7362d09c'] });
  assert.deepEqual(posted.body, { opcodes: ['jetton_notify'], bodies: [] });
  const unknown = await getJson(`${base}/api/v3/masterchainInfos/`);
  assert.deepEqual([unknown.status, unknown.body], [404, { error: 'not found' }]);
});
