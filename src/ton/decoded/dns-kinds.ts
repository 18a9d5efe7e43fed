/**
 * TEP-81 DNS records (`DNSRecord`), the value of `change_dns_record`: text, next resolver, ADNL
 * address, smart-contract address (a wallet record), storage bag.
 */
import type { Slice } from '@ton/core';
import { msgAddressInt } from './address-kinds.js';
import { bits, ctor, enterRef, loadHex, need, oneOf, type Ctx, type Json, type JsonObject, type Kind } from './kinds.js';

/** `TextChunks n`: `text_chunk$_ len:(## 8) data:(bits (len * 8)) next:(TextChunkRef n-1)`, `text_chunk_empty$_` at 0. */
function textChunks(s: Slice, ctx: Ctx, n: number): Json {
  if (n === 0) return { '@type': 'text_chunk_empty' };
  need(s.remainingBits >= 8);
  const len = s.loadUint(8);
  need(s.remainingBits >= len * 8);
  const data = loadHex(s, len * 8);
  // TextChunkRef n-1: `chunk_ref$_ ref:^(TextChunks n-1)`, `chunk_ref_empty$_` at 0.
  const next: Json = n - 1 === 0 ? { '@type': 'chunk_ref_empty' } : { '@type': 'chunk_ref', ref: textChunks(enterRef(s, ctx), ctx, n - 1) };
  return { '@type': 'text_chunk', len: String(len), data, next };
}

/** `text$_ chunks:(## 8) rest:(TextChunks chunks)`. */
const text: Kind = (s, ctx) => {
  need(s.remainingBits >= 8);
  const chunks = s.loadUint(8);
  return { '@type': 'text', chunks: String(chunks), rest: textChunks(s, ctx, chunks) };
};

/** A list `nil$0 | next$1 item:X next:List`, read iteratively (a long list cannot exhaust the stack). */
function list(nil: string, cons: string, item: Kind): Kind {
  return (s, ctx) => {
    const items: Json[] = [];
    for (;;) {
      need(s.remainingBits >= 1);
      if (!s.loadBit()) break;
      need(items.length < 1024);
      items.push(item(s, ctx));
    }
    let out: JsonObject = { '@type': nil };
    for (let i = items.length - 1; i >= 0; i--) out = { '@type': cons, item: items[i], next: out };
    return out;
  };
}

const protoList = list('proto_list_nil', 'proto_list_next', ctor('proto_http', 16, 0x4854, []));

const smcCapability = oneOf([
  [16, 0x5371, ctor('cap_method_seqno', 16, 0x5371, [])],
  [16, 0x71f4, ctor('cap_method_pubkey', 16, 0x71f4, [])],
  [16, 0x2177, ctor('cap_is_wallet', 16, 0x2177, [])],
  [8, 0xff, ctor('cap_name', 8, 0xff, [['name', text]])],
]);
const capList = list('cap_list_nil', 'cap_list_next', smcCapability);

/** `flags:(## 8) { flags <= 1 } list:flags . 0?List`: the list is written only when bit 0 is set. */
function flagged(record: JsonObject, s: Slice, ctx: Ctx, key: string, listKind: Kind): JsonObject {
  need(s.remainingBits >= 8);
  const flags = s.loadUint(8);
  need(flags <= 1);
  record.flags = String(flags);
  if (flags & 1) record[key] = listKind(s, ctx);
  return record;
}

export const dnsRecord = oneOf([
  [16, 0x1eda, ctor('dns_text', 16, 0x1eda, [['', text]])],
  [16, 0xba93, ctor('dns_next_resolver', 16, 0xba93, [['resolver', msgAddressInt]])],
  [
    16,
    0xad01,
    (s, ctx) => {
      s.skip(16);
      const record: JsonObject = { '@type': 'dns_adnl_address', adnl_addr: bits(256)(s, ctx) };
      return flagged(record, s, ctx, 'proto_list', protoList);
    },
  ],
  [
    16,
    0x9fd3,
    (s, ctx) => {
      s.skip(16);
      const record: JsonObject = { '@type': 'dns_smc_address', smc_addr: msgAddressInt(s, ctx) };
      return flagged(record, s, ctx, 'cap_list', capList);
    },
  ],
  [16, 0x7473, ctor('dns_storage_address', 16, 0x7473, [['bag_id', bits(256)]])],
]);
