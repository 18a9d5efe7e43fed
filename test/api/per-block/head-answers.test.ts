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

test('v3 transactions?limit=1 and accountStates: one index read per indexed block, the same bytes until the next block', async () => {
  const chain = t.chain('mainnet');
  const network = t.networks.find((n) => n.name === 'mainnet')!;
  const address = Address.parse('0:' + 'cd'.repeat(32));
  const funded = chain.fund(address, 2_000_000_000n);
  const first = await chain.produceBlock();
  await funded;
  await network.indexed!(first.id.seqno);

  // Count the index's reads behind the two endpoints (the real reader, each call passed on).
  const reader = network.index! as unknown as Record<string, (...args: unknown[]) => unknown>;
  const calls = { transactions: 0, latestStates: 0 };
  for (const name of Object.keys(calls) as Array<keyof typeof calls>) {
    const original = reader[name].bind(reader);
    reader[name] = (...args: unknown[]) => {
      calls[name]++;
      return original(...args);
    };
  }
  const latest = await text('/api/v3/transactions?limit=1');
  assert.equal(await text('/api/v3/transactions?limit=1&sort=desc&offset=0'), latest, 'the same question, spelled out');
  assert.equal(calls.transactions, 1, 'built once within the block');
  const states = await text(`/api/v3/accountStates?address=${encodeURIComponent(address.toString())}`);
  assert.equal(await text(`/api/v3/accountStates?address=${address.toRawString()}`), states, 'every spelling of the address');
  assert.equal(calls.latestStates, 1, 'built once within the block');
  const balance = (body: string) => (JSON.parse(body) as { accounts: Array<{ balance: string }> }).accounts[0].balance;
  assert.equal(balance(states), String(chain.getAccount(address).balance));
  // A filtered page is read each time.
  await text(`/api/v3/transactions?limit=1&account=${address.toRawString()}`);
  await text(`/api/v3/transactions?limit=1&account=${address.toRawString()}`);
  assert.equal(calls.transactions, 3);

  const again = chain.fund(address, 1_000_000_000n);
  const next = await chain.produceBlock();
  await again;
  await network.indexed!(next.id.seqno);
  const newer = await text('/api/v3/transactions?limit=1');
  assert.notEqual(newer, latest, 'the next block has newer transactions');
  assert.equal(calls.transactions, 4);
  const statesNext = await text(`/api/v3/accountStates?address=${address.toRawString()}`);
  assert.equal(calls.latestStates, 2);
  assert.ok(BigInt(balance(statesNext)) > BigInt(balance(states)), 'the new balance after the transfer');
  assert.equal(await text('/api/v3/transactions?limit=1'), newer);
  assert.equal(calls.transactions, 4);
});
