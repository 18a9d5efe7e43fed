/**
 * The jetton master (TEP-74, discoverable per TEP-89), in FunC.
 *
 *   data: total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell
 *   get_jetton_data() -> (int total_supply, int mintable = -1, slice admin, cell content, cell wallet_code)
 *   get_wallet_address(slice owner) -> slice
 *
 * Admin operations (the layouts tonweb's JettonMinter builds): mint#15 query_id:uint64 to:MsgAddress
 * ton_amount:Coins ^internal_transfer; change_admin#3 query_id:uint64 new_admin:MsgAddress;
 * change_content#4 query_id:uint64 ^content. burn_notification from a wallet of this master lowers the supply
 * and sends excesses; a mint that bounces lowers it back.
 */
import { JETTON_COMMON_FUNC } from './common.fc.js';

export const JETTON_MASTER_FUNC =
  JETTON_COMMON_FUNC +
  `
const int provide_address_gas = 10000000;

(int, slice, cell, cell) load_master() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_coins(), ds~load_msg_addr(), ds~load_ref(), ds~load_ref());
}

() save_master(int total_supply, slice admin, cell content, cell wallet_code) impure inline {
  set_data(begin_cell().store_coins(total_supply).store_slice(admin).store_ref(content).store_ref(wallet_code).end_cell());
}

;; a basechain addr_std (the only owners this master makes wallets for)
int basechain_std?(slice address) inline {
  if ((slice_bits(address) != 267) | (address.preload_uint(3) != 4)) { return 0; }
  (int workchain, _) = parse_std_addr(address);
  return workchain == 0;
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_empty?()) { return (); }
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  (int total_supply, slice admin, cell content, cell wallet_code) = load_master();
  if (bounced) {
    ;; a mint its wallet refused: those tokens never existed
    in_msg_body~skip_bits(32);
    if (in_msg_body~load_uint(32) == op::internal_transfer) {
      in_msg_body~skip_bits(64);
      save_master(total_supply - in_msg_body~load_coins(), admin, content, wallet_code);
    }
    return ();
  }
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);

  if (op == op::mint) {
    throw_unless(error::not_admin, equal_slices(sender, admin));
    slice to_owner = in_msg_body~load_msg_addr();
    int ton_amount = in_msg_body~load_coins();
    cell transfer = in_msg_body~load_ref();
    slice ts = transfer.begin_parse();
    throw_unless(error::unknown_op, ts~load_uint(32) == op::internal_transfer);
    ts~skip_bits(64);
    int amount = ts~load_coins();
    throw_unless(error::wrong_workchain, basechain_std?(to_owner));
    cell init = wallet_state_init(to_owner, my_address(), wallet_code);
    send_deploy(init, ton_amount, transfer, mode::pay_fees_apart);
    save_master(total_supply + amount, admin, content, wallet_code);
    return ();
  }

  ;; burn_notification#7bdd97de query_id:uint64 amount:Coins sender:MsgAddress response_destination:MsgAddress
  if (op == op::burn_notification) {
    int amount = in_msg_body~load_coins();
    slice from = in_msg_body~load_msg_addr();
    throw_unless(error::not_from_wallet, equal_slices(sender, wallet_address(from, my_address(), wallet_code)));
    save_master(total_supply - amount, admin, content, wallet_code);
    slice response = in_msg_body~load_msg_addr();
    if (~ is_addr_none?(response)) {
      send_excesses(response, 0, query_id, mode::carry_inbound_value + mode::ignore_errors);
    }
    return ();
  }

  ;; provide_wallet_address#2c76b973 query_id:uint64 owner_address:MsgAddress include_address:Bool
  ;; -> take_wallet_address#d1735400 query_id:uint64 wallet_address:MsgAddress owner_address:(Maybe ^MsgAddress)
  if (op == op::provide_wallet_address) {
    throw_unless(error::not_enough_value, msg_value > inbound_fwd_fee(in_msg_full) + provide_address_gas);
    slice owner = in_msg_body~load_msg_addr();
    int include_address? = in_msg_body~load_int(1);
    builder reply = begin_cell().store_uint(op::take_wallet_address, 32).store_uint(query_id, 64);
    if (basechain_std?(owner)) {
      reply = reply.store_slice(wallet_address(owner, my_address(), wallet_code));
    } else {
      reply = reply.store_uint(0, 2);  ;; addr_none: no wallet for that owner
    }
    if (include_address?) {
      reply = reply.store_uint(1, 1).store_ref(begin_cell().store_slice(owner).end_cell());
    } else {
      reply = reply.store_uint(0, 1);
    }
    send_body(sender, 0, reply.end_cell(), -1, mode::carry_inbound_value);
    return ();
  }

  if (op == op::change_admin) {
    throw_unless(error::not_admin, equal_slices(sender, admin));
    save_master(total_supply, in_msg_body~load_msg_addr(), content, wallet_code);
    return ();
  }

  if (op == op::change_content) {
    throw_unless(error::not_admin, equal_slices(sender, admin));
    save_master(total_supply, admin, in_msg_body~load_ref(), wallet_code);
    return ();
  }

  throw(error::unknown_op);
}

(int, int, slice, cell, cell) get_jetton_data() method_id {
  (int total_supply, slice admin, cell content, cell wallet_code) = load_master();
  return (total_supply, -1, admin, content, wallet_code);
}

slice get_wallet_address(slice owner) method_id {
  (_, _, _, cell wallet_code) = load_master();
  return wallet_address(owner, my_address(), wallet_code);
}
`;
