/**
 * Wallet requests, which toncenter decodes outside the plain opcode table because their shape depends
 * on counts read from the cell first (how many actions, how many messages):
 *  - wallet v5 (`w5_external_signed_request`, `w5_internal_signed_request`, `w5_extension_action_request`)
 *    and `highload_v3_internal_request`, by opcode;
 *  - bodies whose first 32 bits are no known opcode, tried as signed wallet externals in toncenter's
 *    order: preprocessed v2, highload v3, highload v2, highload v1, v4, v3, v1/v2. These must use up
 *    every bit and reference of the body, else the next one is tried.
 * Highload v1 and v2 carry their messages in a dictionary, which toncenter's printer does not write as
 * JSON: a body of that exact shape decodes to null (message-kinds.ts explains).
 */
import type { Cell, Slice } from '@ton/core';
import { msgAddressInt } from './address-kinds.js';
import {
  bits,
  bool,
  coins,
  ctor,
  enterRef,
  int,
  maybe,
  need,
  NO_PARSE,
  NOT_JSON,
  oneOf,
  ref,
  refArg,
  refCell,
  uint,
  type Ctx,
  type Field,
  type Json,
  type Kind,
} from './kinds.js';
import { actionListLength, messageRelaxedAny, outList, stateInit } from './message-kinds.js';

export const W5_OPCODES = { internal: 0x73696e74, external: 0x7369676e, extension: 0x6578746e } as const;
export const HIGHLOAD_V3_INTERNAL = 0xae42e5a4;

const extendedAction = oneOf([
  [8, 0x02, ctor('add_extension', 8, 0x02, [['addr', msgAddressInt]])],
  [8, 0x03, ctor('delete_extension', 8, 0x03, [['addr', msgAddressInt]])],
  [8, 0x04, ctor('set_signature_auth_allowed', 8, 0x04, [['allowed', bool]])],
]);

/** `W5ExtendedActionList n`: `extended_list_action$_ action prev:^(list n-1)`, `extended_list_last$_ action` at 0. */
function extendedList(s: Slice, ctx: Ctx, n: number): Json {
  const action = extendedAction(s, ctx);
  if (n === 0) return { '@type': 'extended_list_last', action };
  return { '@type': 'extended_list_action', action, prev: extendedList(enterRef(s, ctx), ctx, n - 1) };
}

function w5Inner(outCount: number, extendedCount: number): Kind {
  const outActions = maybe(refArg(outList(outCount)));
  return (s, ctx) => ({
    '@type': 'w5_actions_request',
    out_actions: outActions(s, ctx),
    extended_actions: maybe((s2, ctx2) => {
      need(extendedCount >= 0);
      return extendedList(s2, ctx2, extendedCount);
    })(s, ctx),
  });
}

/** The counts toncenter reads before parsing a v5 request: actions in the list, extended actions in the chain. */
function w5Counts(body: Cell, opcode: number): [number, number] {
  const s = body.beginParse();
  s.skip(32 + (opcode === W5_OPCODES.extension ? 64 : 96));
  need(s.remainingBits >= 2);
  const hasOut = s.loadBit();
  const hasExtended = s.loadBit();
  let outCount = 0;
  if (hasOut && s.remainingRefs > 0) {
    const count = actionListLength(s.loadRef());
    need(count !== null);
    outCount = count!;
  }
  let extendedCount = 0;
  if (hasExtended) {
    extendedCount = 1;
    let cell: Cell | null = s.remainingRefs > 0 ? s.loadRef() : null;
    while (cell !== null) {
      extendedCount++;
      need(extendedCount <= 256);
      cell = cell.refs.length > 0 ? cell.refs[0] : null;
    }
  }
  return [outCount, extendedCount - 1];
}

function w5Request(body: Cell, opcode: number, ctx: Ctx): Json {
  const [outCount, extendedCount] = w5Counts(body, opcode);
  const inner = w5Inner(outCount, extendedCount);
  const s = body.beginParse();
  s.skip(32);
  if (opcode === W5_OPCODES.extension) {
    return { '@type': 'w5_extension_action_request', query_id: uint(64)(s, ctx), request: inner(s, ctx) };
  }
  const name = opcode === W5_OPCODES.external ? 'w5_external_signed_request' : 'w5_internal_signed_request';
  const request = ctor('w5_signed_request', 0, 0, [
    ['wallet_id', uint(32)],
    ['valid_until', uint(32)],
    ['msg_seqno', uint(32)],
    ['inner', inner],
    ['signature', bits(512)],
  ]);
  return { '@type': name, request: request(s, ctx) };
}

function highloadV3Internal(body: Cell, ctx: Ctx): Json {
  need(body.refs.length > 0);
  const count = actionListLength(body.refs[0]);
  need(count !== null);
  return ctor('highload_v3_internal_request', 32, HIGHLOAD_V3_INTERNAL, [
    ['query_id', uint(64)],
    ['actions', ref(outList(count!))],
  ])(body.beginParse(), ctx);
}

/**
 * A v5 or highload-v3 internal request by its opcode; throws NO_PARSE when its shape does not read
 * (toncenter then falls back to `{"@type": <name>, "rest": <cell>}`).
 */
export function walletRequest(body: Cell, opcode: number, ctx: Ctx): Json {
  return opcode === HIGHLOAD_V3_INTERNAL ? highloadV3Internal(body, ctx) : w5Request(body, opcode, ctx);
}

const modeWithMessage = ctor(null, 0, 0, [
  ['mode', uint(8)],
  ['msg', ref(messageRelaxedAny)],
]);

