/**
 * Every v2 method on a populated local chain (support/scenario.ts): each answers the same over GET (read
 * methods), POST and JSON-RPC; each answer validates against toncenter's published v2 spec (known errors of
 * the spec are written down where they are worked around); and each says what the chain really holds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, internal, loadTransaction, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { V2_METHODS } from '../../../src/api/v2/methods/index.js';
import { v2Spec } from '../../support/openapi.js';
import { callAll, callPost, callRpc, essence, type Answer, type Answers } from './support/call.js';
import { componentSchema, validateComponent, validateSchema } from './support/components.js';
import { buildScenario, categoryHash, sha256, transferBoc, type Scenario } from './support/scenario.js';

const SHARD = '-9223372036854775808';
const B64 = /^[A-Za-z0-9+/]{43}=$/;

let s: Scenario;
before(async () => {
  s = await buildScenario();
});
after(() => s?.tongate.stop());

const addr = (a: Address) => a.toString();

/** Methods this file called, to check at the end that none of the table was left out. */
const called = new Set<string>();

/** The three ways agree on status, result and error (not on @extra / jsonrpc / id, which are per call). */
function assertSameEverywhere(method: string, answers: Answers): void {
  const post = essence(answers.post);
  if (answers.get) assert.deepEqual(essence(answers.get), post, `${method}: GET and POST differ`);
  assert.deepEqual(essence(answers.rpc), post, `${method}: JSON-RPC and POST differ`);
  // Success echoes jsonrpc and id (as the Python server did); errors are the plain envelope, as both servers answer.
  if (answers.rpc.body.ok) {
    assert.equal(answers.rpc.body.jsonrpc, '2.0');
    assert.equal(answers.rpc.body.id, '1');
  }
}

