/**
 * @ton/ton's TonClient against a real tongate with the access layer on (an API key in X-API-Key), doing
 * what its users do: read the chain, deploy v4r2 and v5r1 wallets with a first transfer, wait for the
 * seqno, transfer again, run get-methods, page transactions, read shards and their transactions, estimate
 * fees and read state through a contract provider. Every answer goes through TonClient's own zod schemas.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, internal, SendMode, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { getJson } from '../../support/tongate.js';
import { fundOverHttp, sealUntil, startKeyedTongate, type KeyedTongate } from './support/keyed-tongate.js';

let t: KeyedTongate;
let client: TonClient;
const receiver = Address.parse(`0:${'5a'.repeat(32)}`);

before(async () => {
  t = await startKeyedTongate();
  client = new TonClient({ endpoint: t.endpoint, apiKey: t.apiKey });
});
after(() => t?.tongate.stop());

test('the access layer is on: a wrong key is refused, TonClient with its key is served', async () => {
  const refused = await getJson(`${t.base}/api/v2/getMasterchainInfo`, { headers: { 'x-api-key': 'not-a-key' } });
  assert.equal(refused.status, 401);
  const info = await client.getMasterchainInfo();
  assert.equal(info.workchain, -1);
  assert.equal(info.shard, '-9223372036854775808');
  assert.equal(info.initSeqno, 0);
  assert.equal(info.latestSeqno, t.chain.masterchainInfo().last.id.seqno);
});

for (const kind of ['v4r2', 'v5r1'] as const) {
  test(`${kind}: balance of an uninitialized then a funded account, deploy with a first transfer, seqno, second transfer, runMethod, getState`, async () => {
    const keys = keyPairFromSeed(Buffer.alloc(32, kind === 'v4r2' ? 71 : 72));
    const contract =
      kind === 'v4r2'
        ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
        : WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const wallet = client.open(contract);

    assert.equal(await client.getBalance(contract.address), 0n);
    assert.equal(await client.isContractDeployed(contract.address), false);
    assert.equal(await wallet.getSeqno(), 0);
    await fundOverHttp(t, contract.address, toNano('3'));
    assert.equal(await client.getBalance(contract.address), toNano('3'));
    assert.equal((await client.getContractState(contract.address)).state, 'uninitialized');

    // Deploy + first transfer: TonClient sees the account is not active and attaches the StateInit.
    const transfer = (seqno: number, value: bigint, comment: string) =>
      wallet.sendTransfer({
        seqno,
        secretKey: keys.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: receiver, value, bounce: false, body: comment })],
      });
    await transfer(0, toNano('0.5'), 'first');
    assert.equal(await sealUntil(t.chain, async () => (await wallet.getSeqno()) === 1), true);
    assert.equal(await client.isContractDeployed(contract.address), true);
    await transfer(1, toNano('0.25'), 'second');
    assert.equal(await sealUntil(t.chain, async () => (await wallet.getSeqno()) === 2), true);

    // runMethod: the wallet's key and the result stack as TonClient reads it.
    const key = await client.runMethod(contract.address, 'get_public_key');
    assert.equal(key.stack.readBigNumber(), BigInt(`0x${keys.publicKey.toString('hex')}`));
    const failing = await client.runMethodWithError(contract.address, 'no_such_method');
    assert.equal(failing.exit_code, 11);

    // What toncenter's wallet endpoint says of it (detected by code hash).
    const info = await getJson(`${t.base}/api/v2/getWalletInformation?address=${contract.address.toString()}`, {
      headers: { 'x-api-key': t.apiKey },
    });
    assert.equal(info.body.result.wallet_type, kind === 'v4r2' ? 'wallet v4 r2' : 'wallet v5 r1');
    assert.equal(info.body.result.seqno, 2);
    // The wallet id @ton/ton put in the wallet's initial data (v5: after the signature flag and the seqno).
    const data = contract.init.data.beginParse();
    if (kind === 'v5r1') data.skip(1);
    data.skip(32);
    assert.equal(info.body.result.wallet_id, data.loadUint(32));
    if (kind === 'v5r1') assert.equal(info.body.result.is_signature_allowed, true);

    // provider.getState, as contract wrappers read it.
    const state = await client.provider(contract.address).getState();
    assert.equal(state.state.type, 'active');
    assert.ok(state.balance > 0n && state.balance < toNano('2.25'));
    assert.ok(state.last !== null && state.last.lt > 0n);
  });
}

test('getTransactions with paging, getTransaction, getWorkchainShards, getShardTransactions, estimateExternalMessageFee', async () => {
  const keys = keyPairFromSeed(Buffer.alloc(32, 71));
  const contract = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  const all = await client.getTransactions(contract.address, { limit: 10 });
  assert.equal(all.length, 3, 'funding, deploy + first transfer, second transfer');
  assert.ok(all[0].lt > all[1].lt && all[1].lt > all[2].lt);

  // TonClient's paging: after (lt, hash) of the last row, the page starts with the row after it.
  const first = await client.getTransactions(contract.address, { limit: 2 });
  const next = await client.getTransactions(contract.address, {
    limit: 2,
    lt: first[1].lt.toString(),
    hash: first[1].hash().toString('base64'),
  });
  assert.deepEqual(
    [...first, ...next].map((tx) => tx.hash().toString('hex')),
    all.map((tx) => tx.hash().toString('hex')),
  );
  const inclusive = await client.getTransactions(contract.address, {
    limit: 1,
    lt: all[1].lt.toString(),
    hash: all[1].hash().toString('base64'),
    inclusive: true,
  });
  assert.equal(inclusive[0].hash().toString('hex'), all[1].hash().toString('hex'));

  const one = await client.getTransaction(contract.address, all[2].lt.toString(), all[2].hash().toString('base64'));
  assert.ok(one, 'found by lt and base64 hash');
  assert.equal(one.hash().toString('hex'), all[2].hash().toString('hex'));

  // The block of the second transfer, through the masterchain block that committed it.
  const second = t.chain.getTransaction(all[0].hash())!;
  const shards = await client.getWorkchainShards(second.mcSeqno);
  assert.equal(shards.length, 1);
  assert.deepEqual([shards[0].workchain, shards[0].shard, shards[0].seqno], [0, '-9223372036854775808', second.block.seqno]);
  const txs = await client.getShardTransactions(0, shards[0].seqno, shards[0].shard);
  const ids = txs.map((tx) => `${tx.account.toRawString()}:${tx.lt}:${tx.hash}`);
  assert.ok(ids.includes(`${contract.address.toRawString()}:${all[0].lt}:${all[0].hash().toString('base64')}`));

  const body = contract.createTransfer({
    seqno: 2,
    secretKey: keys.secretKey,
    messages: [internal({ to: receiver, value: toNano('0.1') })],
  });
  const fees = await client.estimateExternalMessageFee(contract.address, { body, initCode: null, initData: null, ignoreSignature: true });
  assert.equal(fees['@type'], 'query.fees');
  assert.ok(fees.source_fees.gas_fee > 0 && fees.source_fees.fwd_fee > 0 && fees.source_fees.in_fwd_fee > 0);
  const unsigned = contract.createTransfer({
    seqno: 2,
    secretKey: Buffer.alloc(64),
    messages: [internal({ to: receiver, value: toNano('0.1') })],
  });
  const same = await client.estimateExternalMessageFee(contract.address, {
    body: unsigned,
    initCode: null,
    initData: null,
    ignoreSignature: true,
  });
  assert.equal(same.source_fees.gas_fee, fees.source_fees.gas_fee, 'ignore_chksig prices an unsigned body the same');
});

test('a refused external message is an error for TonClient, not a silent success', async () => {
  const keys = keyPairFromSeed(Buffer.alloc(32, 71));
  const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }));
  await assert.rejects(
    wallet.sendTransfer({ seqno: 0, secretKey: keys.secretKey, messages: [internal({ to: receiver, value: 1n })] }),
    /status code 400/,
    'a replayed seqno',
  );
  const cell = beginCell().storeUint(0, 32).endCell();
  await assert.rejects(client.sendFile(cell.toBoc()), /status code 422/);
});
