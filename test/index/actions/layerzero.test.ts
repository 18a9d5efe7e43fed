/**
 * LayerZero v2's actions (layerzero.ts), on traces built by hand with the cells toncenter reads, and the details
 * ton-index-go would answer:
 * - `layerzero_send` (an OApp's message to another chain; also with the OApp's callback aborted: still a success, as
 *   toncenter never fails these), and a send the channel never called back (nothing);
 * - `layerzero_send_tokens` (an OFT's jetton transfer in, then its send; the send and the transfer are its parts);
 * - `layerzero_receive`, and one to an OApp whose address starts with a zero digit (nothing: toncenter compares it
 *   with the packet's `dst_oapp`, which has no leading zeros);
 * - `layerzero_commit_packet`, and one without the msglib connection's callback (nothing);
 * - `layerzero_dvn_verify`, succeeded and refused (`nonce_out_of_range`, still a success).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { USDT, account, address, buildTrace, op, type Step, againstSpec } from './support.js';

const hexAccount = (hex: string): string => `0:${hex.toUpperCase()}`;
/** The OApp's address starts with a non-zero digit, so toncenter's receive check passes for it. */
const OAPP = hexAccount('170725394aa56136fbd27d0ce31d8a98e0f8ae72a4d2379b5dde83e211a2d5fa');
const [USER, ENDPOINT, CHANNEL, MSGLIB_CONNECTION, ULN, EVENT_SINK, EXECUTOR, DVN, PROXY, USER_USDT, OAPP_USDT] = [
  0xa11ce, 0xe1, 0xc1, 0x3c, 0x1e, 0xe5, 0xec, 0xd1, 0x9a, 0xa1, 0xa2,
].map(account);

const ones = (bits: number): bigint => (1n << BigInt(bits)) - 1n;
const EMPTY = beginCell().endCell();

/** lz::Path: header, filler, src_eid:uint32 src_oapp:uint256 dst_eid:uint32 dst_oapp:uint256. */
const path = (srcEid: number, srcOapp: bigint, dstEid: number, dstOapp: bigint): Cell =>
  beginCell()
    .storeUint(8903714975572488637007080065659n, 152)
    .storeUint(ones(198), 198)
    .storeUint(srcEid, 32)
    .storeUint(srcOapp, 256)
    .storeUint(dstEid, 32)
    .storeUint(dstOapp, 256)
    .endCell();

const MESSAGE = Buffer.from('000300000000000000000000000000000000000000e1320ab3ea', 'hex');
const GUID = 0x46c71599bf21b54d59bd078d0bae22878154b16c1216fb6b83b0edf3a1167476n;
const EVM_OAPP = 0x8925c1dd3e5d8011946a3430d91be742ba8ee930n;

/** lz::Packet: header, filler, ^path ^message nonce:uint64 guid:uint256. */
const packet = (p: Cell, nonce: bigint): Cell =>
  beginCell()
    .storeUint(417359019239977417716476838698419835n, 152)
    .storeUint(ones(198), 198)
    .storeRef(p)
    .storeRef(beginCell().storeBuffer(MESSAGE).endCell())
    .storeUint(nonce, 64)
    .storeUint(GUID, 256)
    .endCell();

const OUT_PACKET = packet(path(30343, BigInt('0x' + OAPP.slice(2)), 30420, EVM_OAPP), 90n);
const IN_PACKET = (dst: string): Cell => packet(path(30101, EVM_OAPP, 30343, BigInt('0x' + dst.slice(2))), 729n);

const MSGLIB_MANAGER = 0x150645746e25be5486eb3b2f5d98b44c6b324697c48d495d059f96fc9d3ec368n;
/** A msglib whose hash starts with a zero digit: toncenter shows it without it. */
const MSGLIB = 0x063bdfbf347f883ddba72a200563570af2dc72695b2b2fccaaecd113688ac570n;

