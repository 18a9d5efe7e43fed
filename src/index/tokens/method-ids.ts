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
  // getgems' v4 auctions (auctions.ts)
  'get_auction_data_v4',
  // getgems' v4 fixed-price sales (sales.ts): they answer no get_sale_data
  'get_fix_price_data_v4',
  // multisig v2 and vesting wallets (src/index/multisig, src/index/vesting)
  'get_multisig_data',
  'get_order_address',
  'get_order_data',
  'get_vesting_data',
  // DeDust pools (src/index/dex)
  'get_assets',
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

/**
 * Mainnet code hashes of contracts whose get-methods are known though their code may not show them: the official
 * multisig v2 wallet and order are deployed as library cells (an exotic cell naming the code's hash: no method
 * dictionary to read). toncenter's address_book names them by these hashes (ton-index-go, index/detect/interfaces.go),
 * and its indexer requires the vesting wallet's (smc-interfaces/Vesting.h) and DeDust's pools'.
 */
const KNOWN_CODE: ReadonlyMap<string, TokenMethod[]> = new Map([
  ['D3D14DA9A627F0EC3533341829762AF92B9540B21BF03665FAC09C2B46EABBAC', ['get_multisig_data', 'get_order_address']],
  ['A01E057FBD4288402B9898D78D67BD4E90254C93C5866879BC2D1D12865436BC', ['get_order_data']],
  ['B48B531ABEC3B714638291F7D77ED6DC9F6A2729EFCA20477137374D4AE8B590', ['get_vesting_data']],
  // DeDust's pool codes (src/index/dex/dedust-pools.ts), should one come as a library cell.
  ['1275095B6DA3911292406F4F4386F9E780099B854C6DEE9EE2895DDCE70927C1', ['get_assets']],
  ['778F0D3FE6482C50888970DF5E787F40F3A4AB282170C035A5920877058C99D3', ['get_assets']],
  ['C0F9D14FBC8E14F0D72CBA2214165EEE35836AB174130912BAF9DBFA43EAD562', ['get_assets']],
] satisfies [string, TokenMethod[]][]);

/** The hash a code stands for: its own, or for a library cell (exotic type 2) the library's it names. */
export function codeHashOf(code: Cell): string {
  if (code.isExotic && code.bits.length === 8 + 256) {
    const cs = code.beginParse(true);
    if (cs.loadUint(8) === 2) return cs.loadBuffer(32).toString('hex').toUpperCase();
  }
  return code.hash().toString('hex').toUpperCase();
}

/** The token get-methods the code has (none for code without a readable dictionary, unless its hash is known). */
export function tokenMethods(code: Cell): TokenMethod[] {
  const ids = methodIds(code);
  if (!ids) return KNOWN_CODE.get(codeHashOf(code)) ?? [];
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
  ['multisig_order_v2', ['get_order_data']],
  ['multisig_v2', ['get_multisig_data', 'get_order_address']],
  // toncenter names every get_sale_data contract both (it cannot tell a v1 auction from a sale by methods).
  ['nft_auction_getgems_v4', ['get_auction_data_v4']],
  ['nft_auction_v1', ['get_sale_data']],
  ['nft_collection', ['get_nft_content', 'get_collection_data', 'get_nft_address_by_index']],
  ['nft_item', ['get_nft_data']],
  ['nft_sale', ['get_sale_data']],
  // toncenter knows getgems' v4 sale by its code hash too; by methods, this is how it names any other that answers so.
  ['nft_sale_getgems_v4', ['get_fix_price_data_v4']],
  ['sbt', ['get_authority_address']],
  // toncenter also asks for seqno and get_public_key, which every wallet has: not token methods here.
  ['wallet_vesting', ['get_vesting_data']],
];

export function interfacesOfMethods(methods: readonly TokenMethod[]): string[] {
  const have = new Set(methods);
  return INTERFACE_METHODS.filter(([, needs]) => needs.every((m) => have.has(m))).map(([name]) => name);
}
