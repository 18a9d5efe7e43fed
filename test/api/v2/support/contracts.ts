/**
 * Small token and DNS contracts for the v2 tests, written in FunC and compiled with func-js (the FunC
 * compiler @ton/sandbox ships with). They keep the standard get-method interfaces getTokenData and
 * dnsResolve read (TEP-74 jettons, TEP-62 NFTs, TEP-81 DNS) and nothing else: no transfers, no fees.
 *
 *   jetton master   data: total_supply:Coins admin:MsgAddress ^content ^wallet_code
 *   jetton wallet   data: balance:Coins owner:MsgAddress master:MsgAddress; an internal message whose body
 *                   holds Coins adds them to the balance (how the fixture "mints")
 *   nft collection  data: next_item_index:uint64 owner:MsgAddress ^collection_content ^item_code ^common_content
 *   nft item        data: index:uint64 collection:MsgAddress [owner:MsgAddress ^content once initialized by
 *                   an internal message whose body is owner + ^content]
 *   dns zone        resolves "ton\0" to the next resolver kept as its data's ref
 *   dns resolver    resolves "alice\0": its data is the dictionary of records (category -> ^record)
 *   broken          answers get_jetton_data with content that is not TEP-64, and dnsresolve with a record
 *                   "dictionary" that is not one: the API must call that a wrong contract, not fail
 * Wallet and item addresses follow the usual rule: the hash of StateInit(code, initial data).
 */
import { compileFuncSources } from '../../../support/func.js';
import { Cell, contractAddress, type Address } from '@ton/core';

const STDLIB = `
builder begin_cell() asm "NEWC";
cell end_cell(builder b) asm "ENDC";
builder store_ref(builder b, cell c) asm(c b) "STREF";
builder store_slice(builder b, slice s) asm "STSLICER";
builder store_coins(builder b, int x) asm "STVARUINT16";
builder store_dict(builder b, cell c) asm(c b) "STDICT";
slice begin_parse(cell c) asm "CTOS";
cell get_data() asm "c4 PUSH";
() set_data(cell c) impure asm "c4 POP";
slice my_address() asm "MYADDR";
(slice, int) load_coins(slice s) asm(-> 1 0) "LDVARUINT16";
(slice, slice) load_msg_addr(slice s) asm(-> 1 0) "LDMSGADDR";
(slice, cell) load_ref(slice s) asm(-> 1 0) "LDREF";
cell preload_ref(slice s) asm "PLDREF";
cell preload_dict(slice s) asm "PLDDICT";
int slice_bits(slice s) asm "SBITS";
int cell_hash(cell c) asm "HASHCU";
forall X -> X null() asm "PUSHNULL";
(cell, int) udict_get_ref?(cell dict, int key_len, int index) asm(index dict key_len) "DICTUGETREF" "NULLSWAPIFNOT";

slice address_of(cell code, cell data) inline {
  cell init = begin_cell().store_uint(0, 2).store_dict(code).store_dict(data).store_uint(0, 1).end_cell();
  return begin_cell().store_uint(4, 3).store_uint(0, 8).store_uint(cell_hash(init), 256).end_cell().begin_parse();
}
`;

