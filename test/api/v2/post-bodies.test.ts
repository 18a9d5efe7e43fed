/**
 * v2 POST bodies as real callers send them. `curl -d '<json>' <url>` sends its JSON as
 * `application/x-www-form-urlencoded`: toncenter's v2 reads every POST body as JSON whatever its Content-Type, and so
 * does tongate under /api/v2 (REST and JSON-RPC: a real transfer sent with sendBoc lands on the chain). Form fields
 * (`address=...`) are a 422 saying to send JSON; v3 still refuses the type (415). A JSON-RPC batch (an array of
 * calls) is refused with a 422 naming it, as toncenter answers no batch; nothing in it runs.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { internal, toNano } from '@ton/core';
import { BATCH_REFUSED } from '../../../src/api/v2/routes.js';
import { getJson, startTestTongate, type TestTongate } from '../../support/tongate.js';
import { fund, seedWallet, settle, transferBoc } from './support/scenario.js';

let tongate: TestTongate;
let base: string;
const wallet = seedWallet(71);
const receiver = seedWallet(72);

before(async () => {
  tongate = await startTestTongate();
  base = tongate.url('mainnet');
  await fund(tongate.chain('mainnet'), wallet.address, toNano('5'));
});
after(async () => {
  await tongate?.stop();
});

/** What `curl -d "$body" $url` sends: the body as it is, typed as a form. */
const curlD = (path: string, body: string) =>
  getJson(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

test('JSON sent as a form (curl -d): read as JSON, the same answer as with application/json', async () => {
  const address = wallet.address.toString();
  const asForm = await curlD('/api/v2/getAddressBalance', JSON.stringify({ address }));
  const asJson = await getJson(`${base}/api/v2/getAddressBalance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address }),
  });
  assert.equal(asForm.status, 200, JSON.stringify(asForm.body));
  assert.equal(asForm.body.result, asJson.body.result);
  assert.equal(asForm.body.result, toNano('5').toString());

  const rpc = await curlD('/api/v2/jsonRPC', JSON.stringify({ id: '7', jsonrpc: '2.0', method: 'getAddressBalance', params: { address } }));
  assert.deepEqual([rpc.status, rpc.body.result, rpc.body.id], [200, toNano('5').toString(), '7']);

  // a transfer sent as `curl -d '{"boc":"..."}' .../sendBoc` lands on the chain
  const boc = transferBoc(wallet, 0, [internal({ to: receiver.address, value: toNano('1'), bounce: false })], true).toString('base64');
  const sent = await curlD('/api/v2/sendBoc', JSON.stringify({ boc }));
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.body.ok, true);
  await settle(tongate.chain('mainnet'));
  const received = await curlD('/api/v2/getAddressBalance', JSON.stringify({ address: receiver.address.toString() }));
  const got = BigInt(received.body.result);
  assert.ok(got > toNano('0.99') && got <= toNano('1'), `the receiver got the TON (less its storage fee): ${got}`);

  const empty = await curlD('/api/v2/getMasterchainInfo', '');
  assert.equal(empty.status, 200, 'an empty form body: no parameters');
  assert.equal(empty.body.result['@type'], 'blocks.masterchainInfo');
});

test('form fields, broken JSON in a form, a form on v3: 4xx naming the problem', async () => {
  const fields = await curlD('/api/v2/getAddressBalance', new URLSearchParams({ address: wallet.address.toString() }).toString());
  assert.equal(fields.status, 422);
  assert.equal(fields.body.ok, false);
  assert.equal(fields.body.code, 422);
  assert.match(fields.body.error, /form fields \(name=value\).*send \{"name": value/);
  const rpcFields = await curlD('/api/v2/jsonRPC', 'method=getMasterchainInfo');
  assert.equal(rpcFields.status, 422);
  assert.match(rpcFields.body.error, /form fields/);

  const broken = await curlD('/api/v2/sendBoc', '{"boc":');
  assert.equal(broken.status, 400);
  assert.match(broken.body.error, /not valid JSON/);

  const v3 = await curlD('/api/v3/message', JSON.stringify({ boc: 'x' }));
  assert.equal(v3.status, 415);
  assert.deepEqual(v3.body, { error: 'unsupported content type: application/x-www-form-urlencoded; send application/json' });
});

test('a JSON-RPC batch is refused with a 422 naming it; no call of it runs', async () => {
  const balanceBefore = await getJson(`${base}/api/v2/getAddressBalance?address=${receiver.address.toString()}`);
  const batch = [
    { id: '1', jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} },
    { id: '2', jsonrpc: '2.0', method: 'sendBoc', params: { boc: transferBoc(receiver, 0, [], true).toString('base64') } },
  ];
  for (const send of [
    () =>
      getJson(`${base}/api/v2/jsonRPC`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) }),
    () => curlD('/api/v2/jsonRPC', JSON.stringify(batch)),
  ]) {
    const answer = await send();
    assert.equal(answer.status, 422);
    assert.deepEqual(answer.body, { ok: false, error: BATCH_REFUSED, code: 422 });
  }
  assert.deepEqual(
    await getJson(`${base}/api/v2/jsonRPC`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }).then((a) => [
      a.status,
      a.body.error,
    ]),
    [422, BATCH_REFUSED],
    'an empty batch too',
  );
  await settle(tongate.chain('mainnet'));
  const state = await getJson(`${base}/api/v2/getAddressState?address=${receiver.address.toString()}`);
  assert.equal(state.body.result, 'uninitialized', "the batch's sendBoc did not run (the receiver was not deployed)");
  assert.equal(
    (await getJson(`${base}/api/v2/getAddressBalance?address=${receiver.address.toString()}`)).body.result,
    balanceBefore.body.result,
  );
});
