/**
 * A multisig v2 wallet in FunC, written here from the published layouts of TON's multisig v2 (its README,
 * description.md and multisig.tlb), not from its code. The order contract's code is part of the wallet's code
 * (`multisigWalletFunc(orderCode)`), as in multisig v2: an order's address depends only on the wallet and the seqno.
 *
 *   data:  next_order_seqno:uint256 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) signers_num:uint8
 *          proposers:(HashmapE 8 MsgAddressInt) allow_arbitrary_order_seqno:Bool
 *   new_order#f718510f query_id:uint64 order_seqno:uint256 signer:(## 1) index:uint8 expiration_date:uint48
 *          order:^Order   from signers[index] (signer = 1) or proposers[index]; order_seqno 2^256-1 means "the next
 *          one"; deploys the order with init#9c73fba2 (the creator's approval included when a signer created it)
 *          and the message's value; at least 0.1 TON (a fixed amount here, where multisig v2 computes it)
 *   execute#75097f5d query_id order_seqno expiration_date approvals_num signers_hash:bits256 order:^Order
 *          only from that order's address, with the current signers' hash and enough approvals, before expiry
 *   execute_internal#a32c59bf query_id order:^Order   only from the wallet itself (chained orders)
 *   Order = Hashmap 8 ^Action: send_message#f1381e5b mode:uint8 message:^MessageRelaxed, or
 *          update_multisig_param#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) proposers:(HashmapE 8 ..)
 *   get_multisig_data() -> (int next_order_seqno (-1 with arbitrary seqnos), int threshold, cell signers, cell proposers)
 *   get_order_address(int order_seqno) -> slice;  get_order_estimate(cell order, int expiration_date) -> int
 */
import type { Cell } from '@ton/core';
import { MULTISIG_COMMON_FUNC } from './common.fc.js';

