/**
 * A domain of the DNS root collection (TEP-81), a TEP-62 item, in FunC. Deployed at the address of
 * StateInit(item_code, index:uint256 collection:MsgAddress) with index = sha256(domain); the collection's first
 * message (owner:MsgAddress domain:^Cell) initializes it.
 *
 *   data: index:uint256 collection:MsgAddress [owner:MsgAddress domain:^Cell records:(HashmapE 256 ^DNSRecord)
 *         once initialized]
 *   get_nft_data() -> (int init?, int index, slice collection, slice owner, cell content): content is onchain
 *     TEP-64 with no keys (0x00, empty dictionary)
 *   get_domain() -> slice: the domain's bytes ("alice")
 *   dnsresolve(slice subdomain, int category) -> (int resolved_bits, cell record): "\\0" (or nothing) is the
 *     domain itself: category 0 gives the records dictionary, another category its record (null when unset);
 *     a longer subdomain goes to the dns_next_resolver record, if there is one
 *
 * change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 [^record] (from the owner): sets, or without a ref
 * deletes, the record of category `key` (sha256 of "wallet", "site", "storage", "dns_next_resolver").
 * nft transfer and get_static_data as any TEP-62 item.
 */
import { DNS_COMMON_FUNC } from './common.fc.js';

export const DNS_ITEM_FUNC =
  DNS_COMMON_FUNC +
  `
(int, int, slice, slice, cell, cell) load_domain() inline {
  slice ds = get_data().begin_parse();
  int index = ds~load_uint(256);
  slice collection = ds~load_msg_addr();
  if (ds.slice_bits() == 0) {
    return (0, index, collection, null(), null(), null());
  }
  return (-1, index, collection, ds~load_msg_addr(), ds~load_ref(), ds~load_dict());
}

() save_domain(int index, slice collection, slice owner, cell domain, cell records) impure inline {
  set_data(begin_cell().store_uint(index, 256).store_slice(collection).store_slice(owner).store_ref(domain).store_dict(records).end_cell());
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  (int init?, int index, slice collection, slice owner, cell domain, cell records) = load_domain();
  if (~ init?) {
    throw_unless(error::not_from_collection, equal_slices(sender, collection));
    save_domain(index, collection, in_msg_body~load_msg_addr(), in_msg_body~load_ref(), new_dict());
    return ();
  }
  if (in_msg_body.slice_empty?()) { return (); }
  int op = in_msg_body~load_uint(32);
  if (op == op::nft_transfer) {
    slice new_owner = transfer_ownership(in_msg_body, sender, owner, my_balance, inbound_fwd_fee(in_msg_full));
    save_domain(index, collection, new_owner, domain, records);
    return ();
  }
  if (op == op::get_static_data) {
    report_static_data(in_msg_body, sender, index, collection);
    return ();
  }
  if (op == op::change_dns_record) {
    throw_unless(error::not_owner, equal_slices(sender, owner));
    in_msg_body~skip_bits(64);  ;; query_id
    int key = in_msg_body~load_uint(256);
    throw_if(error::zero_key, key == 0);
    if (in_msg_body.slice_refs()) {
      records~udict_set_ref(256, key, in_msg_body~load_ref());
    } else {
      records~udict_delete?(256, key);
    }
    save_domain(index, collection, owner, domain, records);
    return ();
  }
  throw(error::unknown_op);
}

(int, int, slice, slice, cell) get_nft_data() method_id {
  (int init?, int index, slice collection, slice owner, _, _) = load_domain();
  cell content = init? ? begin_cell().store_uint(0, 8).store_dict(new_dict()).end_cell() : null();
  return (init?, index, collection, owner, content);
}

slice get_domain() method_id {
  (_, _, _, _, cell domain, _) = load_domain();
  return domain.begin_parse();
}

(int, cell) dnsresolve(slice subdomain, int category) method_id {
  throw_unless(error::not_bytes, subdomain.slice_bits() % 8 == 0);
  (int init?, _, _, _, _, cell records) = load_domain();
  if (~ init?) {
    return (0, null());
  }
  int bits = subdomain.slice_bits();
  int own? = bits == 0;
  if (bits == 8) {
    own? = subdomain.preload_uint(8) == 0;
  }
  if (own?) {
    if (category == 0) {
      return (bits, records);
    }
    (cell record, _) = records.udict_get_ref?(256, category);
    return (bits, record);
  }
  ;; a subdomain: its leading zero byte is resolved here, the rest by the next resolver
  if (subdomain.preload_uint(8) != 0) {
    return (0, null());
  }
  (cell next, int found?) = records.udict_get_ref?(256, dns::category_next_resolver);
  if (~ found?) {
    return (0, null());
  }
  return (8, next);
}
`;
