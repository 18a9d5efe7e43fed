/**
 * tonweb's HttpProvider against a real tongate with the access layer on (its API key in X-API-Key): a v4
 * wallet from "not deployed" (seqno null) through deploy (1) and a transfer (2), with fee estimates, then
 * the reads tonweb users make: balance, transactions, call2, config, shards, block transactions.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { sealUntil, fundOverHttp, startKeyedTongate, type KeyedTongate } from './support/keyed-tongate.js';

const TonWeb = ((await import('tonweb')) as any).default;

let t: KeyedTongate;
let tonweb: any;
const keys = keyPairFromSeed(Buffer.alloc(32, 81));
let wallet: any;
let address: Address;
const receiver = `0:${'6b'.repeat(32)}`;

before(async () => {
  t = await startKeyedTongate('testnet');
  tonweb = new TonWeb(new TonWeb.HttpProvider(t.endpoint, { apiKey: t.apiKey }));
  wallet = new tonweb.wallet.all.v4R2(tonweb.provider, { publicKey: new Uint8Array(keys.publicKey), wc: 0 });
  address = Address.parse((await wallet.getAddress()).toString(false));
});
after(() => t?.tongate.stop());

const seqno = (): Promise<number | null> => wallet.methods.seqno().call();

test('a v4 wallet: balance "0", seqno null; funded; deploy (seqno 1) and a transfer (seqno 2), each priced first', async () => {
  assert.equal(await tonweb.getBalance(address.toString()), '0', 'a string: tonweb treats a falsy result as an error');
  assert.equal(await seqno(), null, 'exit code -13 on an account without code');

  await fundOverHttp(t, address, 2_000_000_000n);
  assert.equal(await tonweb.getBalance(address.toString()), '2000000000');

  const deploy = wallet.deploy(new Uint8Array(keys.secretKey));
  const deployFees = await deploy.estimateFee();
  assert.equal(deployFees['@type'], 'query.fees');
  assert.ok(deployFees.source_fees.gas_fee > 0, 'a funded deploy runs the wallet code');
  assert.deepEqual(await deploy.send(), { '@type': 'ok' });
  assert.equal(await sealUntil(t.chain, async () => (await seqno()) === 1), true);

  const transfer = wallet.methods.transfer({
    secretKey: new Uint8Array(keys.secretKey),
    toAddress: receiver,
    amount: TonWeb.utils.toNano('0.5'),
    seqno: 1,
    payload: 'from tonweb',
    sendMode: 3,
  });
  const fees = await transfer.estimateFee();
  assert.ok(fees.source_fees.fwd_fee > 0);
  await transfer.send();
  assert.equal(await sealUntil(t.chain, async () => (await seqno()) === 2), true);
  const received = await sealUntil(t.chain, async () => {
    const balance = await tonweb.getBalance(receiver);
    return balance !== '0' && balance;
  });
  assert.equal(received, '500000000');
});

test('getTransactions, call2, getConfigParam, getBlockShards, getMasterchainBlockTransactions, getBlockTransactions', async () => {
  const txs = await tonweb.getTransactions(address.toString(), 10);
  assert.equal(txs.length, 3, 'funding, deploy, transfer');
  const [latest] = txs;
  assert.equal(latest.out_msgs[0].message, 'from tonweb');
  assert.ok(Address.parse(latest.out_msgs[0].destination).equals(Address.parse(receiver)));
  assert.equal(txs[2].in_msg.value, '2000000000');
  assert.equal(typeof latest.transaction_id.lt, 'string');
  const older = await tonweb.provider.getTransactions(address.toString(), 2, txs[1].transaction_id.lt, txs[1].transaction_id.hash);
  assert.deepEqual(
    older.map((tx: any) => tx.transaction_id),
    [txs[1].transaction_id, txs[2].transaction_id],
  );

  const walletSeqno = await tonweb.provider.call2(address.toString(), 'seqno');
  assert.equal(walletSeqno.toNumber(), 2, 'the hex number tonweb parses');
  const publicKey = await tonweb.provider.call2(address.toString(), 'get_public_key');
  assert.equal(publicKey.toString(16).padStart(64, '0'), keys.publicKey.toString('hex'));

  const param4 = await tonweb.provider.getConfigParam(4);
  const dnsRoot = Cell.fromBoc(Buffer.from(await param4.toBoc(false)))[0];
  assert.equal(dnsRoot.bits.length, 256, 'config param 4: the root DNS address');

  const info = await tonweb.provider.getMasterchainInfo();
  const shards = await tonweb.provider.getBlockShards(info.last.seqno);
  assert.equal(shards['@type'], 'blocks.shards');
  assert.equal(shards.shards[0].workchain, 0);
  const mcTxs = await tonweb.provider.getMasterchainBlockTransactions(info.last.seqno);
  assert.equal(mcTxs['@type'], 'blocks.transactions');
  assert.equal(mcTxs.id.workchain, -1);
  assert.deepEqual(mcTxs.transactions, [], 'the local masterchain runs no transactions');

  const latestTx = t.chain.getTransaction(Buffer.from(latest.transaction_id.hash, 'base64'))!;
  const block = await tonweb.provider.getBlockTransactions(0, '-9223372036854775808', latestTx.block.seqno);
  assert.ok(block.transactions.some((tx: any) => tx.hash === latest.transaction_id.hash));
  // tonweb sends after_lt without after_hash when given no address hash: taken with the zero account id, as
  // toncenter's tonlib server takes it (every account id is above it, so the whole block).
  const afterLtAlone = await tonweb.provider.getBlockTransactions(
    0,
    '-9223372036854775808',
    latestTx.block.seqno,
    40,
    latest.transaction_id.lt,
  );
  assert.deepEqual(afterLtAlone.transactions, block.transactions);
  const header = await tonweb.provider.getBlockHeader(0, '-9223372036854775808', latestTx.block.seqno);
  assert.equal(header.id.seqno, latestTx.block.seqno);
  assert.equal(header.global_id, -3);
});

test('errors reach tonweb as its rejections: a refused message and a bad address', async () => {
  const replay = wallet.methods.transfer({
    secretKey: new Uint8Array(keys.secretKey),
    toAddress: receiver,
    amount: TonWeb.utils.toNano('0.1'),
    seqno: 1,
    sendMode: 3,
  });
  await assert.rejects(replay.send(), (error: unknown) => typeof error === 'string' && /exitcode=33/.test(error));
  await assert.rejects(tonweb.getBalance('not-an-address'), (error: unknown) => typeof error === 'string' && /address/.test(error));
});