/** `WalletV1toV4Msgs n`: `msgs_n#_ msg_1:ModeWithMessage ... msg_n:ModeWithMessage`, n the body's references (0-4). */
function walletMsgs(n: number): Kind {
  const fields: Field[] = [];
  for (let i = 1; i <= n; i++) fields.push([`msg_${i}`, modeWithMessage]);
  return ctor(`msgs_${n}`, 0, 0, fields);
}

const signature: Field = ['signature', bits(512)];

const pluginFields: readonly Field[] = [
  ['plugin_workchain', int(8)],
  ['plugin_address', bits(256)],
  ['amount', coins],
  ['query_id', uint(64)],
];

function w4Operation(n: number): Kind {
  return oneOf([
    [8, 0x00, ctor('simple_send', 8, 0x00, [['msgs', walletMsgs(n)]])],
    [
      8,
      0x01,
      ctor('deploy_install_plugin', 8, 0x01, [
        ['plugin_workchain', int(8)],
        ['plugin_balance', coins],
        ['state_init', ref(stateInit)],
        ['body', refCell],
      ]),
    ],
    [8, 0x02, ctor('install_plugin', 8, 0x02, pluginFields)],
    [8, 0x03, ctor('remove_plugin', 8, 0x03, pluginFields)],
  ]);
}

const highloadV3QueryId = ctor(null, 0, 0, [
  ['shift', uint(13)],
  ['bit_number', uint(10)],
]);

const highloadV3 = ctor('highload_wallet_signed_v3', 0, 0, [
  signature,
  [
    'msg_inner',
    ref(
      ctor(null, 0, 0, [
        ['subwallet_id', uint(32)],
        ['message_to_send', ref(messageRelaxedAny)],
        ['send_mode', uint(8)],
        ['query_id', highloadV3QueryId],
        ['created_at', uint(64)],
        ['timeout', uint(22)],
      ]),
    ),
  ],
]);

function preprocessedV2(actions: number): Kind {
  return ctor('preprocessed_wallet_signed_v2', 0, 0, [
    signature,
    [
      'inner',
      ref(
        ctor(null, 0, 0, [
          ['valid_until', uint(64)],
          ['seqno', uint(16)],
          ['actions', ref(outList(actions))],
        ]),
      ),
    ],
  ]);
}

const highloadV2 = ctor('highload_wallet_signed_v2', 0, 0, [
  signature,
  ['subwallet_id', uint(32)],
  ['query_id', uint(64)],
  ['payload', (s) => (need(s.remainingBits >= 1 && !s.loadBit()), { '@type': 'hashmap_empty' })],
]);

const walletHead: readonly Field[] = [signature, ['subwallet_id', uint(32)], ['valid_until', uint(32)], ['msg_seqno', uint(32)]];
/** By the body's reference count (0..4): the v4, v3 and v1/v2 requests. */
const byRefs = [0, 1, 2, 3, 4].map((refs) => ({
  v4: ctor('wallet_signed_v4', 0, 0, [...walletHead, ['op', w4Operation(refs)]]),
  v3: ctor('wallet_signed_v3', 0, 0, [...walletHead, ['msgs', walletMsgs(refs)]]),
  v1v2: ctor('wallet_signed_v1_v2', 0, 0, [signature, ['msg_seqno', uint(32)], ['valid_until', uint(32)], ['msgs', walletMsgs(refs)]]),
}));

/** Bits of a v1-v4 request before its messages (signature, then two or three 32-bit fields). */
const V12_HEAD = 512 + 64;
const V34_HEAD = 512 + 96;

/**
 * The signed externals tried for an unknown opcode, in toncenter's order; null when none reads
 * exactly. Each must use up the body exactly, so only those whose size can fit are tried.
 */
export function signedExternal(body: Cell, ctx: Ctx): Json | null {
  const length = body.bits.length;
  const refs = body.refs.length;
  if (length < 512) return null; // every one starts with a 512-bit signature
  const attempts: Kind[] = [];
  if (length === 512 && refs === 1) {
    const inner = body.refs[0];
    const actions = !inner.isExotic && inner.refs.length > 0 ? actionListLength(inner.refs[0]) : null;
    if (actions !== null && actions > 0) attempts.push(preprocessedV2(actions));
    attempts.push(highloadV3);
  }
  // highload v2 and v1 hold their messages in a dictionary: an exact fit with a non-empty one is null.
  if (length === V34_HEAD + 1 && refs === 1 && body.beginParse().skip(V34_HEAD).preloadBit()) throw NOT_JSON;
  if (length === V34_HEAD && refs === 1) throw NOT_JSON;
  if (length === V34_HEAD + 1 && refs === 0) attempts.push(highloadV2);
  if (refs <= 4) {
    const kinds = byRefs[refs];
    // v4: op 0 carries one mode byte per message; ops 1-3 (plugins) have fields of their own.
    if (length === V34_HEAD + 8 + 8 * refs || (length > V34_HEAD + 8 && body.beginParse().skip(V34_HEAD).preloadUint(8) !== 0))
      attempts.push(kinds.v4);
    if (length === V34_HEAD + 8 * refs) attempts.push(kinds.v3);
    if (length === V12_HEAD + 8 * refs) attempts.push(kinds.v1v2);
  }
  for (const attempt of attempts) {
    const s = body.beginParse();
    try {
      const json = attempt(s, ctx);
      if (s.remainingBits === 0 && s.remainingRefs === 0) return json;
    } catch (error) {
      if (error !== NO_PARSE && !(error instanceof Error)) throw error;
    }
  }
  return null;
}
