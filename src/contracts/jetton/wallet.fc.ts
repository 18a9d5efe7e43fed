/**
 * The jetton wallet (TEP-74), in FunC. One per owner and master, at the address of
 * StateInit(wallet_code, wallet_data(0, owner, master, wallet_code)).
 *
 *   data: balance:Coins owner:MsgAddress master:MsgAddress wallet_code:^Cell
 *   get_wallet_data() -> (int balance, slice owner, slice master, cell wallet_code)
 *
 * transfer (from the owner) sends internal_transfer to the receiver's wallet (deploying it), carrying what is left
 * of the message's value; the receiver adds the amount, notifies its owner when forward_ton_amount > 0 and returns
 * what is left to response_destination as excesses. burn (from the owner) sends burn_notification to the master.
 * A bounced internal_transfer or burn_notification gives the amount back.
 */
import { JETTON_COMMON_FUNC } from './common.fc.js';

export const JETTON_WALLET_FUNC =
  JETTON_COMMON_FUNC +
  `
(int, slice, slice, cell) load_wallet() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_coins(), ds~load_msg_addr(), ds~load_msg_addr(), ds~load_ref());
}

() save_wallet(int balance, slice owner, slice master, cell wallet_code) impure inline {
  set_data(wallet_data(balance, owner, master, wallet_code));
}

;; transfer#0f8a7ea5 query_id:uint64 amount:Coins destination:MsgAddress response_destination:MsgAddress
;;   custom_payload:(Maybe ^Cell) forward_ton_amount:Coins forward_payload:(Either Cell ^Cell)
() send_tokens(slice body, slice sender, int msg_value, int fwd_fee) impure {
  (int balance, slice owner, slice master, cell wallet_code) = load_wallet();
  int query_id = body~load_uint(64);
  int amount = body~load_coins();
  slice to_owner = body~load_msg_addr();
  slice response = body~load_msg_addr();
  body~load_maybe_ref();  ;; custom_payload: this wallet has no use for one
  int forward_ton_amount = body~load_coins();
  throw_unless(error::not_owner, equal_slices(sender, owner));
  balance -= amount;
  throw_unless(error::balance_too_low, balance >= 0);
  (int to_workchain, _) = parse_std_addr(to_owner);
  throw_unless(error::wrong_workchain, to_workchain == 0);
  throw_unless(error::bad_payload, slice_bits(body) >= 1);  ;; forward_payload's Either bit is required
  ;; enough for this hop, the receiver's gas and storage, the notification and the excesses
  int hops = forward_ton_amount ? 2 : 1;
  throw_unless(error::not_enough_value, msg_value > forward_ton_amount + hops * fwd_fee + 2 * wallet_gas + min_storage_reserve);

  cell init = wallet_state_init(to_owner, master, wallet_code);
  cell transfer = begin_cell()
    .store_uint(op::internal_transfer, 32).store_uint(query_id, 64).store_coins(amount)
    .store_slice(owner).store_slice(response).store_coins(forward_ton_amount)
    .store_slice(body)
    .end_cell();
  ;; bounceable, with what is left of the inbound value
  send_deploy(init, 0, transfer, mode::carry_inbound_value);
  save_wallet(balance, owner, master, wallet_code);
}

;; internal_transfer#178d4519 query_id:uint64 amount:Coins from:MsgAddress response_address:MsgAddress
;;   forward_ton_amount:Coins forward_payload:(Either Cell ^Cell)
() receive_tokens(slice body, slice sender, int my_balance, int msg_value, int fwd_fee) impure {
  (int balance, slice owner, slice master, cell wallet_code) = load_wallet();
  int query_id = body~load_uint(64);
  int amount = body~load_coins();
  slice from = body~load_msg_addr();
  slice response = body~load_msg_addr();
  int forward_ton_amount = body~load_coins();
  throw_unless(error::not_from_master_or_wallet, equal_slices(sender, master) | equal_slices(sender, wallet_address(from, master, wallet_code)));
  balance += amount;

  ;; keep the storage reserve (topping up a new wallet) and this transaction's gas; the rest goes on
  int balance_before = my_balance - msg_value;
  int storage_top_up = min_storage_reserve - min(balance_before, min_storage_reserve);
  int left = msg_value - (storage_top_up + wallet_gas);
  if (forward_ton_amount) {
    left -= forward_ton_amount + fwd_fee;
    cell notification = begin_cell()
      .store_uint(op::transfer_notification, 32).store_uint(query_id, 64).store_coins(amount)
      .store_slice(from).store_slice(body)
      .end_cell();
    send_body(owner, forward_ton_amount, notification, 0, mode::pay_fees_apart);
  }
  if ((~ is_addr_none?(response)) & (left > 0)) {
    send_excesses(response, left, query_id, mode::ignore_errors);
  }
  save_wallet(balance, owner, master, wallet_code);
}

;; burn#595f07bc query_id:uint64 amount:Coins response_destination:MsgAddress custom_payload:(Maybe ^Cell)
() burn_tokens(slice body, slice sender, int msg_value, int fwd_fee) impure {
  (int balance, slice owner, slice master, cell wallet_code) = load_wallet();
  int query_id = body~load_uint(64);
  int amount = body~load_coins();
  slice response = body~load_msg_addr();
  throw_unless(error::not_owner, equal_slices(sender, owner));
  balance -= amount;
  throw_unless(error::balance_too_low, balance >= 0);
  throw_unless(error::not_enough_value, msg_value > fwd_fee + 2 * wallet_gas);
  ;; burn_notification#7bdd97de query_id:uint64 amount:Coins sender:MsgAddress response_destination:MsgAddress
  cell notification = begin_cell()
    .store_uint(op::burn_notification, 32).store_uint(query_id, 64).store_coins(amount)
    .store_slice(owner).store_slice(response)
    .end_cell();
  send_body(master, 0, notification, -1, mode::carry_inbound_value);
  save_wallet(balance, owner, master, wallet_code);
}

;; a bounced body is 0xffffffff and the first 256 bits of what was sent: op, query_id and amount fit
() restore_bounced(slice body) impure {
  body~skip_bits(32);
  int op = body~load_uint(32);
  throw_unless(error::unknown_op, (op == op::internal_transfer) | (op == op::burn_notification));
  body~skip_bits(64);
  int amount = body~load_coins();
  (int balance, slice owner, slice master, cell wallet_code) = load_wallet();
  save_wallet(balance + amount, owner, master, wallet_code);
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_empty?()) { return (); }  ;; a plain top-up
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) {
    restore_bounced(in_msg_body);
    return ();
  }
  int op = in_msg_body~load_uint(32);
  if (op == op::transfer) {
    send_tokens(in_msg_body, sender, msg_value, inbound_fwd_fee(in_msg_full));
    return ();
  }
  if (op == op::internal_transfer) {
    receive_tokens(in_msg_body, sender, my_balance, msg_value, inbound_fwd_fee(in_msg_full));
    return ();
  }
  if (op == op::burn) {
    burn_tokens(in_msg_body, sender, msg_value, inbound_fwd_fee(in_msg_full));
    return ();
  }
  throw(error::unknown_op);
}

(int, slice, slice, cell) get_wallet_data() method_id {
  return load_wallet();
}
`;