function assertOk(method: string, answer: Answer): any {
  assert.equal(answer.status, 200, `${method}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.ok, true);
  assert.equal('error' in answer.body, false, `${method}: no error key on success`);
  assert.equal(typeof answer.body['@extra'], 'string');
  return answer.body.result;
}

/** toncenter's error envelope: {"ok":false,"error":"...","code":N} with N = the HTTP status. */
function assertError(method: string, answer: Answer, status: number, pattern: RegExp): void {
  assert.equal(answer.status, status, `${method}: ${JSON.stringify(answer.body)}`);
  const errors = validateComponent('docs', 'TonlibErrorResponse', answer.body);
  assert.deepEqual(errors, [], `${method}: error envelope`);
  assert.equal(answer.body.code, status);
  assert.match(answer.body.error, pattern);
}

/**
 * Validates an answer: the REST envelope against the method's path in the docs spec (when the spec lists
 * the path), the result against its component, and the JSON-RPC envelope against the jsonRPC path.
 */
function assertSpec(method: string, answers: Answers, component: { docs?: string; cpp?: string }, verb: 'get' | 'post' = 'get'): void {
  const rest = verb === 'get' ? answers.get! : answers.post;
  const path = `/api/v2/${method}`;
  if (v2SpecHas(path, verb)) assert.deepEqual(v2Spec().validate(path, verb, 200, rest.body), [], `${method}: REST envelope`);
  const result = rest.body.result;
  if (component.docs) assert.deepEqual(validateComponent('docs', component.docs, result), [], `${method}: result vs ${component.docs}`);
  if (component.cpp) assert.deepEqual(validateComponent('cpp', component.cpp, result), [], `${method}: result vs C++ ${component.cpp}`);
  // Spec error (exception): the jsonRPC path's TonlibResponse types `result` as an object, but the same spec's
  // own REST schemas give strings (getAddressBalance, getAddressState, packAddress, unpackAddress) and arrays
  // (getTransactions), as toncenter's servers answer. For those the JSON-RPC result is checked by equality
  // with the REST one (assertSameEverywhere) instead.
  if (typeof result === 'object' && !Array.isArray(result)) {
    assert.deepEqual(v2Spec().validate('/api/v2/jsonRPC', 'post', 200, answers.rpc.body), [], `${method}: JSON-RPC envelope`);
  }
}

function v2SpecHas(path: string, verb: 'get' | 'post'): boolean {
  try {
    v2Spec().validate(path, verb, 200, {});
    return true;
  } catch {
    return false;
  }
}

/** Calls a read method all three ways, checks they agree and validate, returns the result. */
async function read(method: string, params: Record<string, unknown>, component: { docs?: string; cpp?: string }): Promise<any> {
  called.add(method);
  const answers = await callAll(s.base, method, params);
  assertSameEverywhere(method, answers);
  const result = assertOk(method, answers.get!);
  assertSpec(method, answers, component);
  return result;
}

/** Same for a POST-only method (runGetMethod, estimateFee, ...). */
async function postOnly(method: string, params: Record<string, unknown>, component: { docs?: string; cpp?: string }): Promise<any> {
  called.add(method);
  const answers = await callAll(s.base, method, params, false);
  assertSameEverywhere(method, answers);
  const result = assertOk(method, answers.post);
  assertSpec(method, answers, component, 'post');
  return result;
}

async function readError(method: string, params: Record<string, unknown>, status: number, pattern: RegExp): Promise<void> {
  called.add(method);
  const answers = await callAll(s.base, method, params);
  assertSameEverywhere(method, answers);
  assertError(method, answers.get!, status, pattern);
}

describe('accounts', () => {
  test('getAddressInformation: a deployed wallet, an address with a balance and no code, and one that never existed', async () => {
    const wallet = await read('getAddressInformation', { address: addr(s.wallet.address) }, { docs: 'AddressInformation' });
    assert.equal(wallet.state, 'active');
    assert.equal(typeof wallet.balance, 'string');
    assert.ok(BigInt(wallet.balance) > 0n);
    assert.ok(Cell.fromBase64(wallet.code).equals(s.wallet.contract.init.code));
    assert.match(wallet.last_transaction_id.hash, B64);
    assert.equal(wallet.block_id.seqno, s.chain.masterchainInfo().last.id.seqno);
    assert.equal(wallet.frozen_hash, '');

    const receiver = await read('getAddressInformation', { address: s.receiver.toRawString() }, { docs: 'AddressInformation' });
    const received = s.chain.getAccount(s.receiver, s.comment.seqnoAfter).balance;
    assert.ok(received > 1_900_000_000n, 'the 2 TON less the forwarding fee');
    assert.deepEqual([receiver.state, receiver.balance, receiver.code, receiver.data], ['uninitialized', received.toString(), '', '']);

    const nobody = await read('getAddressInformation', { address: addr(s.nobody) }, { docs: 'AddressInformation' });
    assert.equal(nobody.balance, '0', 'a string, never the number 0 (tonweb treats 0 as a failure)');
    assert.equal(nobody.state, 'uninitialized');
    assert.deepEqual(nobody.last_transaction_id, { '@type': 'internal.transactionId', lt: '0', hash: 'A'.repeat(43) + '=' });
  });

  test('seqno: account reads answer as of that masterchain block', async () => {
    const { seqnoBefore, seqnoAfter } = s.comment;
    const before = await read('getAddressInformation', { address: addr(s.receiver), seqno: seqnoBefore }, { docs: 'AddressInformation' });
    assert.equal(before.balance, '0');
    assert.equal(before.block_id.seqno, seqnoBefore);
    const afterwards = await read('getAddressBalance', { address: addr(s.receiver), seqno: seqnoAfter }, { docs: 'AddressBalance' });
    assert.equal(afterwards, s.chain.getAccount(s.receiver, seqnoAfter).balance.toString());
    assert.notEqual(afterwards, '0');
    assert.equal(await read('getAddressState', { address: addr(s.jetton.master), seqno: 0 }, { docs: 'AddressState' }), 'uninitialized');
    const walletBefore = await read(
      'getWalletInformation',
      { address: addr(s.wallet.address), seqno: seqnoBefore },
      { docs: 'WalletInformation' },
    );
    const walletNow = await read('getWalletInformation', { address: addr(s.wallet.address) }, { docs: 'WalletInformation' });
    assert.equal(walletBefore.seqno, 2);
    assert.equal(walletNow.seqno, 3);
    const cellBefore = await read('getShardAccountCell', { address: addr(s.wallet.address), seqno: seqnoBefore }, { cpp: 'TvmCell' });
    const cellNow = await read('getShardAccountCell', { address: addr(s.wallet.address) }, { cpp: 'TvmCell' });
    assert.notEqual(cellBefore.bytes, cellNow.bytes);
    await readError('getAddressBalance', { address: addr(s.wallet.address), seqno: 1_000_000 }, 404, /masterchain block 1000000 not found/);
  });

  test('getExtendedAddressInformation: tonlib account kinds (wallet v4, raw contract, uninited)', async () => {
    const wallet = await read('getExtendedAddressInformation', { address: addr(s.wallet.address) }, { docs: 'ExtendedAddressInformation' });
    assert.deepEqual(wallet.account_state, { '@type': 'wallet.v4.accountState', wallet_id: 698983191, seqno: 3 });
    assert.equal(wallet.revision, 2);
    assert.equal(wallet.address.account_address, s.wallet.address.toString({ bounceable: true, urlSafe: true }));
    const contract = await read(
      'getExtendedAddressInformation',
      { address: addr(s.jetton.master) },
      { docs: 'ExtendedAddressInformation' },
    );
    assert.equal(contract.account_state['@type'], 'raw.accountState');
    assert.ok(contract.account_state.code.length > 0);
    const nobody = await read('getExtendedAddressInformation', { address: addr(s.nobody) }, { docs: 'ExtendedAddressInformation' });
    assert.deepEqual(nobody.account_state, { '@type': 'uninited.accountState', frozen_hash: '' });
    assert.equal(nobody.balance, '0');
  });

  test('getWalletInformation: detected by code hash; a contract is not a wallet', async () => {
    const wallet = await read('getWalletInformation', { address: addr(s.wallet.address) }, { docs: 'WalletInformation' });
    assert.equal(wallet.wallet, true);
    assert.equal(wallet.wallet_type, 'wallet v4 r2');
    assert.equal(wallet.wallet_id, 698983191);
    assert.equal(wallet.account_state, 'active');
    const contract = await read('getWalletInformation', { address: addr(s.jetton.master) }, { docs: 'WalletInformation' });
    assert.equal(contract.wallet, false);
    assert.equal('wallet_type' in contract, false);
    const nobody = await read('getWalletInformation', { address: addr(s.nobody) }, { docs: 'WalletInformation' });
    assert.deepEqual([nobody.wallet, nobody.balance, nobody.account_state], [false, '0', 'uninitialized']);
  });

  test('getTokenData: jetton master and wallet, NFT collection and item; anything else is a 409', async () => {
    const master = await read('getTokenData', { address: addr(s.jetton.master) }, { docs: 'TokenData' });
    assert.equal(master.contract_type, 'jetton_master');
    assert.equal(master.total_supply, '1000000');
    assert.equal(master.mintable, true);
    assert.equal(Address.parse(master.admin_address).equals(s.wallet.address), true);
    assert.deepEqual(master.jetton_content, {
      type: 'onchain',
      data: { name: 'Test Jetton', symbol: 'TJ', decimals: '9', description: 'a fixture' },
    });

    const wallet = await read('getTokenData', { address: addr(s.jetton.wallet) }, { docs: 'TokenData' });
    assert.equal(wallet.contract_type, 'jetton_wallet');
    assert.equal(wallet.balance, '777');
    assert.ok(Address.parse(wallet.owner).equals(s.jetton.owner));
    assert.ok(Address.parse(wallet.jetton).equals(s.jetton.master));
    assert.equal(wallet.jetton_wallet_code, master.jetton_wallet_code);

    const collection = await read('getTokenData', { address: addr(s.nft.collection) }, { docs: 'TokenData' });
    assert.equal(collection.contract_type, 'nft_collection');
    assert.equal(collection.next_item_index, '1');
    assert.deepEqual(collection.collection_content, { type: 'offchain', data: 'https://nft.example/collection.json' });

    const item = await read('getTokenData', { address: addr(s.nft.item) }, { docs: 'TokenData' });
    assert.equal(item.contract_type, 'nft_item');
    assert.equal(item.init, true);
    assert.equal(item.index, '0');
    assert.ok(Address.parse(item.collection_address).equals(s.nft.collection));
    assert.ok(Address.parse(item.owner_address).equals(s.nft.owner));
    assert.deepEqual(item.content, { type: 'offchain', data: 'https://nft.example/items/0.json' }, 'content through the collection');

    await readError('getTokenData', { address: addr(s.wallet.address) }, 409, /^Smart contract is not Jetton or NFT$/);
    await readError('getTokenData', { address: addr(s.jetton.master), seqno: 1 }, 409, /not Jetton or NFT/);
    await readError('getTokenData', { address: addr(s.broken) }, 409, /not Jetton or NFT/);
  });

  test('dnsResolve: follows the next resolver; ttl 0 stops at it; one category; an unknown name has no entries', async () => {
    const all = await read('dnsResolve', { address: addr(s.dns.zone), name: 'alice.ton' }, { cpp: 'DnsResolved' });
    const byCategory = new Map(all.entries.map((e: any) => [e.category, e.entry]));
    const cat = (name: string) => Buffer.from(categoryHash(name).toString(16).padStart(64, '0'), 'hex').toString('base64');
    assert.equal(all.entries.length, 3);
    const wallet: any = byCategory.get(cat('wallet'));
    assert.equal(wallet['@type'], 'dns.entryDataSmcAddress');
    assert.ok(Address.parse(wallet.smc_address.account_address).equals(s.dns.walletRecord));
    assert.equal((byCategory.get(cat('site')) as any)['@type'], 'dns.entryDataAdnlAddress');
    assert.equal((byCategory.get(cat('site')) as any).adnl_address.adnl_address.length, 55);
    assert.deepEqual(byCategory.get(cat('storage')), { '@type': 'dns.entryDataStorageAddress', bag_id: '09'.repeat(32) });

    const hop = await read('dnsResolve', { address: addr(s.dns.zone), name: 'alice.ton', ttl: 0 }, { cpp: 'DnsResolved' });
    assert.equal(hop.entries.length, 1);
    assert.equal(hop.entries[0].entry['@type'], 'dns.entryDataNextResolver');
    assert.ok(Address.parse(hop.entries[0].entry.resolver.account_address).equals(s.dns.resolver));
    assert.equal(hop.entries[0].category, sha256('dns_next_resolver').toString('base64'));

    const one = await read('dnsResolve', { address: addr(s.dns.zone), name: 'alice.ton', category: 'wallet' }, { cpp: 'DnsResolved' });
    assert.deepEqual(
      one.entries.map((e: any) => e.entry),
      [wallet],
    );
    const none = await read('dnsResolve', { address: addr(s.dns.zone), name: 'bob.ton' }, { cpp: 'DnsResolved' });
    assert.deepEqual(none.entries, []);
    await readError('dnsResolve', { address: addr(s.wallet.address), name: 'alice.ton' }, 409, /not a DNS resolver/);
    await readError('dnsResolve', { address: addr(s.broken), name: 'alice.ton' }, 409, /malformed record dictionary/);
  });
});

describe('transactions', () => {
  test('getTransactions: newest first, TonClient lt+hash paging (inclusive start), to_lt exclusive, BoCs that re-parse', async () => {
    const all = await read('getTransactions', { address: addr(s.wallet.address), limit: 10 }, { docs: 'Transactions' });
    assert.equal(all.length, 4, 'funding, deploy, DNS deploys, comment');
    for (let i = 1; i < all.length; i++) assert.ok(BigInt(all[i - 1].transaction_id.lt) > BigInt(all[i].transaction_id.lt));
    for (const tx of all) {
      const parsed = loadTransaction(Cell.fromBase64(tx.data).beginParse());
      assert.equal(parsed.lt.toString(), tx.transaction_id.lt);
      assert.equal(parsed.hash().toString('base64'), tx.transaction_id.hash);
      assert.match(tx.transaction_id.hash, B64);
      assert.equal(typeof tx.fee, 'string');
    }
    assert.equal(all[0].out_msgs[0].message, 'hello');
    assert.equal(all[0].in_msg.source, '', 'external-in: empty source');

    const second = all[1].transaction_id;
    const hex = Buffer.from(second.hash, 'base64').toString('hex');
    const page = await read(
      'getTransactions',
      { address: addr(s.wallet.address), limit: 2, lt: second.lt, hash: hex },
      { docs: 'Transactions' },
    );
    assert.deepEqual(
      page.map((t: any) => t.transaction_id),
      [all[1].transaction_id, all[2].transaction_id],
    );
    const urlSafe = Buffer.from(hex, 'hex').toString('base64url');
    const same = await read(
      'getTransactions',
      { address: addr(s.wallet.address), limit: 2, lt: second.lt, hash: urlSafe },
      { docs: 'Transactions' },
    );
    assert.deepEqual(same, page);
    const bounded = await read(
      'getTransactions',
      { address: addr(s.wallet.address), to_lt: all[2].transaction_id.lt },
      { docs: 'Transactions' },
    );
    assert.deepEqual(
      bounded.map((t: any) => t.transaction_id),
      [all[0].transaction_id, all[1].transaction_id],
    );
    assert.deepEqual(await read('getTransactions', { address: addr(s.nobody) }, { docs: 'Transactions' }), []);
    await readError('getTransactions', { address: addr(s.wallet.address), lt: second.lt, hash: 'ab'.repeat(32) }, 404, /not found/);
  });

  test('getTransactionsStd: the same page as raw.transactions, with where the next page starts', async () => {
    const ext = await read('getTransactions', { address: addr(s.wallet.address), limit: 2 }, { docs: 'Transactions' });
    const std = await read('getTransactionsStd', { address: addr(s.wallet.address), limit: 2 }, { docs: 'TransactionsStd' });
    assert.deepEqual(
      std.transactions.map((t: any) => t.transaction_id),
      ext.map((t: any) => t.transaction_id),
    );
    assert.equal(std.transactions[0]['@type'], 'raw.transaction');
    assert.deepEqual(Object.keys(std.transactions[0].out_msgs[0].source), ['@type', 'account_address']);
    const third = (await read('getTransactions', { address: addr(s.wallet.address), limit: 3 }, { docs: 'Transactions' }))[2];
    assert.deepEqual(std.previous_transaction_id, third.transaction_id);
  });

  test('tryLocateResultTx / tryLocateTx / tryLocateSourceTx find both ends of the comment message', async () => {
    const params = { source: addr(s.wallet.address), destination: addr(s.receiver), created_lt: s.comment.createdLt.toString() };
    const result = await read('tryLocateResultTx', params, { docs: 'Transaction' });
    assert.equal(result.account, s.receiver.toRawString().toUpperCase());
    assert.equal(result.in_msg.created_lt, params.created_lt);
    assert.equal(result.in_msg.message, 'hello');
    assert.deepEqual(await read('tryLocateTx', params, { docs: 'Transaction' }), result);
    const source = await read('tryLocateSourceTx', params, { docs: 'Transaction' });
    assert.ok(Address.parse(source.address.account_address).equals(s.wallet.address));
    assert.equal(source.out_msgs[0].created_lt, params.created_lt);
    await readError('tryLocateResultTx', { ...params, created_lt: '12345' }, 404, /^transaction not found$/);
  });
});

describe('blocks', () => {
  test('getMasterchainInfo, getConsensusBlock, lookupBlock (seqno, lt, unixtime), getShards and its alias shards', async () => {
    const info = await read('getMasterchainInfo', {}, { docs: 'MasterchainInfo' });
    const consensus = await read('getConsensusBlock', {}, { docs: 'ConsensusBlock' });
    assert.equal(consensus.consensus_block, info.last.seqno);
    const last = s.chain.masterchainInfo().last;
    assert.equal(consensus.timestamp, last.genUtime);

    const bySeqno = await read('lookupBlock', { workchain: -1, shard: SHARD, seqno: info.last.seqno }, { docs: 'TonBlockIdExt' });
    assert.deepEqual(bySeqno, info.last);
    const byLt = await read('lookupBlock', { workchain: -1, shard: SHARD, lt: last.startLt.toString() }, { docs: 'TonBlockIdExt' });
    assert.equal(byLt.seqno, info.last.seqno);
    const byTime = await read('lookupBlock', { workchain: 0, shard: SHARD, unixtime: last.genUtime }, { docs: 'TonBlockIdExt' });
    assert.equal(byTime.workchain, 0);
    await readError('lookupBlock', { workchain: -1, shard: SHARD, seqno: 1, lt: 5 }, 422, /exactly one of seqno, lt, unixtime/);
    await readError('lookupBlock', { workchain: -1, shard: SHARD, seqno: 1_000_000 }, 404, /no block/);

    const shards = await read('getShards', { seqno: info.last.seqno }, { docs: 'Shards' });
    assert.equal(shards.shards.length, 1);
    assert.deepEqual(shards.shards[0], { ...shards.shards[0], workchain: 0, shard: SHARD, seqno: info.last.seqno });
    assert.deepEqual(await read('shards', { seqno: info.last.seqno }, { docs: 'Shards' }), shards);
    await readError('shards', { seqno: info.last.seqno + 100 }, 404, /not found/);
  });

  test('getBlockHeader: a basechain block with its previous block; hashes must match when given', async () => {
    const { seqnoAfter } = s.comment;
    const [shard] = (await read('getShards', { seqno: seqnoAfter }, { docs: 'Shards' })).shards;
    const header = await read('getBlockHeader', { workchain: 0, shard: SHARD, seqno: shard.seqno }, { docs: 'BlockHeader' });
    assert.deepEqual(header.id, shard);
    assert.equal(header.global_id, -239);
    assert.equal(header.prev_blocks[0].seqno, shard.seqno - 1);
    assert.ok(BigInt(header.start_lt) <= BigInt(header.end_lt));
    const withHashes = await read(
      'getBlockHeader',
      { workchain: 0, shard: SHARD, seqno: shard.seqno, root_hash: shard.root_hash, file_hash: shard.file_hash },
      { docs: 'BlockHeader' },
    );
    assert.deepEqual(withHashes, header);
    await readError(
      'getBlockHeader',
      { workchain: 0, shard: SHARD, seqno: shard.seqno, root_hash: 'ab'.repeat(32) },
      404,
      /another root_hash/,
    );
  });

  test('getBlockTransactions(Ext): short ids with raw accounts, paging with after_lt + after_hash, full transactions', async () => {
    // The block of the deploy: the wallet's transaction and the four contracts deployed by it.
    const deploy = s.chain.getTransactions(s.wallet.address, { limit: 10 }).at(-2)!;
    const ref = { workchain: 0, shard: SHARD, seqno: deploy.block.seqno };
    const full = await read('getBlockTransactions', ref, { docs: 'BlockTransactions' });
    assert.equal(full.incomplete, false);
    assert.equal(full.req_count, 40);
    assert.ok(full.transactions.length >= 2, 'several transactions in the block');
    for (const t of full.transactions) {
      assert.equal(t.mode, 135);
      assert.ok(Address.parseRaw(t.account), 'raw form, as TonClient parses it');
    }
    assert.ok(full.transactions.some((t: any) => t.hash === deploy.hash.toString('base64')));

    const first = await read('getBlockTransactions', { ...ref, count: 1 }, { docs: 'BlockTransactions' });
    assert.equal(first.incomplete, true);
    const rest = await read(
      'getBlockTransactions',
      { ...ref, after_lt: first.transactions[0].lt, after_hash: first.transactions[0].account.split(':')[1], count: 40 },
      { docs: 'BlockTransactions' },
    );
    assert.deepEqual([...first.transactions, ...rest.transactions], full.transactions);

    called.add('getBlockTransactionsExt');
    const answers = await callAll(s.base, 'getBlockTransactionsExt', ref);
    assertSameEverywhere('getBlockTransactionsExt', answers);
    const ext = assertOk('getBlockTransactionsExt', answers.get!);
    // Spec error (exception): TransactionExt is allOf(TransactionStd, {@type raw.transactionExt, account}) with
    // additionalProperties:false on both parts, so no object can satisfy it (each part forbids the other's
    // fields, and the two @type enums differ). The result is validated against the union it describes.
    const std = componentSchema('docs', 'TransactionStd');
    const extSchema = {
      ...std,
      properties: { ...std.properties, '@type': { enum: ['raw.transactionExt'] }, account: { type: 'string' } },
      required: [...std.required, 'account'],
    };
    const blockExt = componentSchema('docs', 'BlockTransactionsExt');
    const errors = validateSchema(
      'docs',
      'BlockTransactionsExt (corrected)',
      { ...blockExt, properties: { ...blockExt.properties, transactions: { type: 'array', items: extSchema } } },
      ext,
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(
      ext.transactions.map((t: any) => t.transaction_id.hash),
      full.transactions.map((t: any) => t.hash),
    );
    assert.deepEqual(
      ext.transactions.map((t: any) => t.account.toLowerCase()),
      full.transactions.map((t: any) => t.account),
    );
    // One of the two alone, as toncenter's tonlib server takes it: the other is zero (no account id is all zeros,
    // so after_lt alone lists the whole block; after_hash alone starts at that account's first transaction).
    const ltAlone = await read('getBlockTransactions', { ...ref, after_lt: first.transactions[0].lt }, { docs: 'BlockTransactions' });
    assert.deepEqual(ltAlone.transactions, full.transactions);
    const last = full.transactions.at(-1);
    const hashAlone = await read('getBlockTransactions', { ...ref, after_hash: last.account.split(':')[1] }, { docs: 'BlockTransactions' });
    assert.deepEqual(
      hashAlone.transactions,
      full.transactions.filter((t: any) => t.account === last.account),
    );
    await readError('getBlockTransactions', { ...ref, seqno: 1_000_000 }, 404, /not found/);
  });

  test('getOutMsgQueueSize reports both chains; nothing waits once the chain settled', async () => {
    const sizes = await read('getOutMsgQueueSize', {}, { docs: 'OutMsgQueueSizes' });
    assert.deepEqual(
      sizes.shards.map((q: any) => [q.id.workchain, q.size]),
      [
        [-1, 0],
        [0, 0],
      ],
    );
  });

  test('signatures and shard block proofs: a documented 501 for an existing block, 404 for a missing one', async () => {
    const seqno = s.comment.seqnoAfter;
    await readError('getMasterchainBlockSignatures', { seqno }, 501, /not available on mainnet: .*signed by no validator/);
    await readError('getMasterchainBlockSignatures', { seqno: 1_000_000 }, 404, /not found/);
    await readError('getShardBlockProof', { workchain: 0, shard: SHARD, seqno }, 501, /not available on mainnet/);
    await readError('getShardBlockProof', { workchain: 0, shard: SHARD, seqno: 1_000_000 }, 404, /not found/);
  });
});

describe('config and libraries', () => {
  test('getConfigParam (config_id or param, as of a seqno), getConfigAll, getLibraries', async () => {
    const p19 = await read('getConfigParam', { config_id: 19 }, { docs: 'ConfigInfo' });
    assert.equal(Cell.fromBase64(p19.config.bytes).beginParse().loadInt(32), -239, 'param 19 is the global id');
    assert.deepEqual(await read('getConfigParam', { param: 19, seqno: 0 }, { docs: 'ConfigInfo' }), p19);
    await readError('getConfigParam', { config_id: 19, param: 19 }, 422, /only one of config_id or param/);
    await readError('getConfigParam', { config_id: 9999 }, 404, /config param 9999 not found/);
    await readError('getConfigParam', { config_id: 19, seqno: 1_000_000 }, 404, /not found/);
    const all = await read('getConfigAll', {}, { docs: 'ConfigInfo' });
    assert.ok(Cell.fromBase64(all.config.bytes).equals(s.chain.config()));
    // The local chain holds no public libraries (none is ever published on its masterchain).
    const libs = await read(
      'getLibraries',
      { libraries: ['ab'.repeat(32), Buffer.alloc(32, 1).toString('base64')] },
      { docs: 'LibraryResult' },
    );
    assert.deepEqual(libs, { '@type': 'smc.libraryResult', result: [] });
  });
});

describe('utilities', () => {
  test('detectAddress, detectHash, packAddress, unpackAddress', async () => {
    const raw = s.wallet.address.toRawString();
    const detected = await read('detectAddress', { address: raw }, { docs: 'DetectAddress' });
    assert.equal(detected.raw_form, raw);
    assert.equal(detected.given_type, 'raw_form');
    assert.equal(detected.bounceable.b64url, s.wallet.address.toString({ bounceable: true, urlSafe: true }));
    assert.equal(detected.test_only, false);
    const friendly = await read('detectAddress', { address: detected.non_bounceable.b64 }, { docs: 'DetectAddress' });
    assert.equal(friendly.given_type, 'friendly_non_bounceable');

    const hash = await read('detectHash', { hash: 'ab'.repeat(32) }, { docs: 'DetectHash' });
    assert.deepEqual(hash, {
      '@type': 'ext.utils.detectedHash',
      b64: Buffer.alloc(32, 0xab).toString('base64'),
      b64url: Buffer.alloc(32, 0xab).toString('base64url') + '=',
      hex: 'ab'.repeat(32),
    });

    assert.equal(await read('packAddress', { address: raw }, { docs: 'PackAddress' }), s.wallet.address.toString());
    // Spec error (exception): UnpackAddressResponse's result refers to UnpackedAddress (an object), while
    // the same spec's UnpackAddress schema, and toncenter's C++ server, give the raw form as a string.
    called.add('unpackAddress');
    const answers = await callAll(s.base, 'unpackAddress', { address: addr(s.wallet.address) });
    assertSameEverywhere('unpackAddress', answers);
    const unpacked = assertOk('unpackAddress', answers.get!);
    assert.deepEqual(validateComponent('docs', 'UnpackAddress', unpacked), []);
    assert.equal(unpacked, raw.toUpperCase());
  });

  test('a testnet network writes user-friendly addresses with the test-only flag', async () => {
    const testnet = s.tongate.url('testnet');
    const faucet = s.tongate.chain('testnet').faucets()[0].address;
    const { body } = await callPost(testnet, 'getExtendedAddressInformation', { address: faucet.toRawString() });
    assert.equal(body.result.address.account_address, faucet.toString({ bounceable: true, urlSafe: true, testOnly: true }));
    const detected = await callRpc(testnet, 'detectAddress', { address: faucet.toRawString() });
    assert.equal(detected.body.result.test_only, true);
  });
});

describe('get-methods, sending, fees', () => {
  test('runGetMethod: legacy stack, as of a seqno, exit code -13 for an account without code, failures are results', async () => {
    const now = await postOnly(
      'runGetMethod',
      { address: addr(s.wallet.address), method: 'seqno', stack: [] },
      { docs: 'RunGetMethodResult' },
    );
    assert.deepEqual(now.stack, [['num', '0x3']]);
    assert.equal(now.exit_code, 0);
    assert.equal(typeof now.gas_used, 'number');
    const before = await postOnly(
      'runGetMethod',
      { address: addr(s.wallet.address), method: 'seqno', stack: [], seqno: s.comment.seqnoBefore },
      { docs: 'RunGetMethodResult' },
    );
    assert.deepEqual(before.stack, [['num', '0x2']]);
    assert.equal(before.block_id.seqno, s.comment.seqnoBefore);
    const byId = await postOnly(
      'runGetMethod',
      { address: addr(s.wallet.address), method: 85143, stack: [] },
      { docs: 'RunGetMethodResult' },
    );
    assert.deepEqual(byId.stack, now.stack, '85143 is the id of seqno');

    const owner = beginCell().storeAddress(s.jetton.owner).endCell().toBoc().toString('base64');
    const wallet = await postOnly(
      'runGetMethod',
      { address: addr(s.jetton.master), method: 'get_wallet_address', stack: [['tvm.Slice', owner]] },
      { docs: 'RunGetMethodResult' },
    );
    assert.equal(wallet.stack[0][0], 'cell', 'slices are reported as cells');
    assert.ok(Cell.fromBase64(wallet.stack[0][1].bytes).beginParse().loadAddress().equals(s.jetton.wallet));
    const plugins = await postOnly(
      'runGetMethod',
      { address: addr(s.wallet.address), method: 'get_plugin_list', stack: [] },
      { docs: 'RunGetMethodResult' },
    );
    assert.deepEqual(plugins.stack, [['list', { '@type': 'tvm.list', elements: [] }]], 'TVM null as an empty list');

    const uninit = await postOnly('runGetMethod', { address: addr(s.nobody), method: 'seqno', stack: [] }, { docs: 'RunGetMethodResult' });
    assert.deepEqual([uninit.exit_code, uninit.stack], [-13, []]);
    const missing = await postOnly(
      'runGetMethod',
      { address: addr(s.wallet.address), method: 'no_such_method', stack: [] },
      { docs: 'RunGetMethodResult' },
    );
    assert.equal(missing.exit_code, 11);
  });

  test('runGetMethodStd: typed stack in, typed stack out', async () => {
    const owner = beginCell().storeAddress(s.jetton.owner).endCell().toBoc().toString('base64');
    const stack = [{ '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: owner } }];
    const result = await postOnly(
      'runGetMethodStd',
      { address: addr(s.jetton.master), method: 'get_wallet_address', stack },
      { docs: 'RunGetMethodStdResult' },
    );
    assert.equal(result.stack[0]['@type'], 'tvm.stackEntryCell');
    assert.ok(Cell.fromBase64(result.stack[0].cell.bytes).beginParse().loadAddress().equals(s.jetton.wallet));
    const seqno = await postOnly(
      'runGetMethodStd',
      { address: addr(s.wallet.address), method: 'seqno', stack: [] },
      { docs: 'RunGetMethodStdResult' },
    );
    assert.deepEqual(seqno.stack, [{ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '3' } }]);
  });

  test("sendBoc / sendBocReturnHash(NoError): accepted messages land in the next block; a replay is refused in the liteserver's words", async () => {
    const to = s.receiver;
    const viaRest = await callPost(s.base, 'sendBoc', {
      boc: transferBoc(s.wallet, 3, [internal({ to, value: toNano('0.01'), bounce: false })]).toString('base64'),
    });
    assert.deepEqual(viaRest.body.result, { '@type': 'ok' });
    assert.deepEqual(v2Spec().validate('/api/v2/sendBoc', 'post', 200, viaRest.body), []);
    const viaRpc = await callRpc(s.base, 'sendBoc', {
      boc: transferBoc(s.wallet, 4, [internal({ to, value: toNano('0.01'), bounce: false })]).toString('base64'),
    });
    assert.deepEqual(essence(viaRpc), essence(viaRest), 'the same answer for another accepted message');

    const boc = transferBoc(s.wallet, 5, [internal({ to, value: toNano('0.01'), bounce: false })]);
    const hashed = await callPost(s.base, 'sendBocReturnHash', { boc: boc.toString('base64') });
    assertOk('sendBocReturnHash', hashed);
    assert.deepEqual(v2Spec().validate('/api/v2/sendBocReturnHash', 'post', 200, hashed.body), []);
    assert.equal(hashed.body.result.hash, Cell.fromBoc(boc)[0].hash().toString('base64'));
    assert.match(hashed.body.result.hash_norm, B64);
    const noError = await callRpc(s.base, 'sendBocReturnHashNoError', {
      boc: transferBoc(s.wallet, 6, [internal({ to, value: toNano('0.01'), bounce: false })]).toString('base64'),
    });
    assert.deepEqual(Object.keys(noError.body.result), ['@type', 'hash', 'hash_norm']);
    await s.chain.produceBlock();
    assert.equal((await callPost(s.base, 'getWalletInformation', { address: addr(s.wallet.address) })).body.result.seqno, 7);

    // A replay (seqno 5 again): the wallet refuses it; REST and JSON-RPC give the same error, never a 200.
    for (const method of ['sendBoc', 'sendBocReturnHash', 'sendBocReturnHashNoError']) {
      called.add(method);
      const answers = await callAll(s.base, method, { boc: boc.toString('base64') }, false);
      assertSameEverywhere(method, answers);
      assertError(
        method,
        answers.post,
        400,
        /^LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n[\s\S]*exitcode=33/,
      );
    }
  });

  test('estimateFee: from an emulation; a message the contract would not accept costs only its import fee', async () => {
    // A wallet transfer with a placeholder signature (ignore_chksig lets it through), from the funded wallet.
    const transfer = () => [internal({ to: s.receiver, value: toNano('0.05'), bounce: false })];
    const body = s.wallet.contract.createTransfer({ seqno: 7, secretKey: Buffer.alloc(64), messages: transfer() });
    const params = { address: addr(s.wallet.address), body: body.toBoc().toString('base64') };
    const fees = await postOnly('estimateFee', params, { docs: 'QueryFees' });
    assert.equal(fees.source_fees['@type'], 'fees');
    for (const key of ['in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee']) assert.equal(typeof fees.source_fees[key], 'number', key);
    assert.ok(fees.source_fees.gas_fee > 0);
    assert.ok(fees.source_fees.fwd_fee > 0, 'the transfer sends a message');
    // The same fees as the real transaction: send it signed, and compare with what the chain charged.
    const signed = transferBoc(s.wallet, 7, transfer());
    await s.chain.sendExternal(signed);
    await s.chain.produceBlock();
    const [tx] = s.chain.getTransactions(s.wallet.address, { limit: 1 });
    const d = tx.tx.description;
    assert.ok(d.type === 'generic' && d.computePhase.type === 'vm');
    assert.equal(BigInt(fees.source_fees.gas_fee), d.computePhase.gasFees);
    assert.equal(BigInt(fees.source_fees.fwd_fee), d.actionPhase!.totalFwdFees ?? 0n);

    // Refused without ignore_chksig (the signature is zeros), and a deploy of an unfunded wallet: no gas,
    // no forwarding, only the import fee, which equals the import fee of an accepted message of that size.
    const refused = await postOnly('estimateFee', { ...params, ignore_chksig: false }, { docs: 'QueryFees' });
    assert.deepEqual({ ...refused.source_fees, in_fwd_fee: 0 }, { '@type': 'fees', in_fwd_fee: 0, storage_fee: 0, gas_fee: 0, fwd_fee: 0 });
    assert.equal(refused.source_fees.in_fwd_fee, fees.source_fees.in_fwd_fee, 'the import fee of the same message');
    const fresh = WalletContractV4.create({ workchain: 0, publicKey: keyPairFromSeed(Buffer.alloc(32, 99)).publicKey });
    const deploy = await postOnly(
      'estimateFee',
      {
        address: fresh.address.toString({ bounceable: false }),
        body: fresh
          .createTransfer({ seqno: 0, secretKey: Buffer.alloc(64), messages: [] })
          .toBoc()
          .toString('base64'),
        init_code: fresh.init.code.toBoc().toString('base64'),
        init_data: fresh.init.data.toBoc().toString('base64'),
      },
      { docs: 'QueryFees' },
    );
    assert.ok(deploy.source_fees.in_fwd_fee > fees.source_fees.in_fwd_fee, 'a StateInit makes the message bigger');
    assert.equal(deploy.source_fees.gas_fee, 0);
  });

  test('get-method results follow every new block, and stay those of the block asked for', async () => {
    const ask = async (seqno?: number) =>
      await postOnly(
        'runGetMethod',
        { address: addr(s.wallet.address), method: 'seqno', stack: [], ...(seqno === undefined ? {} : { seqno }) },
        { docs: 'RunGetMethodResult' },
      );
    const first = await ask();
    assert.deepEqual(await ask(), first, 'the same block: the same answer');
    const seqno = Number(BigInt(first.stack[0][1]));
    await s.chain.sendExternal(transferBoc(s.wallet, seqno, [internal({ to: s.receiver, value: toNano('0.01'), bounce: false })]));
    await s.chain.produceBlock();
    const next = await ask();
    assert.deepEqual(next.stack, [['num', `0x${(seqno + 1).toString(16)}`]]);
    assert.equal(next.block_id.seqno, first.block_id.seqno + 1);
    assert.deepEqual(await ask(first.block_id.seqno), first, 'as of the earlier block: the earlier answer');
  });
});

test("every method of the table was called above, and toncenter's spec lists nothing we do not serve", () => {
  const served = new Set(V2_METHODS.flatMap((m) => [m.name, ...(m.aliases ?? [])]));
  for (const name of served) assert.ok(called.has(name), `${name} was tested here`);
  const specPaths = Object.keys(JSON.parse(JSON.stringify((v2Spec() as any).spec.paths))).map((p) => p.replace('/api/v2/', ''));
  for (const name of specPaths) if (name !== 'jsonRPC') assert.ok(served.has(name), `toncenter's ${name} is served`);
  for (const name of ['getShardAccountCell', 'dnsResolve', 'sendBocReturnHashNoError', 'shards']) assert.ok(served.has(name));
});
