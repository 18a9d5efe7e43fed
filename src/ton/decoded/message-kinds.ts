/**
 * The message-level types wallets carry: `MessageRelaxed Any`, its `CommonMsgInfoRelaxed`,
 * `CurrencyCollection`, `StateInit`, and the action list (`OutList n`, `OutAction`).
 *
 * Dictionaries: an empty `HashmapE` is `{"@type":"hashmap_empty"}`. A non-empty one is not decoded:
 * toncenter's printer writes a dictionary label (`n * Bit`) as a tuple whose items follow their keys
 * without a separator, text that is not JSON, so its API drops the whole decoding (null). Reading one
 * here throws NOT_JSON to the same effect (extra currencies in a wallet's message, highload v1/v2).
 */
import { Cell, type Slice } from '@ton/core';
import { msgAddress, msgAddressExt, msgAddressInt } from './address-kinds.js';
import {
  bool,
  bits,
  constant,
  ctor,
  either,
  enterRef,
  grams,
  maybe,
  need,
  NOT_JSON,
  oneOf,
  ref,
  refArg,
  refCell,
  rest,
  uint,
  type Ctx,
  type Json,
  type Kind,
} from './kinds.js';

/** `HashmapE n X` read only when empty; a non-empty dictionary makes toncenter's text invalid. */
const HASHMAP_EMPTY = constant('hashmap_empty');
const emptyHashmap: Kind = (s) => {
  need(s.remainingBits >= 1);
  if (s.loadBit()) throw NOT_JSON;
  return HASHMAP_EMPTY;
};

const extraCurrencies = ctor('extra_currencies', 0, 0, [['dict', emptyHashmap]]);

export const currencyCollection = ctor('currencies', 0, 0, [
  ['grams', grams],
  ['other', extraCurrencies],
]);

const intMsgInfo = ctor('int_msg_info', 1, 0b0, [
  ['ihr_disabled', bool],
  ['bounce', bool],
  ['bounced', bool],
  ['src', msgAddress],
  ['dest', msgAddressInt],
  ['value', currencyCollection],
  ['ihr_fee', grams],
  ['fwd_fee', grams],
  ['created_lt', uint(64)],
  ['created_at', uint(32)],
]);

const extOutMsgInfo = ctor('ext_out_msg_info', 2, 0b11, [
  ['src', msgAddress],
  ['dest', msgAddressExt],
  ['created_lt', uint(64)],
  ['created_at', uint(32)],
]);

const commonMsgInfoRelaxed = oneOf([
  [1, 0b0, intMsgInfo],
  [2, 0b11, extOutMsgInfo],
]);

/** `(## 5)` as a type argument has no printer of its own: the library writes its bits as a cell. */
const natAsCell =
  (n: number): Kind =>
  (s: Slice, ctx: Ctx) => {
    need(s.remainingBits >= n);
    const cell = new Cell({ bits: s.loadBits(n) });
    return ctx.nested(cell, ctx);
  };

const tickTock = ctor('tick_tock', 0, 0, [
  ['tick', bool],
  ['tock', bool],
]);

export const stateInit = ctor(null, 0, 0, [
  ['fixed_prefix_length', maybe(natAsCell(5))],
  ['special', maybe(tickTock)],
  ['code', maybe(refCell)],
  ['data', maybe(refCell)],
  ['library', maybe(refCell)],
]);

/** `message$_ {X:Type} info:CommonMsgInfoRelaxed init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X)`, X = Any. */
export const messageRelaxedAny = ctor('message', 0, 0, [
  ['info', commonMsgInfoRelaxed],
  ['init', maybe(either(stateInit, refArg(stateInit)))],
  ['body', either(rest, (s, ctx) => ({ cell_reference: refCell(s, ctx) }))],
]);

const libRef = oneOf([
  [1, 0b0, ctor('libref_hash', 1, 0b0, [['lib_hash', bits(256)]])],
  [1, 0b1, ctor('libref_ref', 1, 0b1, [['library', refCell]])],
]);

export const outAction = oneOf([
  [
    32,
    0x0ec3c86d,
    ctor('action_send_msg', 32, 0x0ec3c86d, [
      ['mode', uint(8)],
      ['out_msg', ref(messageRelaxedAny)],
    ]),
  ],
  [32, 0xad4de08e, ctor('action_set_code', 32, 0xad4de08e, [['new_code', refCell]])],
  [
    32,
    0x36e6b809,
    ctor('action_reserve_currency', 32, 0x36e6b809, [
      ['mode', uint(8)],
      ['currency', currencyCollection],
    ]),
  ],
  [
    32,
    0x26fa1dd4,
    ctor('action_change_library', 32, 0x26fa1dd4, [
      ['mode', uint(7)],
      ['libref', libRef],
    ]),
  ],
]);

/** TON's limit on a transaction's actions; a longer chain is not an action list. */
export const MAX_ACTIONS = 255;

/** `OutList n`: `out_list$_ prev:^(OutList n-1) action:OutAction`, down to `out_list_empty$_` at n = 0. */
export function outList(n: number): Kind {
  need(n <= MAX_ACTIONS);
  const read = (s: Slice, ctx: Ctx, left: number): Json => {
    if (left === 0) return { '@type': 'out_list_empty' };
    const prev = read(enterRef(s, ctx), ctx, left - 1);
    return { '@type': 'out_list', prev, action: outAction(s, ctx) };
  };
  return (s, ctx) => read(s, ctx, n);
}

/**
 * The length of an action list starting at `list`, counted as toncenter counts it: references
 * followed (always the first) until a cell without one. Null when longer than any action list.
 */
export function actionListLength(list: Cell): number | null {
  let cell = list;
  for (let n = 0; n <= MAX_ACTIONS; n++) {
    if (cell.isExotic || cell.refs.length === 0) return n;
    cell = cell.refs[0];
  }
  return null;
}
