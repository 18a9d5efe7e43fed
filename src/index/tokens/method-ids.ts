/**
 * Which get-methods a contract's code has, read from its method dictionary the way ton-indexer does
 * (parse_contract_methods): code that starts with SETCP0 (0xFF00) then DICTPUSHCONST (14-bit prefix
 * 0x3D29, a 10-bit key length, the dictionary as the next reference) keeps its methods as that
 * dictionary's keys. A get-method's id is `crc16(name) & 0xffff | 0x10000`. Code of another shape (a
 * library cell, a hand-written dispatcher) has no readable method ids: no get-method is run on it.
 */
import { crc16, Dictionary, type Cell } from '@ton/core';

export function methodId(name: string): number {
  return (crc16(Buffer.from(name)).readUInt16BE(0) & 0xffff) | 0x10000;
}

/** The get-methods token detection and the address_book interfaces look for. */
export const TOKEN_METHODS = [
  'get_jetton_data',
  'get_wallet_address',
  'get_wallet_data',
  'get_nft_data',
  'get_collection_data',
  'get_nft_address_by_index',
  'get_nft_content',
  'dnsresolve',
  'get_editor',
  'get_authority_address',
  'get_sale_data',
] as const;
export type TokenMethod = (typeof TOKEN_METHODS)[number];

const BY_ID = new Map<number, TokenMethod>(TOKEN_METHODS.map((name) => [methodId(name), name]));

/** Values are read as nothing: only the keys matter. */
const IGNORED = { serialize: () => {}, parse: () => null };

/** Every method id of the code's dictionary; null when the code has no dictionary of that shape. */
export function methodIds(code: Cell): Set<number> | null {
  if (code.isExotic) return null;
  try {
    const cs = code.beginParse();
    if (cs.remainingBits < 40 || cs.loadUint(16) !== 0xff00) return null;
    if (cs.loadUint(14) !== 0x3d29) return null;
    const keyBits = cs.loadUint(10);
    if (cs.remainingRefs === 0 || keyBits === 0 || keyBits > 257) return null;
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(keyBits), IGNORED, cs.loadRef());
    return new Set(dict.keys());
  } catch {
    return null;
  }
}

/** The token get-methods the code has (none for code without a readable dictionary). */
export function tokenMethods(code: Cell): TokenMethod[] {
  const ids = methodIds(code);
  if (!ids) return [];
  const found: TokenMethod[] = [];
  for (const id of ids) {
    const name = BY_ID.get(id);
    if (name) found.push(name);
  }
  return found;
}

/** toncenter's address_book interface names by method sets (index/detect/interfaces.go), sorted. */
const INTERFACE_METHODS: [string, TokenMethod[]][] = [
  ['dns', ['dnsresolve']],
  ['editable', ['get_editor']],
  ['jetton_master', ['get_jetton_data', 'get_wallet_address']],
  ['jetton_wallet', ['get_wallet_data']],
  // toncenter names every get_sale_data contract both (it cannot tell a v1 auction from a sale by methods).
  ['nft_auction_v1', ['get_sale_data']],
  ['nft_collection', ['get_nft_content', 'get_collection_data', 'get_nft_address_by_index']],
  ['nft_item', ['get_nft_data']],
  ['nft_sale', ['get_sale_data']],
  ['sbt', ['get_authority_address']],
];

export function interfacesOfMethods(methods: readonly TokenMethod[]): string[] {
  const have = new Set(methods);
  return INTERFACE_METHODS.filter(([, needs]) => needs.every((m) => have.has(m))).map(([name]) => name);
}
