/**
 * /api/v3/traces on the local chain, through a real server, on both stores: a wallet sends to a
 * contract, which forwards to a second contract, which forwards to the wallet (its owner): one trace of
 * four transactions with that tree. The chain seals one transaction per block here, so the trace spans
 * four blocks: pending (with its id already) until the last message lands, then complete. Answers are
 * checked against toncenter's v3 spec and our own; bad input is a 422 (or toncenter's 404), never a 500.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, Cell, contractAddress, internal, toNano, type Address, type StateInit } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { openStore } from '../../index/support/stores.js';
import { sealBlocks, sendFromWallet, serveIndex } from './support/server.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';
import { compileFuncSources } from '../../support/func.js';

/** Forwards a message with a body, and the value it brought, to the address in its data; ignores an empty one (its deploy). */
const FORWARDER = `
builder begin_cell() asm "NEWC";
cell end_cell(builder b) asm "ENDC";
slice begin_parse(cell c) asm "CTOS";
int slice_bits(slice s) asm "SBITS";
builder store_slice(builder b, slice s) asm "STSLICER";
builder store_coins(builder b, int x) asm "STVARUINT16";
cell get_data() asm "c4 PUSH";
() send_raw_message(cell msg, int mode) impure asm "SENDRAWMSG";
() recv_internal(int balance, int value, cell full, slice body) impure {
  if (body.slice_bits() == 0) { return (); }
  slice next = get_data().begin_parse();
  ;; int_msg_info, ihr_disabled, non-bounceable: 0b010000, then the destination and no value of its own (mode 64 carries it).
  send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(next).store_coins(0).store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_slice(body).end_cell(), 64);
}`;

function forwarderCode(): Promise<Cell> {
  return compileFuncSources(['forwarder.fc'], { 'forwarder.fc': FORWARDER });
}

function forwarder(code: Cell, next: Address): { address: Address; init: StateInit } {
  const init = { code, data: beginCell().storeAddress(next).endCell() };
  return { address: contractAddress(0, init), init };
}

