/**
 * Addresses as the scheme file declares them: `MsgAddress` (all four constructors, the file's own
 * flattened type), `MsgAddressInt` (addr_std, addr_var) and `MsgAddressExt` (addr_none, addr_external).
 * Each is the constructor's object, e.g. `{"@type":"addr_std","anycast":{"@type":"nothing_from_maybe"},
 * "workchain_id":"0","address":"<64 hex>"}`.
 */
import { bits, constant, ctor, int, loadHex, maybe, need, type Kind } from './kinds.js';

/** `anycast_info$_ depth:(#<= 30) { depth >= 1 } rewrite_pfx:(bits depth)`. */
const anycast: Kind = (s) => {
  need(s.remainingBits >= 5);
  const depth = s.loadUint(5);
  need(depth >= 1 && depth <= 30 && s.remainingBits >= depth);
  return { '@type': 'anycast_info', depth: String(depth), rewrite_pfx: loadHex(s, depth) };
};

const ADDR_NONE = constant('addr_none');
const addrNone: Kind = (s) => {
  need(s.remainingBits >= 2 && s.loadUint(2) === 0b00);
  return ADDR_NONE;
};

/** `addr_external$01 len:(## 9) external_address:(bits len)`. */
const addrExternal: Kind = (s) => {
  need(s.remainingBits >= 11 && s.loadUint(2) === 0b01);
  const len = s.loadUint(9);
  need(s.remainingBits >= len);
  return { '@type': 'addr_external', len: String(len), external_address: loadHex(s, len) };
};

const maybeAnycast = maybe(anycast);

const addrStd = ctor('addr_std', 2, 0b10, [
  ['anycast', maybeAnycast],
  ['workchain_id', int(8)],
  ['address', bits(256)],
]);

/** `addr_var$11 anycast:(Maybe Anycast) addr_len:(## 9) workchain_id:int32 address:(bits addr_len)`. */
const addrVar: Kind = (s, ctx) => {
  need(s.remainingBits >= 2 && s.loadUint(2) === 0b11);
  const anycastValue = maybeAnycast(s, ctx);
  need(s.remainingBits >= 9);
  const len = s.loadUint(9);
  const workchain = int(32)(s, ctx);
  need(s.remainingBits >= len);
  return { '@type': 'addr_var', anycast: anycastValue, addr_len: String(len), workchain_id: workchain, address: loadHex(s, len) };
};

function byPrefix(choices: Partial<Record<0 | 1 | 2 | 3, Kind>>): Kind {
  return (s, ctx) => {
    need(s.remainingBits >= 2);
    const kind = choices[s.preloadUint(2) as 0 | 1 | 2 | 3];
    need(kind !== undefined);
    return kind!(s, ctx);
  };
}

export const msgAddress: Kind = byPrefix({ 0: addrNone, 1: addrExternal, 2: addrStd, 3: addrVar });
export const msgAddressInt: Kind = byPrefix({ 2: addrStd, 3: addrVar });
export const msgAddressExt: Kind = byPrefix({ 0: addrNone, 1: addrExternal });
