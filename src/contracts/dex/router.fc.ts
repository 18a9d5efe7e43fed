/**
 * A swap router in FunC with the message layouts STON.fi v1 publishes (its router and pool API: opcodes, TL-B of
 * swap, pay_to and the jetton forward payload), written here from those layouts, not from STON.fi's code. It owns
 * one jetton wallet per token of its one pool and routes a swap:
 *
 *   transfer_notification#7362d09c query_id amount sender forward_payload:(Either Cell ^Cell) from one of its
 *     jetton wallets, the payload swap#25938561 token_wallet1:MsgAddress min_out:Coins to_address:MsgAddress
 *     has_ref:Bool ref_address:has_ref?MsgAddress ->
 *     swap#25938561 query_id to_address sender_token_wallet:MsgAddress jetton_amount:Coins min_out:Coins has_ref:Bool
 *     ^[from_user:MsgAddress ref_address:has_ref?MsgAddress] to the pool, with what is left of the value (mode 64).
 *     Any other payload: the jettons go back to the sender (transfer from the wallet that notified).
 *   pay_to#f93bb43f query_id owner:MsgAddress exit_code:uint32 ^[amount0_out:Coins token0_address:MsgAddress
 *     amount1_out:Coins token1_address:MsgAddress] from the pool -> transfer#0f8a7ea5 of the amount out from its
 *     jetton wallet of that token (token0/1_address) to owner, excesses to owner, with what is left (mode 64).
 *   set_pool#00000001 query_id pool:MsgAddress from the admin, once: the pool it routes to (the pool names the router
 *     in its data, so the router learns the pool's address after both are made). tongate's own op.
 *
 *   data: admin:MsgAddress pool:MsgAddress (addr_none until set_pool)
 *   get_router_data() -> (int is_locked = 0, slice admin, slice pool)
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const DEX_ROUTER_FUNC =
  SHARED_FUNC +
  `
const int op::transfer_notification = 0x7362d09c;
const int op::jetton_transfer = 0x0f8a7ea5;
const int op::swap = 0x25938561;
const int op::pay_to = 0xf93bb43f;
const int op::set_pool = 1;

const int error::not_admin = 720;
const int error::pool_set = 721;
const int error::not_from_pool = 722;
const int error::no_pool = 723;

(slice, slice) load_router() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_msg_addr(), ds~load_msg_addr());
}

;; transfer#0f8a7ea5 to one of the router's jetton wallets: amount to owner, excesses to owner, nothing forwarded
() send_jettons(slice wallet, slice owner, int amount, int query_id) impure inline {
  send_body(wallet, 0, begin_cell()
    .store_uint(op::jetton_transfer, 32).store_uint(query_id, 64).store_coins(amount)
    .store_slice(owner).store_slice(owner).store_uint(0, 1).store_coins(0).store_uint(0, 1)
    .end_cell(), -1, mode::carry_inbound_value);
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced | (in_msg_body.slice_bits() < 32 + 64)) { return (); }
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  (slice admin, slice pool) = load_router();

  if (op == op::transfer_notification) {
    int amount = in_msg_body~load_coins();
    slice from = in_msg_body~load_msg_addr();
    slice payload = in_msg_body~load_uint(1) ? in_msg_body~load_ref().begin_parse() : in_msg_body;
    if (is_addr_none?(pool) | (payload.slice_bits() < 32)) {
      return send_jettons(sender, from, amount, query_id);
    }
    if (payload~load_uint(32) != op::swap) {
      return send_jettons(sender, from, amount, query_id);
    }
    payload~load_msg_addr(); ;; token_wallet1: the pool knows its tokens
    int min_out = payload~load_coins();
    slice to_address = payload~load_msg_addr();
    int has_ref = payload~load_uint(1);
    builder ref = begin_cell().store_slice(from);
    if (has_ref) {
      ref = ref.store_slice(payload~load_msg_addr());
    }
    send_body(pool, 0, begin_cell()
      .store_uint(op::swap, 32).store_uint(query_id, 64).store_slice(to_address).store_slice(sender)
      .store_coins(amount).store_coins(min_out).store_uint(has_ref, 1).store_ref(ref.end_cell())
      .end_cell(), -1, mode::carry_inbound_value);
    return ();
  }

  if (op == op::pay_to) {
    throw_unless(error::not_from_pool, equal_slices(sender, pool));
    slice owner = in_msg_body~load_msg_addr();
    in_msg_body~skip_bits(32); ;; exit_code: the pool decided, the router pays what it says
    slice amounts = in_msg_body~load_ref().begin_parse();
    int amount0 = amounts~load_coins();
    slice token0 = amounts~load_msg_addr();
    int amount1 = amounts~load_coins();
    slice token1 = amounts~load_msg_addr();
    if (amount0 > 0) {
      return send_jettons(token0, owner, amount0, query_id);
    }
    if (amount1 > 0) {
      return send_jettons(token1, owner, amount1, query_id);
    }
    return ();
  }

  if (op == op::set_pool) {
    throw_unless(error::not_admin, equal_slices(sender, admin));
    throw_unless(error::pool_set, is_addr_none?(pool));
    set_data(begin_cell().store_slice(admin).store_slice(in_msg_body~load_msg_addr()).end_cell());
    return ();
  }
  throw(error::unknown_op);
}

(int, slice, slice) get_router_data() method_id {
  (slice admin, slice pool) = load_router();
  return (0, admin, pool);
}
`;