export const multisigWalletFunc = (orderCode: Cell): string =>
  MULTISIG_COMMON_FUNC +
  `
cell order_code() asm "B{${orderCode.toBoc().toString('hex')}} B>boc PUSHREF";

const int max_order_seqno = 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;
;; what a new order must carry: its deployment, its storage, the approvals' answers and the execute message
const int order_min_value = 100000000;

cell order_state_init(int order_seqno) inline {
  return state_init_of(order_code(), order_data(my_address(), order_seqno));
}

(int, int, cell, int, cell, int) load_multisig() inline {
  slice ds = get_data().begin_parse();
  var data = (ds~load_uint(256), ds~load_uint(8), ds~load_ref(), ds~load_uint(8), ds~load_dict(), ds~load_int(1));
  ds.end_parse();
  return data;
}

() save_multisig(int next_order_seqno, int threshold, cell signers, int signers_num, cell proposers, int arbitrary?) impure inline {
  set_data(begin_cell()
    .store_uint(next_order_seqno, 256).store_uint(threshold, 8).store_ref(signers).store_uint(signers_num, 8)
    .store_dict(proposers).store_int(arbitrary?, 1)
    .end_cell());
}

;; the number of entries of a dictionary keyed 0, 1, 2, ... without gaps (103 otherwise)
int dense_count(cell dict) inline {
  int count = 0;
  int index = -1;
  do {
    (index, slice value, int found?) = dict.udict_get_next?(index_bits, index);
    if (found?) {
      throw_unless(error::invalid_dictionary_sequence, index == count);
      count += 1;
    }
  } until (~ found?);
  return count;
}

(int, cell, int, cell) run_order(int threshold, cell signers, int signers_num, cell proposers, cell order) impure inline {
  accept_message();
  int index = -1;
  do {
    (index, slice entry, int found?) = order.udict_get_next?(index_bits, index);
    if (found?) {
      slice action = entry.preload_ref().begin_parse();
      int op = action~load_uint(32);
      if (op == action::send_message) {
        int mode = action~load_uint(8);
        send_raw_message(action~load_ref(), mode);
        action.end_parse();
      } elseif (op == action::update_multisig_params) {
        threshold = action~load_uint(8);
        signers = action~load_ref();
        signers_num = dense_count(signers);
        throw_unless(error::invalid_signers, signers_num >= 1);
        throw_unless(error::invalid_threshold, (threshold > 0) & (threshold <= signers_num));
        proposers = action~load_dict();
        dense_count(proposers);
        action.end_parse();
      }
    }
  } until (~ found?);
  return (threshold, signers, signers_num, proposers);
}

() recv_internal(int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced?) = sender_and_bounced(in_msg_full);
  if (bounced? | (in_msg_body.slice_bits() < 32)) {
    return (); ;; a bounce, or plain TON
  }
  int op = in_msg_body~load_uint(32);
  if (op == 0) {
    return (); ;; a comment: plain TON
  }
  int query_id = in_msg_body~load_uint(64);
  (int next_order_seqno, int threshold, cell signers, int signers_num, cell proposers, int arbitrary?) = load_multisig();

  if (op == op::new_order) {
    int order_seqno = in_msg_body~load_uint(256);
    if (~ arbitrary?) {
      if (order_seqno == max_order_seqno) {
        order_seqno = next_order_seqno;
      } else {
        throw_unless(error::invalid_new_order, order_seqno == next_order_seqno);
      }
      next_order_seqno += 1;
    }
    int signer? = in_msg_body~load_int(1);
    int index = in_msg_body~load_uint(8);
    int expiration_date = in_msg_body~load_uint(48);
    cell order = in_msg_body~load_ref();
    in_msg_body.end_parse();
    (slice expected, int found?) = (signer? ? signers : proposers).udict_get?(index_bits, index);
    throw_unless(error::unauthorized_new_order, found?);
    throw_unless(error::unauthorized_new_order, equal_slices(sender, expected));
    throw_unless(error::expired, expiration_date >= now());
    throw_unless(error::not_enough_ton, msg_value >= order_min_value);
    builder init = begin_cell()
      .store_uint(op::init, 32).store_uint(query_id, 64).store_uint(threshold, 8).store_ref(signers)
      .store_uint(expiration_date, 48).store_ref(order).store_int(signer?, 1);
    if (signer?) {
      init = init.store_uint(index, 8);
    }
    send_deploy(order_state_init(order_seqno), 0, init.end_cell(), mode::carry_inbound_value);
  } elseif (op == op::execute) {
    int order_seqno = in_msg_body~load_uint(256);
    int expiration_date = in_msg_body~load_uint(48);
    int approvals_num = in_msg_body~load_uint(8);
    int signers_hash = in_msg_body~load_uint(256);
    cell order = in_msg_body~load_ref();
    in_msg_body.end_parse();
    throw_unless(error::unauthorized_execute, equal_slices(sender, basechain_address_of(order_state_init(order_seqno))));
    throw_unless(error::signers_outdated, (signers_hash == cell_hash(signers)) & (approvals_num >= threshold));
    throw_unless(error::expired, expiration_date >= now());
    (threshold, signers, signers_num, proposers) = run_order(threshold, signers, signers_num, proposers, order);
  } elseif (op == op::execute_internal) {
    throw_unless(error::unauthorized_execute, equal_slices(sender, my_address()));
    cell order = in_msg_body~load_ref();
    in_msg_body.end_parse();
    (threshold, signers, signers_num, proposers) = run_order(threshold, signers, signers_num, proposers, order);
  }
  save_multisig(next_order_seqno, threshold, signers, signers_num, proposers, arbitrary?);
}

(int, int, cell, cell) get_multisig_data() method_id {
  (int next_order_seqno, int threshold, cell signers, int signers_num, cell proposers, int arbitrary?) = load_multisig();
  throw_unless(error::inconsistent_data, signers_num == dense_count(signers));
  dense_count(proposers);
  return (arbitrary? ? -1 : next_order_seqno, threshold, signers, proposers);
}

slice get_order_address(int order_seqno) method_id {
  return basechain_address_of(order_state_init(order_seqno));
}

int get_order_estimate(cell order, int expiration_date) method_id {
  return order_min_value;
}
`;
