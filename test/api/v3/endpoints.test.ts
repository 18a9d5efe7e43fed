/**
 * Every v3 read endpoint over HTTP, on an index filled with the sandbox story (test/index/support),
 * on SQLite and on PostgreSQL: each filter and sort, the response shapes (toncenter's spec with its
 * documented exceptions, and our own stricter document), and bad input.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Address } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { FIRST_SEQNO, NOWHERE, story, type Story } from '../../index/support/sandbox-blocks.js';
import { openStore } from '../../index/support/stores.js';
import { serveIndex, type V3Server } from './support/server.js';
import { THROUGH_UPSTREAM } from '../../support/through-upstream.js';
import { ourV3, toncenterV3, type ResponseValidator } from './support/spec.js';

const b64 = (tx: { hash(): Buffer }) => tx.hash().toString('base64');
const hex = (tx: { hash(): Buffer }) => tx.hash().toString('hex');
const urlSafe = (text: string) => text.replace(/\+/g, '-').replace(/\//g, '_');
const q = encodeURIComponent;

interface Client {
  /** GET expecting 200; the body is validated against both documents. */
  ok(path: string): Promise<any>;
  /** GET expecting an error status; returns the `error` message. */
  fails(path: string, status: number): Promise<string>;
}

async function client(server: V3Server): Promise<Client> {
  const ours: ResponseValidator = ourV3((await server.get('/api/v3/openapi.json')).body);
  return {
    async ok(path) {
      const response = await server.get(path);
      assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
      const route = path.split('?')[0];
      assert.deepEqual(toncenterV3().errors(route, response.body), [], `${path} against toncenter's spec`);
      assert.deepEqual(ours.errors(route, response.body), [], `${path} against our openapi.json`);
      return response.body;
    },
    async fails(path, status) {
      const response = await server.get(path);
      assert.equal(response.status, status, `${path}: ${JSON.stringify(response.body)}`);
      assert.deepEqual(Object.keys(response.body), ['error'], 'v3 errors are {"error": "..."}');
      return response.body.error;
    },
  };
}