const SOURCES: Record<string, string> = {
  jettonMaster: `
() recv_internal(int balance, int value, cell full, slice body) impure { }
(int, int, slice, cell, cell) get_jetton_data() method_id {
  slice ds = get_data().begin_parse();
  int supply = ds~load_coins();
  slice admin = ds~load_msg_addr();
  cell content = ds~load_ref();
  cell wallet_code = ds~load_ref();
  return (supply, -1, admin, content, wallet_code);
}
slice get_wallet_address(slice owner) method_id {
  slice ds = get_data().begin_parse();
  ds~load_coins();
  ds~load_msg_addr();
  ds~load_ref();
  cell wallet_code = ds~load_ref();
  return address_of(wallet_code, begin_cell().store_coins(0).store_slice(owner).store_slice(my_address()).end_cell());
}`,
  jettonWallet: `
cell my_code() asm "MYCODE";
() recv_internal(int balance, int value, cell full, slice body) impure {
  if (body.slice_bits() < 4) { return (); }
  slice ds = get_data().begin_parse();
  int amount = ds~load_coins();
  set_data(begin_cell().store_coins(amount + body~load_coins()).store_slice(ds).end_cell());
}
(int, slice, slice, cell) get_wallet_data() method_id {
  slice ds = get_data().begin_parse();
  int amount = ds~load_coins();
  slice owner = ds~load_msg_addr();
  slice master = ds~load_msg_addr();
  return (amount, owner, master, my_code());
}`,
  nftCollection: `
() recv_internal(int balance, int value, cell full, slice body) impure { }
(int, cell, slice) get_collection_data() method_id {
  slice ds = get_data().begin_parse();
  int next = ds~load_uint(64);
  slice owner = ds~load_msg_addr();
  cell content = ds~load_ref();
  return (next, content, owner);
}
slice get_nft_address_by_index(int index) method_id {
  slice ds = get_data().begin_parse();
  ds~load_uint(64);
  ds~load_msg_addr();
  ds~load_ref();
  cell item_code = ds~load_ref();
  return address_of(item_code, begin_cell().store_uint(index, 64).store_slice(my_address()).end_cell());
}
cell get_nft_content(int index, cell individual) method_id {
  slice ds = get_data().begin_parse();
  ds~load_uint(64);
  ds~load_msg_addr();
  ds~load_ref();
  ds~load_ref();
  cell common = ds~load_ref();
  return begin_cell().store_uint(1, 8).store_slice(common.begin_parse()).store_ref(individual).end_cell();
}`,
  nftItem: `
() recv_internal(int balance, int value, cell full, slice body) impure {
  if (body.slice_bits() < 267) { return (); }
  slice ds = get_data().begin_parse();
  int index = ds~load_uint(64);
  slice collection = ds~load_msg_addr();
  slice owner = body~load_msg_addr();
  cell content = body~load_ref();
  set_data(begin_cell().store_uint(index, 64).store_slice(collection).store_slice(owner).store_ref(content).end_cell());
}
(int, int, slice, slice, cell) get_nft_data() method_id {
  slice ds = get_data().begin_parse();
  int index = ds~load_uint(64);
  slice collection = ds~load_msg_addr();
  if (ds.slice_bits() == 0) { return (0, index, collection, null(), null()); }
  slice owner = ds~load_msg_addr();
  cell content = ds~load_ref();
  return (-1, index, collection, owner, content);
}`,
  dnsZone: `
() recv_internal(int balance, int value, cell full, slice body) impure { }
(int, cell) dnsresolve(slice subdomain, int category) method_id {
  if (subdomain.slice_bits() < 32) { return (0, null()); }
  if (subdomain.preload_uint(32) != 0x746f6e00) { return (0, null()); }
  return (32, get_data().begin_parse().preload_ref());
}`,
  dnsResolver: `
() recv_internal(int balance, int value, cell full, slice body) impure { }
(int, cell) dnsresolve(slice subdomain, int category) method_id {
  if (subdomain.slice_bits() != 48) { return (0, null()); }
  if (subdomain.preload_uint(48) != 0x616c69636500) { return (0, null()); }
  cell records = get_data().begin_parse().preload_dict();
  if (category == 0) { return (48, records); }
  (cell record, int found) = records.udict_get_ref?(256, category);
  return (48, found ? record : null());
}`,
  broken: `
() recv_internal(int balance, int value, cell full, slice body) impure { }
(int, int, slice, cell, cell) get_jetton_data() method_id {
  cell bad = begin_cell().store_uint(0, 8).store_uint(1, 1).end_cell();
  return (1, -1, begin_cell().store_uint(0, 2).end_cell().begin_parse(), bad, bad);
}
(int, cell) dnsresolve(slice subdomain, int category) method_id {
  return (subdomain.slice_bits(), begin_cell().store_uint(3, 2).end_cell());
}`,
};

export type ContractName = keyof typeof SOURCES;
export type CompiledContracts = Record<ContractName, Cell>;

let compiled: Promise<CompiledContracts> | undefined;

/** Compiles every fixture contract once per process. */
export function compileContracts(): Promise<CompiledContracts> {
  compiled ??= (async () => {
    const out: Partial<CompiledContracts> = {};
    for (const [name, source] of Object.entries(SOURCES)) {
      out[name] = await compileFuncSources(['stdlib.fc', `${name}.fc`], { 'stdlib.fc': STDLIB, [`${name}.fc`]: source });
    }
    return out as CompiledContracts;
  })();
  return compiled;
}

/** TEP-64 content builders live with tongate's own contracts. */
export { offchainContent, onchainContent } from '../../../../src/contracts/content.js';

export interface StateInit {
  code: Cell;
  data: Cell;
}

export const addressOf = (init: StateInit): Address => contractAddress(0, init);
