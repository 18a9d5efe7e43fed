/**
 * The NFT item (TEP-62), in FunC. Deployed by its collection at the address of
 * StateInit(item_code, index:uint64 collection:MsgAddress); the collection's first message (owner:MsgAddress
 * ^content) initializes it.
 *
 *   data: index:uint64 collection:MsgAddress [owner:MsgAddress content:^Cell once initialized]
 *   get_nft_data() -> (int init?, int index, slice collection, slice owner, cell individual_content)
 *                     (owner and content are null before initialization)
 */
import { NFT_COMMON_FUNC } from './common.fc.js';

export const NFT_ITEM_FUNC =
  NFT_COMMON_FUNC +
  `
(int, int, slice, slice, cell) load_item() inline {
  slice ds = get_data().begin_parse();
  int index = ds~load_uint(64);
  slice collection = ds~load_msg_addr();
  if (ds.slice_bits() == 0) {
    return (0, index, collection, null(), null());
  }
  return (-1, index, collection, ds~load_msg_addr(), ds~load_ref());
}

() save_item(int index, slice collection, slice owner, cell content) impure inline {
  set_data(begin_cell().store_uint(index, 64).store_slice(collection).store_slice(owner).store_ref(content).end_cell());
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  (int init?, int index, slice collection, slice owner, cell content) = load_item();
  if (~ init?) {
    throw_unless(error::not_from_collection, equal_slices(sender, collection));
    save_item(index, collection, in_msg_body~load_msg_addr(), in_msg_body~load_ref());
    return ();
  }
  if (in_msg_body.slice_empty?()) { return (); }  ;; a plain top-up
  int op = in_msg_body~load_uint(32);
  if (op == op::nft_transfer) {
    slice new_owner = transfer_ownership(in_msg_body, sender, owner, my_balance, inbound_fwd_fee(in_msg_full));
    save_item(index, collection, new_owner, content);
    return ();
  }
  if (op == op::get_static_data) {
    report_static_data(in_msg_body, sender, index, collection);
    return ();
  }
  throw(error::unknown_op);
}

(int, int, slice, slice, cell) get_nft_data() method_id {
  return load_item();
}
`;
