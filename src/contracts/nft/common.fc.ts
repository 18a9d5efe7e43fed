/**
 * FunC shared by NFT items (TEP-62) and DNS items (TEP-81 items are NFTs): opcodes and the transfer of ownership,
 * after src/contracts/shared.fc.ts.
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const NFT_COMMON_FUNC =
  SHARED_FUNC +
  `
;; TEP-62
const int op::nft_transfer = 0x5fcc3d14;
const int op::ownership_assigned = 0x05138d91;
const int op::get_static_data = 0x2fcb26a2;
const int op::report_static_data = 0x8b771735;
;; TEP-66
const int op::get_royalty_params = 0x693d3950;
const int op::report_royalty_params = 0xa8cb00ad;
;; the collection owner's operations
const int op::deploy_item = 1;
const int op::batch_deploy_items = 2;
const int op::change_owner = 3;

const int error::not_from_collection = 405;
const int error::index_out_of_range = 402;
const int error::batch_too_large = 399;

;; what an item keeps for its storage
const int item_storage_reserve = 50000000;

;; transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
;;   custom_payload:(Maybe ^Cell) forward_amount:Coins forward_payload:(Either Cell ^Cell)
;; (after the op) from the owner: tells the new owner (ownership_assigned, when forward_amount > 0) and returns
;; what the item does not keep for storage to response_destination (excesses). Answers the new owner.
slice transfer_ownership(slice body, slice sender, slice owner, int my_balance, int fwd_fee) impure {
  throw_unless(error::not_owner, equal_slices(sender, owner));
  int query_id = body~load_uint(64);
  slice new_owner = body~load_msg_addr();
  slice response = body~load_msg_addr();
  body~load_maybe_ref();  ;; custom_payload: unused
  int forward_amount = body~load_coins();
  throw_unless(error::bad_payload, slice_bits(body) >= 1);
  int rest = my_balance - item_storage_reserve;
  if (forward_amount) {
    rest -= forward_amount + fwd_fee;
  }
  int respond? = ~ is_addr_none?(response);
  if (respond?) {
    rest -= fwd_fee;
  }
  throw_unless(error::not_enough_value, rest >= 0);
  if (forward_amount) {
    ;; ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell)
    send_body(new_owner, forward_amount, begin_cell()
      .store_uint(op::ownership_assigned, 32).store_uint(query_id, 64).store_slice(owner).store_slice(body)
      .end_cell(), 0, mode::pay_fees_apart);
  }
  if (respond?) {
    send_excesses(response, rest, query_id, mode::pay_fees_apart);
  }
  return new_owner;
}

;; get_static_data#2fcb26a2 query_id:uint64 -> report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress
() report_static_data(slice body, slice sender, int index, slice collection) impure {
  int query_id = body~load_uint(64);
  send_body(sender, 0, begin_cell()
    .store_uint(op::report_static_data, 32).store_uint(query_id, 64).store_uint(index, 256).store_slice(collection)
    .end_cell(), -1, mode::carry_inbound_value);
}
`;
