/**
 * A trace spread over blocks (a local chain holding one transaction per block: --max-block-transactions 1): each
 * block's transactions are streamed with that block, at `confirmed` from what the open block executed and at
 * `finalized` from the index, each transaction once per finality; a later block never tells an earlier block's
 * transaction again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toNano } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import type { LocalChain } from '../../src/chain/local/index.js';
import { testWallet, v4Transfer } from '../chain/local/support/local-chain.js';
import { startTestTongate, type TestTongate } from '../support/tongate.js';
import { wsClient } from './support/clients.js';

let tongate: TestTongate;
let chain: LocalChain;
const owner = testWallet(93);
const to = testWallet(293).wallet.address;

before(async () => {
  tongate = await startTestTongate({ maxBlockTransactions: 1 });
  chain = tongate.chain('testnet');
  // One transaction per block: the faucet's transfer takes a block for each of its transactions.
  const funded = chain.fund(owner.wallet.address, toNano('10'));
  for (let i = 0; i < 4; i++) await chain.produceBlock();
  await funded;
  await chain.sendExternal(v4Transfer(owner, 0, to, toNano('0.1'), { deploy: true }));
  // The deploying transfer's two transactions, one block each (and whatever else waits).
  for (let i = 0; i < 4; i++) await chain.produceBlock();
});
after(() => tongate.stop());

test('a trace over two blocks: each transaction confirmed and finalized once, with its own block', async (t) => {
  const client = wsClient(t, `${tongate.url('testnet').replace('http', 'ws')}/api/streaming/v2/ws`);
  await client.next((r) => r.open, 'open');
  client.send({
    operation: 'subscribe',
    id: 's',
    types: ['transactions'],
    addresses: [owner.wallet.address.toString(), to.toString()],
    min_finality: 'confirmed',
  });
  await client.next((r) => r.message?.status === 'subscribed', 'subscribed');

  await chain.sendExternal(v4Transfer(owner, 1, to, toNano('0.2')));
  const first = await chain.produceBlock();
  const second = await chain.produceBlock();
  const seqnos = [first, second].map((b) => b.id.seqno);

  const told: { finality: string; account: string; hash: string; seqno: number; balanceAfter: unknown }[] = [];
  while (told.length < 4) {
    const m = (await client.next((r) => r.message?.type === 'transactions', 'a transactions notification')).message;
    for (const tx of m.transactions)
      told.push({
        finality: m.finality,
        account: tx.account,
        hash: tx.hash,
        seqno: tx.mc_block_seqno,
        balanceAfter: tx.account_state_after.balance,
      });
  }
  // A block more, then a ping: whatever the stream still had to say of these blocks comes before the pong.
  await chain.produceBlock();
  await tongate.networks.find((n) => n.name === 'testnet')!.indexed?.(seqnos[1] + 1);
  client.send({ operation: 'ping', id: 'p' });
  const next = await client.next((r) => r.message?.type === 'transactions' || r.message?.status === 'pong', 'pong');
  assert.equal(next.message.status, 'pong', `nothing more: ${JSON.stringify(next.message)}`);

  const wallet = formatRawUpper(owner.wallet.address);
  const dest = formatRawUpper(to);
  const named = told.map(
    (x) => `${x.finality}:${x.account === wallet ? 'wallet' : x.account === dest ? 'destination' : x.account}:${x.seqno}`,
  );
  // Each finality in block order, and each block confirmed before it is final (a later block's confirmed may come
  // before an earlier one's finalized, which waits for the index).
  assert.deepEqual(
    named.filter((n) => n.startsWith('confirmed')),
    [`confirmed:wallet:${seqnos[0]}`, `confirmed:destination:${seqnos[1]}`],
  );
  assert.deepEqual(
    named.filter((n) => n.startsWith('finalized')),
    [`finalized:wallet:${seqnos[0]}`, `finalized:destination:${seqnos[1]}`],
  );
  for (const seqno of seqnos) {
    const first = named.find((n) => n.endsWith(`:${seqno}`));
    assert.ok(first?.startsWith('confirmed'), `block ${seqno} confirmed first: ${named.join(', ')}`);
  }

  // Confirmed came from what the open block executed (toncenter's emulated shape: states by hash only), also in the
  // second block; finalized from the index (full states).
  for (const x of told) assert.equal(x.balanceAfter === null, x.finality === 'confirmed', `${x.finality} ${x.account}`);
  assert.equal(new Set(told.map((x) => `${x.finality}:${x.hash}`)).size, 4, 'each transaction once per finality');
});
