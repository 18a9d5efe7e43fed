/**
 * A multisig v2 order in FunC, written here from the published layouts of TON's multisig v2 (its README,
 * description.md and multisig.tlb), not from its code:
 *
 *   data:  multisig_address:MsgAddressInt order_seqno:uint256 (the StateInit's data: what makes the address), then,
 *          once the multisig's init arrived: threshold:uint8 sent_for_execution:Bool signers:^(Hashmap 8 MsgAddressInt)
 *          approvals_mask:uint256 approvals_num:uint8 expiration_date:uint48 order:^Order
 *   init#9c73fba2 query_id threshold signers:^Cell expiration_date:uint48 order:^Cell approve_on_init:Bool
 *          signer_index:approve_on_init?uint8   only from the multisig; a second init (another signer proposed the same
 *          order) counts as that signer's approval
 *   approve#a762230f query_id signer_index:uint8   from signers[signer_index]; also the text comment "approve" from
 *          any signer. Answered with approve_accepted#82609bf6 query_id, or approve_rejected#afaf283e query_id
 *          exit_code:uint32 (already approved, already executed), with the rest of the message's value.
 *   Once approvals reach the threshold the order sends execute#75097f5d query_id order_seqno:uint256
 *          expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Order to the multisig with its
 *          whole balance, and is sent_for_execution.
 *   get_order_data() -> (slice multisig, int order_seqno, int threshold, int sent_for_execution, cell signers,
 *          int approvals_mask, int approvals_num, int expiration_date, cell order)  (nulls before init)
 */
import { MULTISIG_COMMON_FUNC } from './common.fc.js';

export const MULTISIG_ORDER_FUNC =
  MULTISIG_COMMON_FUNC +
  `
global slice multisig;
global int order_seqno;
global int threshold;
global int sent_for_execution?;
global cell signers;
global int approvals_mask;
global int approvals_num;
global int expiration_date;
global cell order;

() load_order() impure inline {
  slice ds = get_data().begin_parse();
  multisig = ds~load_msg_addr();
  order_seqno = ds~load_uint(256);
  if (ds.slice_bits() == 0) {
    threshold = null();
    sent_for_execution? = null();
    signers = null();
    approvals_mask = null();
    approvals_num = null();
    expiration_date = null();
    order = null();
  } else {
    threshold = ds~load_uint(8);
    sent_for_execution? = ds~load_int(1);
    signers = ds~load_ref();
    approvals_mask = ds~load_uint(256);
    approvals_num = ds~load_uint(8);
    expiration_date = ds~load_uint(48);
    order = ds~load_ref();
    ds.end_parse();
  }
}

() save_order() impure inline {
  set_data(begin_cell()
    .store_slice(multisig).store_uint(order_seqno, 256)
    .store_uint(threshold, 8).store_int(sent_for_execution?, 1).store_ref(signers)
    .store_uint(approvals_mask, 256).store_uint(approvals_num, 8).store_uint(expiration_date, 48).store_ref(order)
    .end_cell());
}

(int, int) signer_index_of(slice address) inline {
  int index = -1;
  int match = -1;
  do {
    (index, slice signer, int found?) = signers.udict_get_next?(index_bits, index);
    if (found?) {
      if (equal_slices(signer, address)) {
        match = index;
        found? = false;
      }
    }
  } until (~ found?);
  return (match, match >= 0);
}

() add_approval(int signer_index) impure inline {
  int mask = 1 << signer_index;
  throw_if(error::already_approved, approvals_mask & mask);
  approvals_num += 1;
  approvals_mask |= mask;
}

;; at the threshold: the order goes to the multisig with everything this contract holds
() execute_if_approved(int query_id) impure inline {
  if (approvals_num == threshold) {
    send_body(multisig, 0, begin_cell()
      .store_uint(op::execute, 32).store_uint(query_id, 64).store_uint(order_seqno, 256)
      .store_uint(expiration_date, 48).store_uint(approvals_num, 8).store_uint(cell_hash(signers), 256)
      .store_ref(order).end_cell(), false, 128);
    sent_for_execution? = true;
  }
}

;; an approval answered either way; a refusal changes nothing (globals are restored when the try block throws)
() approve(int signer_index, slice response, int query_id) impure inline_ref {
  try {
    throw_if(error::already_executed, sent_for_execution?);
    add_approval(signer_index);
    send_body(response, 0, begin_cell().store_uint(op::approve_accepted, 32).store_uint(query_id, 64).end_cell(), false, mode::carry_inbound_value);
    execute_if_approved(query_id);
    save_order();
  } catch (_, exit_code) {
    send_body(response, 0, begin_cell().store_uint(op::approve_rejected, 32).store_uint(query_id, 64).store_uint(exit_code, 32).end_cell(), false, mode::carry_inbound_value);
  }
}

() recv_internal(int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced?) = sender_and_bounced(in_msg_full);
  if (bounced?) {
    return ();
  }
  int op = in_msg_body~load_uint(32);
  load_order();

  if (op == 0) {
    throw_unless(error::unknown_op, equal_slices(in_msg_body, "approve"));
    (int signer_index, int found?) = signer_index_of(sender);
    throw_unless(error::unauthorized_sign, found?);
    approve(signer_index, sender, cur_lt());
    return ();
  }

  int query_id = in_msg_body~load_uint(64);

  if (op == op::init) {
    throw_unless(error::unauthorized_init, equal_slices(sender, multisig));
    if (null?(threshold)) {
      threshold = in_msg_body~load_uint(8);
      sent_for_execution? = false;
      signers = in_msg_body~load_ref();
      approvals_mask = 0;
      approvals_num = 0;
      expiration_date = in_msg_body~load_uint(48);
      throw_unless(error::expired, expiration_date >= now());
      order = in_msg_body~load_ref();
      if (in_msg_body~load_int(1)) {
        add_approval(in_msg_body~load_uint(8));
        execute_if_approved(query_id);
      }
      in_msg_body.end_parse();
      save_order();
      return ();
    }
    throw_unless(error::already_inited, in_msg_body~load_uint(8) == threshold);
    throw_unless(error::already_inited, cell_hash(in_msg_body~load_ref()) == cell_hash(signers));
    throw_unless(error::already_inited, in_msg_body~load_uint(48) == expiration_date);
    throw_unless(error::already_inited, cell_hash(in_msg_body~load_ref()) == cell_hash(order));
    throw_unless(error::already_inited, in_msg_body~load_int(1));
    int signer_index = in_msg_body~load_uint(8);
    in_msg_body.end_parse();
    (slice signer, int found?) = signers.udict_get?(index_bits, signer_index);
    throw_unless(error::unauthorized_sign, found?);
    approve(signer_index, signer, query_id);
    return ();
  }

  if (op == op::approve) {
    int signer_index = in_msg_body~load_uint(8);
    in_msg_body.end_parse();
    throw_if(error::unauthorized_sign, null?(signers));
    (slice signer, int found?) = signers.udict_get?(index_bits, signer_index);
    throw_unless(error::unauthorized_sign, found?);
    throw_unless(error::unauthorized_sign, equal_slices(sender, signer));
    approve(signer_index, sender, query_id);
    return ();
  }

  throw(error::unknown_op);
}

_ get_order_data() method_id {
  load_order();
  return (multisig, order_seqno, threshold, sent_for_execution?, signers, approvals_mask, approvals_num, expiration_date, order);
}
`;