/** md::LzSend: "lzSend", header, filler, request id, msglib manager, msglib, ^packet ^options ^(connection, fees). */
const lzSend = (): Cell =>
  beginCell()
    .storeUint(BigInt('0x' + Buffer.from('lzSend').toString('hex')), 80)
    .storeUint(582890735024998957421269964955452773563747974476099581n, 180)
    .storeUint(ones(90), 90)
    .storeUint(90, 64)
    .storeUint(MSGLIB_MANAGER, 256)
    .storeUint(MSGLIB, 256)
    .storeRef(OUT_PACKET)
    .storeRef(EMPTY)
    .storeRef(beginCell().storeUint(0, 256).storeUint(14_835_102_020n, 128).storeUint(0, 128).storeRef(EMPTY).storeRef(EMPTY))
    .endCell();

/** A LayerZero message body: op, query id, donation, origin, ^md. */
const lzBody = (code: number, md: Cell = EMPTY): Cell => op(code).storeCoins(0).storeAddress(address(OAPP)).storeRef(md).endCell();
const nest = (inner: Cell): Cell => beginCell().storeRef(inner).storeRef(EMPTY).endCell();
const event = (): Step => ({ to: EVENT_SINK, body: lzBody(0xe33b9873), bounce: false });
const refund = (to: string): Step => ({ to, value: 20_000_000n, bounce: false });