async function setup(t: TestContext, store: 'sqlite' | 'postgres'): Promise<{ api: Client; s: Story } | null> {
  const opened = await openStore(t, store);
  if (!opened) return null;
  const s = await story();
  for (const block of s.blocks) await opened.index.writer.write(block);
  const server = await serveIndex(t, opened.index, 'testnet');
  return { api: await client(server), s };
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`v3 endpoints over HTTP [${store}]`, async (t) => {
    const ready = await setup(t, store);
    if (!ready) return;
    const { api, s } = ready;
    const A = formatRawUpper(s.walletA);
    const B = formatRawUpper(s.walletB);
    const T = formatRawUpper(s.treasury);
    const helloHash = s.helloReceived.raw.refs[0].beginParse().loadMaybeRef()!.hash();

    await t.test('masterchainInfo: last then first, from the index', async () => {
      const body = await api.ok('/api/v3/masterchainInfo');
      assert.deepEqual(Object.keys(body), ['last', 'first']);
      assert.equal(body.last.seqno, FIRST_SEQNO + 4);
      assert.equal(body.first.seqno, FIRST_SEQNO);
      assert.equal(body.last.shard, '8000000000000000');
      assert.equal(body.last.workchain, -1);
      assert.equal(typeof body.last.gen_utime, 'string');
      assert.equal(body.last.root_hash, s.blocks[4].masterchain.id.rootHash.toString('base64'));
    });

    await t.test('blocks: default page, filters, order, paging', async () => {
      const all = (await api.ok('/api/v3/blocks')).blocks;
      assert.equal(all.length, 10, 'default limit 10');
      assert.deepEqual(
        all.slice(0, 2).map((b: any) => [b.workchain, b.seqno]),
        [
          [-1, FIRST_SEQNO + 4],
          [0, FIRST_SEQNO + 4],
        ],
      );
      assert.deepEqual(
        (await api.ok('/api/v3/blocks?sort=asc&limit=2')).blocks.map((b: any) => [b.workchain, b.seqno]),
        [
          [0, FIRST_SEQNO],
          [-1, FIRST_SEQNO],
        ],
      );
      assert.equal((await api.ok('/api/v3/blocks?limit=3&offset=9')).blocks.length, 1);
      const master = (await api.ok('/api/v3/blocks?workchain=-1')).blocks;
      assert.equal(master.length, 5);
      assert.ok(master.every((b: any) => b.workchain === -1 && b.masterchain_block_ref.seqno === b.seqno));
      const one = (await api.ok(`/api/v3/blocks?workchain=0&shard=8000000000000000&seqno=${FIRST_SEQNO + 1}`)).blocks;
      assert.equal(one.length, 1);
      assert.deepEqual(one[0].masterchain_block_ref, { workchain: -1, shard: '8000000000000000', seqno: FIRST_SEQNO + 1 });
      assert.equal(one[0].tx_count, 3);
      assert.deepEqual(one[0].prev_blocks, [{ workchain: 0, shard: '8000000000000000', seqno: FIRST_SEQNO }]);
      const root = s.blocks[2].masterchain.id.rootHash;
      for (const form of [root.toString('hex'), root.toString('base64'), urlSafe(root.toString('base64')), `0x${root.toString('hex')}`]) {
        assert.deepEqual(
          (await api.ok(`/api/v3/blocks?root_hash=${q(form)}`)).blocks.map((b: any) => b.seqno),
          [FIRST_SEQNO + 2],
          form,
        );
      }
      const file = s.blocks[3].shards[0].id.fileHash.toString('hex');
      assert.deepEqual(
        (await api.ok(`/api/v3/blocks?file_hash=${file}`)).blocks.map((b: any) => [b.workchain, b.seqno]),
        [[0, FIRST_SEQNO + 3]],
      );
      assert.equal((await api.ok(`/api/v3/blocks?mc_seqno=${FIRST_SEQNO + 3}`)).blocks.length, 2);
      const utime = s.blocks[1].masterchain.genUtime;
      assert.deepEqual(
        (await api.ok(`/api/v3/blocks?start_utime=${utime}&end_utime=${utime}.9`)).blocks.map((b: any) => b.seqno),
        [FIRST_SEQNO + 1, FIRST_SEQNO + 1],
      );
      const lt = s.blocks[3].shards[0].startLt;
      assert.ok((await api.ok(`/api/v3/blocks?start_lt=${lt}`)).blocks.every((b: any) => BigInt(b.start_lt) >= lt));
      assert.ok((await api.ok(`/api/v3/blocks?end_lt=${lt}&limit=100`)).blocks.every((b: any) => BigInt(b.start_lt) <= lt));
      assert.equal((await api.ok('/api/v3/blocks?shard=-9223372036854775808&limit=100')).blocks.length, 10, 'signed decimal shard');
    });

    await t.test('masterchainBlockShardState and masterchainBlockShards', async () => {
      const state = (await api.ok(`/api/v3/masterchainBlockShardState?seqno=${FIRST_SEQNO + 1}`)).blocks;
      assert.deepEqual(
        state.map((b: any) => [b.workchain, b.seqno]),
        [[0, FIRST_SEQNO + 1]],
      );
      assert.equal(await api.fails('/api/v3/masterchainBlockShardState?seqno=7', 404), 'blocks not found');
      const round = (await api.ok(`/api/v3/masterchainBlockShards?seqno=${FIRST_SEQNO + 1}`)).blocks;
      assert.deepEqual(
        round.map((b: any) => b.workchain),
        [-1, 0],
      );
      assert.equal((await api.ok(`/api/v3/masterchainBlockShards?seqno=${FIRST_SEQNO + 1}&limit=1`)).blocks.length, 1);
      assert.equal(await api.fails('/api/v3/masterchainBlockShards?seqno=7', 404), 'blocks not found');
    });

    await t.test('transactions: shape, messages and states merged back, address book', async () => {
      const body = await api.ok(`/api/v3/transactions?hash=${hex(s.deployA)}`);
      assert.equal(body.transactions.length, 1);
      const tx = body.transactions[0];
      assert.deepEqual(Object.keys(tx), [
        'account',
        'hash',
        'lt',
        'now',
        'mc_block_seqno',
        'trace_id',
        'prev_trans_hash',
        'prev_trans_lt',
        'orig_status',
        'end_status',
        'total_fees',
        'total_fees_extra_currencies',
        'description',
        'block_ref',
        'in_msg',
        'out_msgs',
        'account_state_before',
        'account_state_after',
        'emulated',
        'finality',
      ]);
      assert.equal(tx.account, A);
      assert.equal(tx.trace_id, tx.hash, "A's deploy took the external message: it is its trace's root");
      assert.equal(tx.hash, b64(s.deployA));
      assert.equal(tx.lt, s.deployA.lt.toString());
      assert.equal(tx.mc_block_seqno, FIRST_SEQNO + 1);
      assert.deepEqual(tx.block_ref, { workchain: 0, shard: '8000000000000000', seqno: FIRST_SEQNO + 1 });
      assert.deepEqual([tx.orig_status, tx.end_status], ['uninit', 'active']);
      assert.equal(tx.description.type, 'ord');
      assert.equal(tx.in_msg.source, null, 'an external-in message');
      assert.equal(tx.in_msg.destination, A);
      assert.ok(tx.in_msg.hash_norm);
      assert.deepEqual(
        tx.out_msgs.map((m: any) => m.message_content.decoded?.comment),
        ['hello', 'to treasury'],
      );
      assert.deepEqual(
        tx.out_msgs.map((m: any) => m.destination),
        [B, T],
      );
      assert.ok(tx.out_msgs.every((m: any) => m.opcode === '0x00000000' && m.source === A && !('in_msg_tx_hash' in m)));
      assert.equal(tx.account_state_before.hash, s.deployA.stateUpdate.oldHash.toString('base64'));
      assert.equal(tx.account_state_before.account_status, 'uninit', 'the state block 1 ended with');
      assert.equal(tx.account_state_after.account_status, 'active');
      assert.equal(typeof tx.account_state_after.balance, 'string');
      assert.ok(tx.account_state_after.code_hash);
      assert.deepEqual(
        Object.keys(body.address_book).sort(),
        [A, B, T].sort(),
        'the account, its inbound source (none) and outbound destinations',
      );
      assert.match(body.address_book[A].user_friendly, /^0Q/, 'a wallet: non-bounceable, test-only (testnet)');
      assert.deepEqual(body.address_book[A].interfaces, ['wallet_v4r2']);
      assert.equal(body.address_book[A].domain, null);
      assert.match(body.address_book[T].user_friendly, /^kQ/, 'a contract that is no wallet: bounceable, test-only');
      assert.equal(Address.parse(body.address_book[B].user_friendly).toRawString().toUpperCase(), B.toUpperCase());

      const fund = (await api.ok(`/api/v3/transactions?hash=${b64(s.fundA)}`)).transactions[0];
      assert.equal(fund.in_msg.source, T);
      assert.equal(fund.description.compute_ph.skipped, true);
      assert.equal(fund.description.compute_ph.reason, 'no_state');
      assert.equal(fund.account_state_before.balance, null, 'a nonexistent account: hash only');
      const bounce = (await api.ok(`/api/v3/transactions?hash=${q(urlSafe(b64(s.bounce)))}`)).transactions[0];
      assert.equal(bounce.description.bounce.type, 'ok');
      assert.equal(bounce.out_msgs[0].bounced, true);
      assert.equal(bounce.out_msgs[0].opcode, '0xffffffff');
    });

    await t.test('transactions: every filter, order and page', async () => {
      const ids = (body: any) => body.transactions.map((tx: any) => tx.hash);
      const all = await api.ok('/api/v3/transactions?limit=100');
      assert.equal(all.transactions.length, s.transactions.length);
      const lts = all.transactions.map((tx: any) => BigInt(tx.lt));
      assert.deepEqual(
        lts,
        [...lts].sort((a, b) => (a > b ? -1 : 1)),
        'newest first by default',
      );
      assert.deepEqual(ids(await api.ok('/api/v3/transactions?limit=100&sort=asc')), [...ids(all)].reverse());
      assert.equal((await api.ok('/api/v3/transactions')).transactions.length, 10, 'default limit 10');
      assert.deepEqual(ids(await api.ok('/api/v3/transactions?limit=2&offset=3')), ids(all).slice(3, 5));

      const ofA = [s.replyReceived, s.bouncedBack, s.bounceSent, s.deployA, s.fundA].map(b64);
      const friendly = Address.parseRaw(A);
      for (const form of [
        A,
        A.toLowerCase(),
        friendly.toString({ bounceable: true }),
        friendly.toString({ bounceable: false, testOnly: true }),
        friendly.toString({ urlSafe: false }),
      ]) {
        assert.deepEqual(ids(await api.ok(`/api/v3/transactions?account=${q(form)}`)), ofA, form);
      }
      const two = await api.ok(`/api/v3/transactions?account=${A}&account=${B}&limit=100`);
      assert.equal(two.transactions.length, ofA.length + 2);
      assert.deepEqual(
        ids(await api.ok(`/api/v3/transactions?account=${A},${B}&limit=100`)),
        ids(two),
        'a comma-separated list reads as repeated keys',
      );
      assert.equal((await api.ok('/api/v3/transactions?limit=1000')).transactions.length, s.transactions.length, 'limit 1000 is allowed');
      assert.deepEqual((await api.ok('/api/v3/transactions?offset=500')).transactions, [], 'past the end: an empty page');
      assert.ok(two.transactions.every((tx: any) => tx.account === A || tx.account === B));
      const excluded = await api.ok(`/api/v3/transactions?exclude_account=${A}&exclude_account=${T}&limit=100`);
      assert.ok(excluded.transactions.length > 0 && excluded.transactions.every((tx: any) => tx.account !== A && tx.account !== T));
      assert.deepEqual(ids(await api.ok(`/api/v3/transactions?lt=${s.bounce.lt}`)), [b64(s.bounce)]);
      const window = await api.ok(`/api/v3/transactions?start_lt=${s.deployA.lt}&end_lt=${s.bounceSent.lt}&sort=asc&limit=100`);
      assert.deepEqual(
        window.transactions.map((tx: any) => tx.lt),
        [s.deployA, s.helloReceived, s.treasuryReceived, s.bounceSent].map((tx) => tx.lt.toString()),
      );
      const now = s.bounce.now;
      assert.ok((await api.ok(`/api/v3/transactions?start_utime=${now}&end_utime=${now}`)).transactions.every((tx: any) => tx.now === now));
      assert.equal((await api.ok(`/api/v3/transactions?mc_seqno=${FIRST_SEQNO + 1}`)).transactions.length, 3);
      assert.equal(
        (await api.ok(`/api/v3/transactions?workchain=0&shard=8000000000000000&seqno=${FIRST_SEQNO + 2}`)).transactions.length,
        3,
      );
      assert.equal((await api.ok('/api/v3/transactions?workchain=-1')).transactions.length, 0);
      assert.equal(await api.fails('/api/v3/transactions?mc_seqno=7', 404), 'masterchain block 7 not found');
      assert.deepEqual(await api.ok(`/api/v3/transactions?account=${formatRawUpper(new Address(0, Buffer.alloc(32, 3)))}`), {
        transactions: [],
        address_book: {},
      });
    });

    await t.test('transactionsByMasterchainBlock', async () => {
      const body = await api.ok(`/api/v3/transactionsByMasterchainBlock?seqno=${FIRST_SEQNO + 1}&sort=asc`);
      assert.deepEqual(
        body.transactions.map((tx: any) => tx.hash),
        [s.deployA, s.helloReceived, s.treasuryReceived].map(b64),
      );
      assert.equal(
        (await api.ok(`/api/v3/transactionsByMasterchainBlock?seqno=${FIRST_SEQNO + 1}&limit=1`)).transactions[0].hash,
        b64(s.treasuryReceived),
      );
      assert.deepEqual((await api.ok(`/api/v3/transactionsByMasterchainBlock?seqno=${FIRST_SEQNO + 4}`)).transactions, []);
      assert.equal(await api.fails('/api/v3/transactionsByMasterchainBlock?seqno=7', 404), 'masterchain block 7 not found');
    });

    await t.test('transactionsByMessage: by hash, body hash, opcode, direction', async () => {
      const ids = async (path: string) => (await api.ok(path)).transactions.map((tx: any) => tx.hash);
      assert.deepEqual(
        await ids(`/api/v3/transactionsByMessage?msg_hash=${helloHash.toString('hex')}`),
        [s.helloReceived, s.deployA].map(b64),
      );
      assert.deepEqual(await ids(`/api/v3/transactionsByMessage?msg_hash=${q(helloHash.toString('base64'))}&direction=in`), [
        b64(s.helloReceived),
      ]);
      assert.deepEqual(await ids(`/api/v3/transactionsByMessage?msg_hash=${helloHash.toString('hex')}&direction=out`), [b64(s.deployA)]);
      assert.deepEqual(
        await ids(`/api/v3/transactionsByMessage?body_hash=${s.helloReceived.inMessage!.body.hash().toString('hex')}&direction=in`),
        [b64(s.helloReceived)],
      );
      assert.deepEqual(await ids('/api/v3/transactionsByMessage?opcode=0xffffffff'), [b64(s.bouncedBack)]);
      assert.deepEqual(await ids('/api/v3/transactionsByMessage?opcode=-1'), [b64(s.bouncedBack)], 'signed decimal opcode');
      assert.deepEqual(await ids('/api/v3/transactionsByMessage?opcode=0x00ffffffff'), [b64(s.bouncedBack)], 'leading zeros, as toncenter');
      assert.equal((await ids('/api/v3/transactionsByMessage?opcode=0&limit=100')).length, 4, 'every received comment');
      assert.equal(
        await api.fails('/api/v3/transactionsByMessage', 422),
        'at least one of msg_hash, body_hash, opcode should be specified',
      );
      assert.equal(
        await api.fails(`/api/v3/transactionsByMessage?msg_hash=${helloHash.toString('hex')}&direction=up`, 422),
        "direction should be one of: in, out (got 'up')",
      );
    });

    await t.test('adjacentTransactions: parent, children, both', async () => {
      const ids = async (path: string) => (await api.ok(path)).transactions.map((tx: any) => tx.hash);
      assert.deepEqual(
        await ids(`/api/v3/adjacentTransactions?hash=${hex(s.deployA)}&direction=out`),
        [s.helloReceived, s.treasuryReceived].map(b64),
      );
      assert.deepEqual(await ids(`/api/v3/adjacentTransactions?hash=${hex(s.helloReceived)}&direction=in`), [b64(s.deployA)]);
      assert.deepEqual(await ids(`/api/v3/adjacentTransactions?hash=${hex(s.bounce)}`), [s.bounceSent, s.bouncedBack].map(b64));
      assert.equal(
        await api.fails(`/api/v3/adjacentTransactions?hash=${hex(s.deployA)}&direction=in`, 404),
        'adjacent transactions not found',
      );
      assert.equal(await api.fails('/api/v3/adjacentTransactions', 422), 'failed to parse parameter hash: required');
    });

    await t.test('messages: filters, externals, ends, order', async () => {
      const all = await api.ok('/api/v3/messages?limit=100');
      assert.equal(all.messages.length, 10, '4 externals + 6 internals, each once');
      assert.deepEqual(all.metadata, {});
      const hello = all.messages.find((m: any) => m.hash === helloHash.toString('base64'));
      assert.equal(hello.out_msg_tx_hash, b64(s.deployA));
      assert.equal(hello.in_msg_tx_hash, b64(s.helloReceived));
      assert.deepEqual(Object.keys(hello), [
        'hash',
        'source',
        'destination',
        'value',
        'value_extra_currencies',
        'fwd_fee',
        'ihr_fee',
        'extra_flags',
        'created_lt',
        'created_at',
        'opcode',
        'decoded_opcode',
        'ihr_disabled',
        'bounce',
        'bounced',
        'import_fee',
        'in_msg_tx_hash',
        'out_msg_tx_hash',
        'message_content',
        'init_state',
      ]);
      const external = all.messages.find((m: any) => m.source === null && m.destination === A && m.init_state !== null);
      assert.ok(external.hash_norm, 'the deploy external, with its StateInit and normalized hash');
      assert.equal(external.out_msg_tx_hash, undefined);
      assert.equal(Object.keys(external).at(-1), 'hash_norm');

      const hashes = (body: any) => body.messages.map((m: any) => m.hash);
      assert.deepEqual(hashes(await api.ok('/api/v3/messages?limit=100&sort=asc')), [...hashes(all)].reverse());
      assert.deepEqual(hashes(await api.ok('/api/v3/messages?limit=3&offset=2')), hashes(all).slice(2, 5));
      assert.deepEqual(hashes(await api.ok(`/api/v3/messages?msg_hash=${helloHash.toString('hex')}`)), [helloHash.toString('base64')]);
      assert.deepEqual(
        hashes(await api.ok(`/api/v3/messages?hash=${helloHash.toString('hex')}`)),
        [helloHash.toString('base64')],
        'the legacy name',
      );
      assert.deepEqual(hashes(await api.ok(`/api/v3/messages?msg_hash=${q(external.hash_norm)}`)), [external.hash], 'by normalized hash');
      assert.equal(
        (await api.ok(`/api/v3/messages?msg_hash=${helloHash.toString('hex')}&msg_hash=${q(external.hash)}`)).messages.length,
        2,
      );
      assert.equal(
        await api.fails(`/api/v3/messages?msg_hash=${helloHash.toString('hex')}&hash=${helloHash.toString('hex')}`, 422),
        'cannot use both legacy and new message hashes',
      );
      const externals = (await api.ok('/api/v3/messages?source=null&limit=100')).messages;
      assert.equal(externals.length, 4);
      assert.ok(externals.every((m: any) => m.source === null && m.created_lt === null && m.import_fee === '0'));
      assert.deepEqual(
        hashes(await api.ok('/api/v3/messages?only_externals=true&limit=100')).sort(),
        externals.map((m: any) => m.hash).sort(),
      );
      assert.equal((await api.ok('/api/v3/messages?exclude_externals=1&limit=100')).messages.length, 6);
      assert.deepEqual((await api.ok('/api/v3/messages?destination=null')).messages, []);
      assert.deepEqual(
        (await api.ok(`/api/v3/messages?source=${A}&limit=100`)).messages.map((m: any) => m.message_content.decoded?.comment),
        ['bounce me', 'to treasury', 'hello'],
      );
      const toA = (await api.ok(`/api/v3/messages?destination=${q(Address.parseRaw(A).toString())}&limit=100`)).messages;
      assert.equal(toA.length, 5);
      assert.ok(toA.every((m: any) => m.destination === A));
      const bounced = (await api.ok('/api/v3/messages?opcode=0xffffffff')).messages;
      assert.equal(bounced.length, 1);
      assert.equal(bounced[0].bounced, true);
      assert.equal(bounced[0].source, formatRawUpper(NOWHERE));
      assert.equal((await api.ok('/api/v3/messages?opcode=0&limit=100')).messages.length, 4);
      assert.equal(
        (await api.ok(`/api/v3/messages?body_hash=${s.helloReceived.inMessage!.body.hash().toString('hex')}`)).messages[0].hash,
        helloHash.toString('base64'),
      );
      assert.ok((await api.ok('/api/v3/messages?direction=in&limit=100')).messages.every((m: any) => m.in_msg_tx_hash));
      const out = (await api.ok('/api/v3/messages?direction=out&limit=100')).messages;
      assert.ok(out.length === 6 && out.every((m: any) => m.out_msg_tx_hash));
      const created = s.helloReceived.inMessage!.info as { createdLt: bigint; createdAt: number };
      assert.deepEqual(hashes(await api.ok(`/api/v3/messages?start_lt=${created.createdLt}&end_lt=${created.createdLt}`)), [
        helloHash.toString('base64'),
      ]);
      const atTime = (await api.ok(`/api/v3/messages?start_utime=${created.createdAt}&end_utime=${created.createdAt}&limit=100`)).messages;
      assert.ok(atTime.length > 0 && atTime.every((m: any) => m.created_at === String(created.createdAt)));
      assert.deepEqual(
        Object.keys(all.address_book).sort(),
        [...new Set(all.messages.flatMap((m: any) => [m.source, m.destination]).filter(Boolean))].sort(),
      );
    });

    await t.test('addressBook and metadata', async () => {
      const friendly = Address.parseRaw(A).toString({ bounceable: true, testOnly: false });
      const book = await api.ok(
        `/api/v3/addressBook?address=${q(friendly)}&address=${A}&address=not-an-address&address=${formatRawUpper(NOWHERE)}`,
      );
      assert.deepEqual(Object.keys(book), [friendly, A, 'not-an-address', formatRawUpper(NOWHERE)], 'keyed by the addresses as given');
      assert.equal(book[friendly].user_friendly, book[A].user_friendly);
      assert.match(book[A].user_friendly, /^0Q/);
      assert.deepEqual(book['not-an-address'], { user_friendly: null, domain: null, interfaces: [] });
      assert.match(book[formatRawUpper(NOWHERE)].user_friendly, /^0Q/, 'no code: non-bounceable');
      assert.equal(await api.fails('/api/v3/addressBook', 422), 'at least 1 address required');
      assert.deepEqual(await api.ok(`/api/v3/metadata?address=${A}`), {});
      assert.equal(await api.fails('/api/v3/metadata', 422), 'at least 1 address required');
    });

    await t.test('accountStates, walletStates, topAccountsByBalance', async () => {
      const states = await api.ok(
        `/api/v3/accountStates?address=${A}&address=${q(Address.parseRaw(T).toString())}&address=${formatRawUpper(new Address(0, Buffer.alloc(32, 3)))}`,
      );
      assert.deepEqual(
        states.accounts.map((a: any) => a.address),
        [A, T],
        'known accounts, in the order asked',
      );
      const a = states.accounts[0];
      assert.equal(a.status, 'active');
      assert.equal(a.last_transaction_hash, b64(s.replyReceived));
      assert.equal(a.last_transaction_lt, s.replyReceived.lt.toString());
      assert.ok(a.code_boc && a.data_boc && a.code_hash && a.data_hash);
      assert.deepEqual(a.interfaces, ['wallet_v4r2']);
      assert.equal(a.contract_methods, null);
      assert.deepEqual(states.metadata, {});
      assert.deepEqual(Object.keys(states.address_book).sort(), [A, T].sort());
      const lean = (await api.ok(`/api/v3/accountStates?address=${A}&include_boc=false`)).accounts[0];
      assert.equal('code_boc' in lean || 'data_boc' in lean, false);
      assert.equal(await api.fails('/api/v3/accountStates', 422), 'address of account is required');

      const wallets = (await api.ok(`/api/v3/walletStates?address=${A}&address=${T}`)).wallets;
      assert.deepEqual(wallets[0], {
        address: A,
        is_wallet: true,
        wallet_type: 'wallet v4 r2',
        seqno: 2,
        wallet_id: 698983191,
        balance: a.balance,
        status: 'active',
        code_hash: a.code_hash,
        last_transaction_hash: a.last_transaction_hash,
        last_transaction_lt: a.last_transaction_lt,
      });
      assert.equal(wallets[1].is_wallet, false);
      assert.equal('wallet_type' in wallets[1], false);
      assert.equal(await api.fails('/api/v3/walletStates', 422), 'address of account is required');

      const top = await api.ok('/api/v3/topAccountsByBalance');
      const balances = top.map((r: any) => BigInt(r.balance));
      assert.deepEqual(
        balances,
        [...balances].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)),
      );
      assert.equal(top[0].account, T);
      assert.deepEqual(await api.ok('/api/v3/topAccountsByBalance?limit=1&offset=1'), [top[1]]);
    });

    await t.test('bad input: 4xx naming the parameter, never 500', async () => {
      const cases: [string, RegExp][] = [
        ['/api/v3/transactions?limit=2000', /^limit is not allowed: 2000 > 1000$/],
        ['/api/v3/blocks?limit=abc', /parameter limit: expected an integer/],
        ['/api/v3/transactions?sort=sideways', /sort parameter: 'sideways'/],
        ['/api/v3/transactions?account=garbage', /parameter account: .*garbage/],
        ['/api/v3/transactions?account=0:1234', /parameter account/],
        ['/api/v3/transactions?exclude_account=EQbad', /parameter exclude_account/],
        ['/api/v3/transactions?hash=xyz', /parameter hash: .*xyz/],
        ['/api/v3/transactions?lt=1e5', /parameter lt: expected an integer/],
        // lts are signed 64-bit in the index (2^63 answered 500 from SQLite); a huge number is not parsed whole.
        [
          '/api/v3/transactions?lt=9223372036854775808',
          /parameter lt: 9223372036854775808 is out of range -9223372036854775808\.\.9223372036854775807/,
        ],
        ['/api/v3/transactions?end_lt=18446744073709551615', /parameter end_lt: .* is out of range/],
        ['/api/v3/blocks?start_lt=9223372036854775808', /parameter start_lt: .* is out of range/],
        ['/api/v3/messages?end_lt=-9223372036854775809', /parameter end_lt: .* is out of range/],
        [`/api/v3/messages?start_lt=${'9'.repeat(2_000)}`, /parameter start_lt: 9{100}\.\.\. is out of range/],
        ['/api/v3/blocks?workchain=abc', /parameter workchain/],
        ['/api/v3/blocks?workchain=99999999999', /parameter workchain: 99999999999 is out of range/],
        ['/api/v3/blocks?shard=zz', /parameter shard/],
        ['/api/v3/blocks?root_hash=00', /parameter root_hash/],
        ['/api/v3/blocks?start_utime=-5', /parameter start_utime/],
        ['/api/v3/blocks?seqno=1.5', /parameter seqno/],
        ['/api/v3/messages?opcode=0xZZ', /parameter opcode/],
        ['/api/v3/messages?source=nobody', /parameter source/],
        ['/api/v3/messages?only_externals=maybe', /parameter only_externals: expected true or false/],
        ['/api/v3/messages?direction=sideways', /direction should be one of: in, out/],
        ['/api/v3/accountStates?address=bad', /parameter address/],
        ['/api/v3/accountStates?address=' + A + '&include_boc=perhaps', /parameter include_boc/],
        ['/api/v3/masterchainBlockShardState', /parameter seqno: required/],
        ['/api/v3/masterchainBlockShards?seqno=x', /parameter seqno/],
        ['/api/v3/transactionsByMasterchainBlock', /parameter seqno: required/],
        ['/api/v3/topAccountsByBalance?offset=zero', /parameter offset/],
        [`/api/v3/addressBook?${Array.from({ length: 1025 }, (_, i) => `address=a${i}`).join('&')}`, /parameter address: at most 1024/],
      ];
      for (const [path, message] of cases) assert.match(await api.fails(path, 422), message, path);
      assert.equal((await api.ok('/api/v3/blocks?limit=0')).blocks.length, 1, 'limit below 1 counts as 1, as toncenter does');
      assert.equal((await api.ok('/api/v3/blocks?limit=1000&offset=-4')).blocks.length, 10, 'negative offset counts as 0');
    });

    await t.test('a path tongate does not serve answers 404 like any unknown path', async () => {
      // Every path of toncenter's v3 document is served now (docs/toncenter-v3-paths.md, kept true by its own test).
      for (const path of ['/api/v3/noSuchEndpoint', '/api/v3/multisig/noSuchThing']) {
        assert.equal(await api.fails(path, 404), 'not found', path);
      }
    });
  });
}

