/**
 * The NFT collection (TEP-62, royalties per TEP-66), in FunC.
 *
 *   data: owner:MsgAddress next_item_index:uint64 ^[collection_content:^Cell common_content:^Cell]
 *         item_code:^Cell ^[numerator:uint16 denominator:uint16 destination:MsgAddress]
 *   get_collection_data() -> (int next_item_index, cell collection_content, slice owner)
 *   get_nft_address_by_index(int index) -> slice
 *   get_nft_content(int index, cell individual_content) -> cell: 0x01 common_content individual_content (an
 *     offchain URI made of the common prefix and the item's suffix); an individual content that starts with a
 *     zero byte is onchain TEP-64 content and is answered as it is
 *   royalty_params() -> (int numerator, int denominator, slice destination)
 *
 * Owner operations: deploy_item#1 query_id:uint64 index:uint64 amount:Coins ^[owner:MsgAddress ^content];
 * batch_deploy_items#2 query_id:uint64 ^(HashmapE 64 [amount:Coins ^[owner:MsgAddress ^content]]) (at most 250);
 * change_owner#3 query_id:uint64 new_owner:MsgAddress. Anyone: get_royalty_params -> report_royalty_params.
 */
import { NFT_COMMON_FUNC } from './common.fc.js';

export const NFT_COLLECTION_FUNC =
  NFT_COMMON_FUNC +
  `
(slice, int, cell, cell, cell) load_collection() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_msg_addr(), ds~load_uint(64), ds~load_ref(), ds~load_ref(), ds~load_ref());
}

() save_collection(slice owner, int next_index, cell content, cell item_code, cell royalty) impure inline {
  set_data(begin_cell().store_slice(owner).store_uint(next_index, 64).store_ref(content).store_ref(item_code).store_ref(royalty).end_cell());
}

cell item_state_init(int index, cell item_code) inline {
  return state_init_of(item_code, begin_cell().store_uint(index, 64).store_slice(my_address()).end_cell());
}

;; deploys item index (an existing one just receives the message, and ignores it once initialized)
() deploy_item(int index, cell item_code, int amount, cell item_init) impure {
  send_deploy(item_state_init(index, item_code), amount, item_init, mode::pay_fees_apart);
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_empty?()) { return (); }
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  (slice owner, int next_index, cell content, cell item_code, cell royalty) = load_collection();

  if (op == op::get_royalty_params) {
    send_body(sender, 0, begin_cell()
      .store_uint(op::report_royalty_params, 32).store_uint(query_id, 64).store_slice(royalty.begin_parse())
      .end_cell(), -1, mode::carry_inbound_value);
    return ();
  }

  throw_unless(error::not_owner, equal_slices(sender, owner));
  if (op == op::deploy_item) {
    int index = in_msg_body~load_uint(64);
    throw_unless(error::index_out_of_range, index <= next_index);
    deploy_item(index, item_code, in_msg_body~load_coins(), in_msg_body~load_ref());
    if (index == next_index) {
      next_index += 1;
    }
    save_collection(owner, next_index, content, item_code, royalty);
    return ();
  }
  if (op == op::batch_deploy_items) {
    cell list = in_msg_body~load_ref();
    int count = 0;
    do {
      (list, int index, slice entry, int found?) = list.udict_delete_get_min(64);
      if (found?) {
        count += 1;
        throw_unless(error::batch_too_large, count <= 250);
        throw_unless(error::index_out_of_range + count, index <= next_index);
        deploy_item(index, item_code, entry~load_coins(), entry~load_ref());
        if (index == next_index) {
          next_index += 1;
        }
      }
    } until (~ found?);
    save_collection(owner, next_index, content, item_code, royalty);
    return ();
  }
  if (op == op::change_owner) {
    save_collection(in_msg_body~load_msg_addr(), next_index, content, item_code, royalty);
    return ();
  }
  throw(error::unknown_op);
}

(int, cell, slice) get_collection_data() method_id {
  (slice owner, int next_index, cell content, _, _) = load_collection();
  return (next_index, content.begin_parse().preload_ref(), owner);
}

slice get_nft_address_by_index(int index) method_id {
  (_, _, _, cell item_code, _) = load_collection();
  return basechain_address_of(item_state_init(index, item_code));
}

(int, int, slice) royalty_params() method_id {
  (_, _, _, _, cell royalty) = load_collection();
  slice rs = royalty.begin_parse();
  return (rs~load_uint(16), rs~load_uint(16), rs~load_msg_addr());
}

cell get_nft_content(int index, cell individual_content) method_id {
  slice individual = individual_content.begin_parse();
  if (individual.slice_bits() >= 8) {
    if (individual.preload_uint(8) == 0) {
      return individual_content;
    }
  }
  (_, _, cell content, _, _) = load_collection();
  slice contents = content.begin_parse();
  contents~load_ref();  ;; collection_content
  cell common = contents~load_ref();
  return begin_cell().store_uint(1, 8).store_slice(common.begin_parse()).store_ref(individual_content).end_cell();
}
`;