const sendSteps = (options: { callbackAborted?: boolean; noCallback?: boolean } = {}): Step => ({
  to: ENDPOINT,
  body: lzBody(0xdd4ea3b4),
  then: [
    {
      to: CHANNEL,
      body: lzBody(0x536feb09),
      then: [
        {
          to: MSGLIB_CONNECTION,
          body: lzBody(0x4002b790),
          then: [
            {
              to: ULN,
              body: lzBody(0x5de68393),
              then: [
                {
                  to: CHANNEL,
                  body: lzBody(0x421c1a25),
                  then: options.noCallback
                    ? [event()]
                    : [
                        event(),
                        refund(EXECUTOR),
                        {
                          to: OAPP,
                          body: lzBody(0xa2b5fbae, nest(nest(lzSend()))),
                          aborted: options.callbackAborted,
                          then: [event(), refund(USER)],
                        },
                      ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
});

const PACKET_OUT_DETAILS = {
  src_oapp: '0x' + OAPP.slice(2).toLowerCase(),
  dst_oapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930',
  src_eid: 30343,
  dst_eid: 30420,
  nonce: 90,
  guid: '0x46c71599bf21b54d59bd078d0bae22878154b16c1216fb6b83b0edf3a1167476',
  message: '0x' + MESSAGE.toString('hex'),
};
const SEND_DATA = {
  send_request_id: 90,
  msglib_manager: '0x150645746e25be5486eb3b2f5d98b44c6b324697c48d495d059f96fc9d3ec368',
  msglib: '0x63bdfbf347f883ddba72a200563570af2dc72695b2b2fccaaecd113688ac570',
  uln: ULN,
  native_fee: 14_835_102_020,
  zro_fee: 0,
  endpoint: ENDPOINT,
  channel: CHANNEL,
};

const only = (actions: ActionRecord[], type: string): ActionRecord => {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, `${type} among ${actions.map((a) => a.type).join()}`);
  return found[0];
};

test('layerzero_send: an OApp sending a packet through endpoint, channel and ULN, never failed; none without the channel`s callback', () => {
  for (const callbackAborted of [false, true]) {
    const { trace, txs } = buildTrace(USER, [{ to: OAPP, body: op(0x12345678).endCell(), then: [sendSteps({ callbackAborted })] }]);
    const actions = classifyTrace(trace, NO_CONTRACTS).actions;
    const sent = only(actions, 'layerzero_send');
    assert.equal(sent.success, true);
    assert.deepEqual(sent.details, { initiator: OAPP, layerzero_send_data: SEND_DATA, layerzero_packet_data: PACKET_OUT_DETAILS });
    againstSpec(sent);
    // The OApp's transaction started it; every step's account is one of its accounts.
    for (const who of [OAPP, ENDPOINT, CHANNEL, MSGLIB_CONNECTION, ULN, EVENT_SINK, EXECUTOR, USER])
      assert.ok(sent.accounts.includes(who), who);
    assert.equal(sent.transactions.length, txs.length - 1, 'every transaction but the wallet`s');
    const parts = actions.filter((a) => a.ancestors.includes('layerzero_send'));
    assert.ok(parts.some((a) => a.type === 'call_contract'));
  }
  const { trace } = buildTrace(USER, [{ to: OAPP, body: op(0x12345678).endCell(), then: [sendSteps({ noCallback: true })] }]);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  assert.ok(!actions.some((a) => a.type.startsWith('layerzero')), actions.map((a) => a.type).join());
});

const transfer = (amount: bigint, to: string, from: string): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(from))
    .storeBit(0)
    .storeCoins(1_000_000_000n)
    .storeMaybeRef(beginCell().storeUint(0xabcd, 16).endCell())
    .endCell();
const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519)
    .storeCoins(amount)
    .storeAddress(address(from))
    .storeAddress(address(from))
    .storeCoins(1_000_000_000n)
    .storeBit(0)
    .endCell();
const notify = (amount: bigint, from: string): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();

const oft: KnownContracts = {
  ...NO_CONTRACTS,
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [OAPP_USDT, { owner: OAPP, jetton: USDT }],
  ]),
};

test('layerzero_send_tokens: USDT sent to the OFT, which emits its event and sends the packet; send and transfer are its parts', () => {
  const { trace } = buildTrace(USER, [
    {
      to: USER_USDT,
      body: transfer(10_000n, OAPP, USER),
      then: [
        {
          to: OAPP_USDT,
          body: internalTransfer(10_000n, USER),
          then: [{ to: OAPP, body: notify(10_000n, USER), then: [event(), sendSteps()] }],
        },
      ],
    },
  ]);
  const actions = classifyTrace(trace, oft).actions;
  const sent = only(actions, 'layerzero_send_tokens');
  assert.equal(sent.success, true);
  assert.deepEqual(sent.details, {
    sender: USER,
    sender_wallet: USER_USDT,
    oapp: OAPP,
    oapp_wallet: OAPP_USDT,
    asset: USDT,
    amount: '10000',
    layerzero_send_data: SEND_DATA,
    layerzero_packet_data: PACKET_OUT_DETAILS,
  });
  againstSpec(sent);
  assert.deepEqual(only(actions, 'layerzero_send').ancestors, ['layerzero_send_tokens']);
  assert.deepEqual(only(actions, 'jetton_transfer').ancestors, ['layerzero_send_tokens']);
  // Without the OFT's wallet known there is no jetton transfer, so only the send.
  const unknown = classifyTrace(trace, NO_CONTRACTS).actions;
  assert.ok(!unknown.some((a) => a.type === 'layerzero_send_tokens'));
  assert.equal(only(unknown, 'layerzero_send').ancestors.length, 0);
});

const receive = (oapp: string) =>
  buildTrace(EXECUTOR, [
    {
      to: CHANNEL,
      body: op(0x22f3ac09).storeUint(729, 64).storeCoins(0).endCell(),
      then: [
        refund(EXECUTOR),
        {
          to: oapp,
          body: lzBody(0x97df404c),
          then: [
            {
              to: CHANNEL,
              body: lzBody(0xb7680bc6),
              then: [
                {
                  to: oapp,
                  body: lzBody(0x0c7b8418, nest(IN_PACKET(oapp))),
                  then: [event(), { to: CHANNEL, body: lzBody(0xcaae25a1), then: [event(), refund(EXECUTOR)] }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);

test('layerzero_receive: the executor delivering a packet to the OApp; not for an OApp whose hex starts with a zero', () => {
  const actions = classifyTrace(receive(OAPP).trace, NO_CONTRACTS).actions;
  const received = only(actions, 'layerzero_receive');
  assert.equal(received.success, true);
  assert.deepEqual(received.details, {
    sender: EXECUTOR,
    oapp: OAPP,
    channel: CHANNEL,
    layerzero_packet_data: {
      src_oapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930',
      dst_oapp: '0x' + OAPP.slice(2).toLowerCase(),
      src_eid: 30101,
      dst_eid: 30343,
      nonce: 729,
      guid: '0x46c71599bf21b54d59bd078d0bae22878154b16c1216fb6b83b0edf3a1167476',
      message: '0x' + MESSAGE.toString('hex'),
    },
  });
  for (const who of [EXECUTOR, CHANNEL, OAPP, EVENT_SINK]) assert.ok(received.accounts.includes(who), who);
  againstSpec(received);
  const zeroLed = classifyTrace(receive(account(0x0a99)).trace, NO_CONTRACTS).actions;
  assert.ok(!zeroLed.some((a) => a.type === 'layerzero_receive'), zeroLed.map((a) => a.type).join());
});

const commit = (withCallback: boolean) =>
  buildTrace(EXECUTOR, [
    {
      to: ULN,
      body: lzBody(0x28b97077),
      then: [
        {
          to: MSGLIB_CONNECTION,
          body: lzBody(0xf9d37b80),
          then: [
            {
              to: ENDPOINT,
              body: lzBody(0x5dab749a),
              then: [
                {
                  to: CHANNEL,
                  body: lzBody(0x5388cd88, nest(IN_PACKET(OAPP))),
                  then: [event(), ...(withCallback ? [{ to: MSGLIB_CONNECTION, body: lzBody(0x5e178f33), then: [refund(EXECUTOR)] }] : [])],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);

test('layerzero_commit_packet: a verified packet committed to the channel; none without the msglib connection`s callback', () => {
  const actions = classifyTrace(commit(true).trace, NO_CONTRACTS).actions;
  const committed = only(actions, 'layerzero_commit_packet');
  assert.equal(committed.success, true);
  assert.deepEqual(committed.details, {
    sender: EXECUTOR,
    endpoint: ENDPOINT,
    // toncenter's `uln` is the ULN connection.
    uln: MSGLIB_CONNECTION,
    uln_connection: MSGLIB_CONNECTION,
    channel: CHANNEL,
    msglib_connection: MSGLIB_CONNECTION,
    layerzero_packet_data: {
      src_oapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930',
      dst_oapp: '0x' + OAPP.slice(2).toLowerCase(),
      src_eid: 30101,
      dst_eid: 30343,
      nonce: 729,
      guid: '0x46c71599bf21b54d59bd078d0bae22878154b16c1216fb6b83b0edf3a1167476',
      message: '0x' + MESSAGE.toString('hex'),
    },
  });
  againstSpec(committed);
  const without = classifyTrace(commit(false).trace, NO_CONTRACTS).actions;
  assert.ok(!without.some((a) => a.type === 'layerzero_commit_packet'), without.map((a) => a.type).join());
});

/** md::VerificationStatus: header, filler, nonce:uint64 status:uint32, in the callback's md. */
const verification = (nonce: number, status: number): Cell =>
  nest(
    beginCell()
      .storeUint(38421788582694199859296615363593851n, 116)
      .storeUint(ones(234), 234)
      .storeUint(nonce, 64)
      .storeUint(status, 32)
      .endCell(),
  );

const verify = (status: number) =>
  buildTrace(EXECUTOR, [
    {
      to: DVN,
      body: op(0xa0d51a8d).endCell(),
      then: [
        {
          to: PROXY,
          body: op(0x09f047d9).endCell(),
          then: [
            {
              to: ULN,
              body: lzBody(0x994aaf4e),
              then: [
                {
                  to: MSGLIB_CONNECTION,
                  body: lzBody(0x4ec8f80a),
                  then: [event(), { to: ULN, body: lzBody(0x3cb38090, verification(125, status)), then: [refund(PROXY)] }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);

test('layerzero_dvn_verify: a DVN verifying through its proxy; a refused nonce is a status, not a failure', () => {
  const cases: [number, string][] = [
    [0x3bbc306b, 'succeeded'],
    [0x7fcbb4ac, 'nonce_out_of_range'],
    [0x29c53fab, 'dvn_not_configured'],
    [7, 'unknown_7'],
  ];
  for (const [code, status] of cases) {
    const verified = only(classifyTrace(verify(code).trace, NO_CONTRACTS).actions, 'layerzero_dvn_verify');
    assert.equal(verified.success, true);
    assert.deepEqual(verified.details, {
      initiator: EXECUTOR,
      nonce: 125,
      status,
      dvn: DVN,
      proxy: PROXY,
      uln: ULN,
      uln_connection: MSGLIB_CONNECTION,
    });
    againstSpec(verified);
  }
});