test('mainnet: friendly forms carry no test-only flag; a network without an index answers 503 but masterchainInfo', async (t) => {
  const opened = await openStore(t, 'sqlite', 'mainnet');
  const s = await story();
  for (const block of s.blocks) await opened!.index.writer.write(block);
  const mainnet = await serveIndex(t, opened!.index, 'mainnet');
  const A = formatRawUpper(s.walletA);
  const book = (await mainnet.get(`/api/v3/addressBook?address=${A}&address=${formatRawUpper(s.treasury)}`)).body;
  assert.match(book[A].user_friendly, /^UQ/);
  assert.match(book[formatRawUpper(s.treasury)].user_friendly, /^EQ/);

  const bare = await serveIndex(t, undefined, 'mainnet');
  const blocks = await bare.get('/api/v3/blocks');
  // Through a tongate in upstream mode an upstream's 503 is a 502 with its message (src/upstream/README.md).
  assert.equal(blocks.status, THROUGH_UPSTREAM ? 502 : 503);
  assert.deepEqual(blocks.body, { error: 'the v3 index is not available on network mainnet' });
  const info = await bare.get('/api/v3/masterchainInfo');
  assert.equal(info.status, 200);
  assert.equal(info.body.first.seqno, 0, 'the chain answers');
});

test('docs: /api/v3/openapi.json lists what we serve with both key schemes; Swagger UI at /api/v3/ without a CDN', async (t) => {
  const server = await serveIndex(t, undefined);
  const doc = (await server.get('/api/v3/openapi.json')).body;
  assert.equal(doc.openapi, '3.0.3');
  assert.deepEqual(Object.keys(doc.paths).sort(), [
    '/api/v3/account',
    '/api/v3/accountStates',
    '/api/v3/actions',
    '/api/v3/addressBook',
    '/api/v3/addressInformation',
    '/api/v3/adjacentTransactions',
    '/api/v3/balanceChanges',
    '/api/v3/blocks',
    '/api/v3/decode',
    '/api/v3/dns/records',
    '/api/v3/estimateFee',
    '/api/v3/events',
    '/api/v3/jetton/burns',
    '/api/v3/jetton/masters',
    '/api/v3/jetton/transfers',
    '/api/v3/jetton/wallets',
    '/api/v3/masterchainBlockShardState',
    '/api/v3/masterchainBlockShards',
    '/api/v3/masterchainInfo',
    '/api/v3/message',
    '/api/v3/messages',
    '/api/v3/metadata',
    '/api/v3/multisig/orders',
    '/api/v3/multisig/wallets',
    '/api/v3/nft/collections',
    '/api/v3/nft/items',
    '/api/v3/nft/sales',
    '/api/v3/nft/transfers',
    '/api/v3/pendingActions',
    '/api/v3/pendingTraces',
    '/api/v3/pendingTransactions',
    '/api/v3/runGetMethod',
    '/api/v3/topAccountsByBalance',
    '/api/v3/traces',
    '/api/v3/transactions',
    '/api/v3/transactionsByMasterchainBlock',
    '/api/v3/transactionsByMessage',
    '/api/v3/vesting',
    '/api/v3/wallet',
    '/api/v3/walletInformation',
    '/api/v3/walletStates',
  ]);
  assert.deepEqual(Object.keys(doc.paths['/api/v3/message']), ['post']);
  assert.deepEqual(doc.paths['/api/v3/runGetMethod'].post.requestBody.content['application/json'].schema.required, ['address', 'method']);
  assert.deepEqual(doc.components.securitySchemes, {
    APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    APIKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
  });
  const account = doc.paths['/api/v3/transactions'].get.parameters.find((p: any) => p.name === 'account');
  assert.deepEqual([account.schema.type, account.style, account.explode], ['array', 'form', true]);
  const limit = doc.paths['/api/v3/transactions'].get.parameters.find((p: any) => p.name === 'limit');
  assert.deepEqual([limit.schema.default, limit.schema.maximum], [10, 1000]);

  const page = await fetch(`${server.base}/api/v3/`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /\/api\/v3\/openapi\.json/);
  assert.doesNotMatch(html, /https?:\/\//, 'every asset is served locally');
  for (const asset of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
    const response = await fetch(`${server.base}${asset[1]}`);
    assert.equal(response.status, 200, asset[1]);
  }
});