const check = checkAgainstSpecs;

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/traces: wallet -> contract -> contract -> owner, pending across blocks, then complete [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true, { maxBlockTransactions: 1 });
    const { chain } = server;
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const owner = testWallet(71);
    const code = await forwarderCode();
    const second = forwarder(code, owner.wallet.address);
    const first = forwarder(code, second.address);
    const seal = (blocks = 1) => sealBlocks(server, blocks);
    const send = (seqno: number, messages: ReturnType<typeof internal>[], deploy = false) =>
      sendFromWallet(server, owner, seqno, messages, deploy);

    await Promise.all([chain.fund(owner.wallet.address, toNano('10')), seal()]);
    await seal(2);
    // The wallet deploys itself and both forwarders (empty bodies: they forward nothing).
    await send(
      0,
      [first, second].map((f) => internal({ to: f.address, value: toNano('0.5'), bounce: false, init: f.init })),
      true,
    );
    await seal(4);

    const go = await send(1, [internal({ to: first.address, value: toNano('1'), bounce: false, body: 'go' })]);
    const traceOf = async () => (await server.get(`/api/v3/traces?msg_hash=${encodeURIComponent(go.message_hash)}`)).body.traces;
    await seal();
    const [early] = await traceOf();
    assert.equal(early.trace_info.trace_state, 'pending', 'the forwarded message waits for the next block');
    assert.equal(early.trace_info.transactions, 1);
    assert.equal(early.trace_info.pending_messages, 1);
    await seal();
    assert.equal((await traceOf())[0].trace_info.trace_state, 'pending');
    await seal(3);

    const answer = (await server.get(`/api/v3/traces?msg_hash=${encodeURIComponent(go.message_hash)}`)).body;
    check(ours, '/api/v3/traces', answer);
    assert.equal(answer.traces.length, 1);
    const trace = answer.traces[0];
    assert.equal(trace.trace_id, early.trace_id, 'the id given while pending stays');
    assert.equal(trace.external_hash, go.message_hash);
    assert.deepEqual(trace.trace_info, {
      trace_state: 'complete',
      messages: 4,
      transactions: 4,
      pending_messages: 0,
      classification_state: 'ok',
    });
    assert.equal(trace.is_incomplete, false);
    assert.ok(Number(trace.mc_seqno_end) >= Number(trace.mc_seqno_start) + 3, 'four blocks, one transaction each');
    const order: string[] = trace.transactions_order;
    const accounts = order.map((h) => trace.transactions[h].account);
    const [W, F1, F2] = [owner.wallet.address, first.address, second.address].map(formatRawUpper);
    assert.deepEqual(accounts, [W, F1, F2, W]);
    assert.equal(order[0], trace.trace_id, 'the root is the wallet transaction that took the external message');
    const node = (hash: string, children: object[]) => ({ tx_hash: hash, in_msg_hash: trace.transactions[hash].in_msg.hash, children });
    assert.deepEqual(trace.trace, node(order[0], [node(order[1], [node(order[2], [node(order[3], [])])])]));
    assert.ok(
      order.every((h) => trace.transactions[h].trace_id === trace.trace_id),
      'every transaction carries the trace id',
    );
    // The forwarded comment: opcode 0, named as toncenter names it.
    assert.deepEqual(
      [order[1], order[2], order[3]].map((h) => trace.transactions[h].in_msg.decoded_opcode),
      ['text_comment', 'text_comment', 'text_comment'],
    );
    assert.deepEqual(Object.keys(answer.address_book).sort(), [W, F1, F2].sort());
    assert.deepEqual(answer.metadata, {});

    // The same trace by each selector; its transactions through /transactions?trace_id=.
    for (const query of [
      `trace_id=${encodeURIComponent(trace.trace_id)}`,
      `tx_hash=${encodeURIComponent(order[2])}`,
      `msg_hash=${encodeURIComponent(go.message_hash_norm)}`,
      `account=${F2}`,
    ]) {
      const found = (await server.get(`/api/v3/traces?${query}`)).body.traces;
      assert.equal(found[0].trace_id, trace.trace_id, query);
    }
    const txs = (await server.get(`/api/v3/transactions?trace_id=${encodeURIComponent(trace.trace_id)}&sort=asc`)).body;
    check(ours, '/api/v3/transactions', txs);
    assert.deepEqual(
      txs.transactions.map((tx: any) => tx.hash),
      order,
    );
    const withActions = (
      await server.get(`/api/v3/traces?trace_id=${encodeURIComponent(trace.trace_id)}&include_actions=true&supported_action_types=latest`)
    ).body;
    check(ours, '/api/v3/traces', withActions);
    // Classified once complete: the comment passed on, a TON transfer per hop (index/actions).
    assert.deepEqual(
      withActions.traces[0].actions.map((a: any) => [a.type, a.details.source, a.details.destination, a.details.comment]),
      [
        ['ton_transfer', W, F1, 'go'],
        ['ton_transfer', F1, F2, 'go'],
        ['ton_transfer', F2, W, 'go'],
      ],
    );
    const latest = (await server.get('/api/v3/traces?limit=2')).body;
    check(ours, '/api/v3/traces', latest);
    assert.equal(latest.traces[0].trace_id, trace.trace_id, 'newest first');
    const inBlock = (await server.get(`/api/v3/traces?mc_seqno=${trace.mc_seqno_end}`)).body.traces;
    assert.deepEqual(
      inBlock.map((x: any) => x.trace_id),
      [trace.trace_id],
    );

    // Bad input: 422 (404 for a block the index does not hold), never a 500.
    const bad: [string, number, RegExp][] = [
      [
        `account=${F1}&trace_id=${encodeURIComponent(trace.trace_id)}`,
        422,
        /^only one of account, trace_id, tx_hash, msg_hash should be specified$/,
      ],
      [`tx_hash=${encodeURIComponent(order[1])}&msg_hash=${encodeURIComponent(go.message_hash)}`, 422, /only one of/],
      ['trace_id=nothash', 422, /trace_id/],
      ['account=0:zz', 422, /account/],
      ['limit=1001', 422, /limit is not allowed/],
      ['include_actions=maybe', 422, /include_actions/],
      ['start_lt=x', 422, /start_lt/],
      ['mc_seqno=99999999', 404, /masterchain block 99999999 not found/],
    ];
    for (const [query, status, message] of bad) {
      const reply = await server.get(`/api/v3/traces?${query}`);
      assert.equal(reply.status, status, `${query}: ${JSON.stringify(reply.body)}`);
      assert.match(reply.body.error, message, query);
    }
  });
}
