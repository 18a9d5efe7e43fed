import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address } from '@ton/core';
import { getJson, startTestTongate } from '../support/tongate.js';

/** Polls until `read` gives a value (the index follows the chain on its own thread). */
async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`never happened: ${what}`);
}

test('tongate start wires the v3 index to each chain: a funded transfer shows up in /api/v3/transactions, as v2 reports it', async () => {
  const tongate = await startTestTongate();
  try {
    const destination = Address.parse('0:' + '7'.repeat(64));
    const funding = tongate.chain('testnet').fund(destination, 2_000_000_000n);
    await tongate.chain('testnet').produceBlock();
    await tongate.chain('testnet').produceBlock();
    const funded = await funding;
    const hash = funded.txHash.toString('base64');
    const base = tongate.url('testnet');

    const v3 = await eventually(async () => {
      const { body } = await getJson(`${base}/api/v3/transactions?hash=${encodeURIComponent(hash)}`);
      return body.transactions?.length ? body : undefined;
    }, 'the faucet transaction in the v3 index');
    assert.equal(v3.transactions[0].hash, hash);
    assert.equal(v3.transactions[0].lt, funded.lt.toString());

    const v2 = await getJson(
      `${base}/api/v2/getTransactions?address=${encodeURIComponent(tongate.chain('testnet').faucets()[0].address.toRawString())}&limit=1`,
    );
    assert.equal(v2.body.result[0].transaction_id.hash, hash);
    // The mainnet index is its own: the testnet transaction is not there.
    const other = await getJson(`${tongate.url('mainnet')}/api/v3/transactions?hash=${encodeURIComponent(hash)}`);
    assert.equal(other.status, 200);
    assert.deepEqual(other.body.transactions, []);
  } finally {
    await tongate.stop();
  }
});
