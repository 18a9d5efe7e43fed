/**
 * message_content.decoded on a local tongate: a wallet sends a jetton_transfer-shaped body (to an
 * address with no contract: any destination does), and /messages, /transactions and /traces show it
 * decoded as toncenter decodes it, with the wallet's own external request decoded too; every response
 * still valid against toncenter's v3 OpenAPI document. A document indexed before bodies were decoded
 * (decoded null) reads decoded as well.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { withDecodedBody } from '../../../src/api/v3/format/decoded-body.js';
import { withDecodedOpcode } from '../../../src/api/v3/format/decoded-opcode.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { v3Message } from '../../../src/ton/message-json.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { openStore } from '../../index/support/stores.js';
import { serveIndex } from './support/server.js';
import { ourV3, toncenterV3 } from './support/spec.js';

const NOWHERE = new Address(0, Buffer.alloc(32, 0x5e));
const hex = (a: Address) => a.hash.toString('hex').toUpperCase();

function jettonTransfer(to: Address, response: Address): Cell {
  const comment = beginCell().storeUint(0, 32).storeStringTail('pay 42').endCell();
  return beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(77, 64)
    .storeCoins(5_000_000n)
    .storeAddress(to)
    .storeAddress(response)
    .storeMaybeRef(null)
    .storeCoins(1n)
    .storeBit(1)
    .storeRef(comment)
    .endCell();
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`a jetton_transfer body sent from a wallet reads decoded on /messages, /transactions and /traces [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const { chain } = server;
    const check = (path: string, body: unknown) => {
      assert.deepEqual(toncenterV3().errors(path, body, 'get'), [], `${path} against toncenter's spec`);
      assert.deepEqual(ours.errors(path, body, 'get'), [], `${path} against our openapi.json`);
    };
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const a = testWallet(71);
    const seal = async (blocks = 2) => {
      for (let i = 0; i < blocks; i++) await chain.produceBlock();
      await server.attachment!.synced();
    };
    await Promise.all([chain.fund(a.wallet.address, toNano('10')), seal(1)]);
    await seal();

    const body = jettonTransfer(NOWHERE, a.wallet.address);
    const request = a.wallet.createTransfer({
      seqno: 0,
      secretKey: a.keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: NOWHERE, value: toNano('0.5'), bounce: false, body })],
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: a.wallet.address, body: request, init: a.wallet.init })))
      .endCell()
      .toBoc()
      .toString('base64');
    const sent = await server.post('/api/v3/message', { boc });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await seal();

    const messages = (await server.get(`/api/v3/messages?destination=${formatRawUpper(NOWHERE)}`)).body;
    check('/api/v3/messages', messages);
    assert.equal(messages.messages.length, 1);
    const message = messages.messages[0];
    assert.equal(message.opcode, '0x0f8a7ea5');
    assert.equal(message.decoded_opcode, 'jetton_transfer');
    assert.deepEqual(message.message_content.decoded, {
      '@type': 'jetton_transfer',
      query_id: '77',
      amount: { '@type': 'var_uint', len: '3', value: '5000000' },
      destination: { '@type': 'addr_std', anycast: { '@type': 'nothing_from_maybe' }, workchain_id: '0', address: hex(NOWHERE) },
      response_destination: {
        '@type': 'addr_std',
        anycast: { '@type': 'nothing_from_maybe' },
        workchain_id: '0',
        address: hex(a.wallet.address),
      },
      custom_payload: { '@type': 'nothing_from_maybe' },
      forward_ton_amount: { '@type': 'var_uint', len: '1', value: '1' },
      forward_payload: { '@type': 'second_from_either', value: { '@type': 'text_comment', text: 'pay 42' } },
    });

    // The wallet's own external: wallet v4's signed request, the jetton transfer inside its message.
    const txs = (await server.get(`/api/v3/transactions?account=${formatRawUpper(a.wallet.address)}&limit=10`)).body;
    check('/api/v3/transactions', txs);
    const sending = txs.transactions.find((tx: any) => tx.in_msg.hash === sent.body.message_hash);
    const signed = sending.in_msg.message_content.decoded;
    assert.equal(signed['@type'], 'wallet_signed_v4');
    assert.equal(signed.msg_seqno, '0');
    assert.equal(signed.op.msgs.msg_1.msg.body.value.cell_reference['@type'], 'jetton_transfer');
    assert.deepEqual(sending.out_msgs[0].message_content.decoded, message.message_content.decoded);

    const traces = (await server.get(`/api/v3/traces?tx_hash=${encodeURIComponent(sending.hash)}`)).body;
    check('/api/v3/traces', traces);
    const inTrace = Object.values(traces.traces[0].transactions).flatMap((tx: any) => [tx.in_msg, ...tx.out_msgs]);
    assert.ok(inTrace.some((m: any) => m?.message_content.decoded?.['@type'] === 'jetton_transfer'));
  });
}

test('a message document stored before bodies were decoded reads decoded; others read as stored', () => {
  const info = {
    type: 'internal' as const,
    src: NOWHERE,
    dest: NOWHERE,
    value: { coins: 1n },
    bounce: false,
    bounced: false,
    ihrDisabled: true,
    ihrFee: 0n,
    forwardFee: 0n,
    createdLt: 1n,
    createdAt: 1,
  };
  const cell = (b: Cell) =>
    beginCell()
      .store(storeMessage({ info, body: b }))
      .endCell();
  const fresh = JSON.stringify(v3Message(cell(jettonTransfer(NOWHERE, NOWHERE))));
  const old = JSON.stringify({ ...JSON.parse(fresh), message_content: { ...JSON.parse(fresh).message_content, decoded: null } });
  assert.notEqual(old, fresh);
  assert.equal(withDecodedBody(withDecodedOpcode(old)), withDecodedOpcode(fresh));
  const unknown = JSON.stringify(v3Message(cell(beginCell().storeUint(0x12345678, 32).endCell())));
  assert.equal(withDecodedBody(withDecodedOpcode(unknown)), unknown, 'an unnamed opcode: not decoded on read');
  const truncated = JSON.stringify(v3Message(cell(beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 16).endCell())));
  assert.equal(
    withDecodedBody(withDecodedOpcode(truncated)),
    withDecodedOpcode(truncated),
    'a named opcode whose body does not read: null stays',
  );
});
