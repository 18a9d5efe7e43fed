/**
 * v2 POST bodies as real callers send them. `curl -d '<json>' <url>` sends its JSON as
 * `application/x-www-form-urlencoded`: toncenter's v2 reads every POST body as JSON whatever its Content-Type, and so
 * does tongate under /api/v2 (REST and JSON-RPC: a real transfer sent with sendBoc lands on the chain). Form fields
 * (`address=...`) are a 422 saying to send JSON; v3 still refuses the type (415). The same holds for JSON typed
 * `text/plain` (what fetch sends for a string body without headers) and for a body with no Content-Type at all
 * (`curl -H 'Content-Type:' --data-binary`); v3 reads them as before. A JSON-RPC batch (an array of
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

/** What `curl -H 'Content-Type: <type>' --data-binary "$body" $url` sends; no type: the header left out (`-H 'Content-Type:'`). */
const curlTyped = (path: string, body: string, type?: string) =>
  getJson(`${base}${path}`, {
    method: 'POST',
    // A byte body: fetch adds no Content-Type of its own (a string body would be typed text/plain).
    headers: type ? { 'content-type': type } : {},
    body: new TextEncoder().encode(body),
  });

test('JSON typed text/plain, with no Content-Type or an unknown one: read as JSON under v2; v3 as before', async () => {
  const address = wallet.address.toString();
  const balance = (await getJson(`${base}/api/v2/getAddressBalance?address=${address}`)).body.result;
  assert.ok(BigInt(balance) > 0n);
  // fetch's own choice for a string body without headers: text/plain;charset=UTF-8
  const plain = await getJson(`${base}/api/v2/getAddressBalance`, { method: 'POST', body: JSON.stringify({ address }) });
  assert.deepEqual([plain.status, plain.body.result], [200, balance], JSON.stringify(plain.body));
  for (const type of ['text/plain', undefined, 'application/octet-stream']) {
    const rest = await curlTyped('/api/v2/getAddressBalance', JSON.stringify({ address }), type);
    assert.deepEqual([rest.status, rest.body.result], [200, balance], `${type}: ${JSON.stringify(rest.body)}`);
    const rpc = await curlTyped(
      '/api/v2/jsonRPC',
      JSON.stringify({ id: '9', jsonrpc: '2.0', method: 'getAddressBalance', params: { address } }),
      type,
    );
    assert.deepEqual([rpc.status, rpc.body.result, rpc.body.id], [200, balance, '9'], `${type}: ${JSON.stringify(rpc.body)}`);
  }
  const empty = await curlTyped('/api/v2/getMasterchainInfo', '', 'text/plain');
  assert.equal(empty.status, 200, 'an empty body: no parameters');

  const words = await curlTyped('/api/v2/getAddressBalance', 'hello', 'text/plain');
  assert.deepEqual([words.status, words.body.ok, words.body.code], [422, false, 422]);
  assert.match(words.body.error, /not a JSON object.*v2 reads POST bodies as JSON/);
  const broken = await curlTyped('/api/v2/sendBoc', '{"boc":');
  assert.equal(broken.status, 400);
  assert.match(broken.body.error, /not valid JSON/);
  assert.equal((await curlTyped('/api/v2/noSuchMethod', '{"boc":', 'text/plain')).status, 404, 'an unknown path: its 404 first');

  // v3 reads bodies by their type, as toncenter's v3: text/plain reaches the route as text, no type is refused.
  const v3Plain = await curlTyped('/api/v3/message', JSON.stringify({ boc: 'x' }), 'text/plain');
  assert.deepEqual([v3Plain.status, v3Plain.body], [422, { error: 'request body must be a JSON object' }]);
  const v3None = await curlTyped('/api/v3/message', JSON.stringify({ boc: 'x' }));
  assert.deepEqual([v3None.status, v3None.body], [415, { error: 'unsupported content type: send application/json' }]);
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
