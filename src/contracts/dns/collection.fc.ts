/**
 * A DNS root collection (TEP-81; a TEP-62 collection whose items are domains, as .ton's is), in FunC. Domains
 * are deployed by the collection's owner (no auctions); item index = sha256(domain bytes).
 *
 *   data: owner:MsgAddress content:^Cell item_code:^Cell
 *   dnsresolve(slice subdomain, int category) -> (int resolved_bits, cell record): for "\\0alice\\0..." (or
 *     "alice\\0...") resolves the leading zero byte and "alice" (48 or 40 bits) to dns_next_resolver#ba93 of
 *     the item of "alice"; the item resolves the rest
 *   get_collection_data() -> (int -1, cell content, slice owner) (items have no sequential index)
 *   get_nft_address_by_index(int index) -> slice;  get_nft_content(int index, cell individual) -> individual
 *
 * deploy_domain#1 query_id:uint64 amount:Coins domain:^Cell(bytes) owner:MsgAddress (from the owner): deploys
 * the item of that domain with `amount` and initializes it (owner:MsgAddress domain:^Cell).
 */
import { DNS_COMMON_FUNC } from './common.fc.js';

export const DNS_COLLECTION_FUNC =
  DNS_COMMON_FUNC +
  `
(slice, cell, cell) load_root() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_msg_addr(), ds~load_ref(), ds~load_ref());
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_empty?()) { return (); }
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  (slice owner, cell content, cell item_code) = load_root();
  throw_unless(error::not_owner, equal_slices(sender, owner));
  if (op == op::deploy_domain) {
    int amount = in_msg_body~load_coins();
    cell domain = in_msg_body~load_ref();
    slice new_owner = in_msg_body~load_msg_addr();
    slice name = domain.begin_parse();
    throw_unless(error::bad_domain, valid_domain?(name) & (name.slice_refs() == 0));
    cell init = domain_state_init(string_hash(name), my_address(), item_code);
    send_deploy(init, amount, begin_cell().store_slice(new_owner).store_ref(domain).end_cell(), mode::pay_fees_apart);
    return ();
  }
  throw(error::unknown_op);
}

(int, cell) dnsresolve(slice subdomain, int category) method_id {
  throw_unless(error::not_bytes, subdomain.slice_bits() % 8 == 0);
  int resolved = 0;
  if (subdomain.slice_bits() >= 8) {
    if (subdomain.preload_uint(8) == 0) {
      subdomain~skip_bits(8);
      resolved = 8;
    }
  }
  ;; the first component, up to the next zero byte or the end
  slice rest = subdomain;
  int length = 0;
  int more? = ~ rest.slice_data_empty?();
  while (more?) {
    if (rest~load_uint(8) == 0) {
      more? = 0;
    } else {
      length += 8;
      more? = ~ rest.slice_data_empty?();
    }
  }
  if (length == 0) {
    return (resolved, null());  ;; "." or nothing: the root itself has no records
  }
  (_, _, cell item_code) = load_root();
  slice item = basechain_address_of(domain_state_init(string_hash(subdomain.first_bits(length)), my_address(), item_code));
  return (resolved + length, begin_cell().store_uint(dns::next_resolver_tag, 16).store_slice(item).end_cell());
}

(int, cell, slice) get_collection_data() method_id {
  (slice owner, cell content, _) = load_root();
  return (-1, content, owner);
}

slice get_nft_address_by_index(int index) method_id {
  (_, _, cell item_code) = load_root();
  return basechain_address_of(domain_state_init(index, my_address(), item_code));
}

cell get_nft_content(int index, cell individual_content) method_id {
  return individual_content;
}
`;
