/**
 * Answers kept per block on a real tongate (manual blocks): the masterchain info and an account's balance are the
 * same bytes on GET, POST and JSON-RPC within a block, and follow the chain at the next block; v3's masterchainInfo
 * follows the index.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address } from '@ton/core';
import { startTestTongate, type TestTongate } from '../../support/tongate.js';

let t: TestTongate;
let base: string;
before(async () => {
  t = await startTestTongate();
  base = t.url('mainnet');
});
after(() => t?.stop());

async function text(path: string, init?: RequestInit): Promise<string> {
  const response = await fetch(`${base}${path}`, init);
  assert.equal(response.status, 200, path);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return response.text();
}
const post = (path: string, body: unknown) =>
  text(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
/** The envelope without its per-call `@extra`. */
const withoutExtra = (body: string) => {
  const { '@extra': extra, ...rest } = JSON.parse(body) as Record<string, unknown>;
  assert.match(String(extra), /^\d+:0:\d+\.\d{6}$/);
  return rest;
};

test('getMasterchainInfo: one result on GET, POST and JSON-RPC, the next block at the next block', async () => {
  const chain = t.chain('mainnet');
  const get = withoutExtra(await text('/api/v2/getMasterchainInfo'));
  assert.deepEqual(withoutExtra(await text('/api/v2/getMasterchainInfo')), get);
  assert.deepEqual(withoutExtra(await post('/api/v2/getMasterchainInfo', {})), get);
  const rpc = withoutExtra(await post('/api/v2/jsonRPC', { id: 7, jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} }));
  assert.deepEqual(rpc, { ...get, jsonrpc: '2.0', id: '7' });
  const seqno = (get.result as { last: { seqno: number } }).last.seqno;
  assert.equal(seqno, chain.masterchainInfo().last.id.seqno);

  await chain.produceBlock();
  const next = withoutExtra(await text('/api/v2/getMasterchainInfo'));
  assert.equal((next.result as { last: { seqno: number } }).last.seqno, seqno + 1);
  const rpcNext = withoutExtra(await post('/api/v2/jsonRPC', { jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} }));
  assert.deepEqual(rpcNext, { ...next, jsonrpc: '2.0' });
});

test('getAddressBalance and getAddressInformation at the head follow a transfer at its block', async () => {
  const chain = t.chain('mainnet');
  const address = Address.parse('0:' + 'ab'.repeat(32));
  const q = `?address=${encodeURIComponent(address.toString())}`;
  const before = withoutExtra(await text(`/api/v2/getAddressBalance${q}`));
  assert.equal(before.result, '0');
  const info = withoutExtra(await text(`/api/v2/getAddressInformation${q}`));
  assert.equal((info.result as { balance: string }).balance, '0');

  const funded = chain.fund(address, 1_000_000_000n);
  await chain.produceBlock();
  await funded;
  // The same address in another form is the same answer.
  const after = withoutExtra(await text(`/api/v2/getAddressBalance?address=${address.toRawString()}`));
  assert.equal(after.result, String(chain.getAccount(address).balance));
  assert.notEqual(after.result, '0');
  const infoAfter = withoutExtra(await text(`/api/v2/getAddressInformation${q}`));
  assert.equal((infoAfter.result as { balance: string }).balance, after.result);
  // As of an earlier block: read, not kept.
  const atBefore = withoutExtra(await text(`/api/v2/getAddressBalance${q}&seqno=1`));
  assert.equal(atBefore.result, '0');
});

test("v3 masterchainInfo follows the index's newest block", async () => {
  const chain = t.chain('mainnet');
  const network = t.networks.find((n) => n.name === 'mainnet')!;
  await network.indexed!(chain.masterchainInfo().last.id.seqno);
  const first = JSON.parse(await text('/api/v3/masterchainInfo')) as { last: { seqno: number }; first: { seqno: number } };
  assert.equal(first.last.seqno, network.indexedSeqno!());
  const block = await chain.produceBlock();
  await network.indexed!(block.id.seqno);
  const next = JSON.parse(await text('/api/v3/masterchainInfo')) as { last: { seqno: number }; first: { seqno: number } };
  assert.equal(next.last.seqno, block.id.seqno);
  assert.equal(next.first.seqno, first.first.seqno);
});
