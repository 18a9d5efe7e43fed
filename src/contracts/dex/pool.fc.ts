/**
 * A constant-product pool in FunC with the message layouts STON.fi v1 publishes (swap in, pay_to out, its exit codes
 * and get_pool_data), written here from those layouts, not from STON.fi's code. No fees.
 *
 *   swap#25938561 query_id to_address sender_token_wallet jetton_amount min_out has_ref ^[from_user ref_address?]
 *     from the router: out = amount * reserve_out / (reserve_in + amount). Paid when 0 < out, out >= min_out and
 *     out < reserve_out: the reserves move and pay_to#f93bb43f query_id to_address exit_code=swap_ok#c64370e5
 *     ^[amount0_out token0_address amount1_out token1_address] goes back to the router with the out amount. Else the
 *     input is refunded the same way: exit_code swap_refund_no_liq#5ffe1295 (out 0 or under min_out) or
 *     swap_refund_reserve_err#38976e9b (out would drain the reserve). With what is left of the value (mode 64).
 *
 *   data: router:MsgAddress token0:MsgAddress token1:MsgAddress reserve0:Coins reserve1:Coins   (token0/1: the
 *         router's jetton wallets of the two tokens)
 *   get_pool_data() -> (int reserve0, int reserve1, slice token0_address, slice token1_address, int lp_fee = 0,
 *         int protocol_fee = 0, int ref_fee = 0, slice protocol_fee_address = addr_none, int collected_token0 = 0,
 *         int collected_token1 = 0)
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const DEX_POOL_FUNC =
  SHARED_FUNC +
  `
const int op::swap = 0x25938561;
const int op::pay_to = 0xf93bb43f;
const int exit::swap_ok = 0xc64370e5;
const int exit::swap_refund_no_liq = 0x5ffe1295;
const int exit::swap_refund_reserve_err = 0x38976e9b;

const int error::not_router = 730;
const int error::unknown_token = 731;

(slice, slice, slice, int, int) load_pool() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_msg_addr(), ds~load_msg_addr(), ds~load_msg_addr(), ds~load_coins(), ds~load_coins());
}

() save_pool(slice router, slice token0, slice token1, int reserve0, int reserve1) impure inline {
  set_data(begin_cell().store_slice(router).store_slice(token0).store_slice(token1).store_coins(reserve0).store_coins(reserve1).end_cell());
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced | (in_msg_body.slice_bits() < 32 + 64)) { return (); }
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  throw_unless(error::unknown_op, op == op::swap);
  (slice router, slice token0, slice token1, int reserve0, int reserve1) = load_pool();
  throw_unless(error::not_router, equal_slices(sender, router));
  slice to_address = in_msg_body~load_msg_addr();
  slice token_wallet = in_msg_body~load_msg_addr();
  int amount = in_msg_body~load_coins();
  int min_out = in_msg_body~load_coins();
  int in0? = equal_slices(token_wallet, token0);
  throw_unless(error::unknown_token, in0? | equal_slices(token_wallet, token1));
  int reserve_in = in0? ? reserve0 : reserve1;
  int reserve_out = in0? ? reserve1 : reserve0;
  int out = muldiv(amount, reserve_out, reserve_in + amount);
  int exit_code = exit::swap_ok;
  if ((out == 0) | (out < min_out)) {
    exit_code = exit::swap_refund_no_liq;
  }
  if (out >= reserve_out) {
    exit_code = exit::swap_refund_reserve_err;
  }
  int amount0 = 0;
  int amount1 = 0;
  if (exit_code == exit::swap_ok) {
    reserve_in += amount;
    reserve_out -= out;
    save_pool(router, token0, token1, in0? ? reserve_in : reserve_out, in0? ? reserve_out : reserve_in);
    amount0 = in0? ? 0 : out;
    amount1 = in0? ? out : 0;
  } else {
    amount0 = in0? ? amount : 0;
    amount1 = in0? ? 0 : amount;
  }
  send_body(router, 0, begin_cell()
    .store_uint(op::pay_to, 32).store_uint(query_id, 64).store_slice(to_address).store_uint(exit_code, 32)
    .store_ref(begin_cell().store_coins(amount0).store_slice(token0).store_coins(amount1).store_slice(token1).end_cell())
    .end_cell(), -1, mode::carry_inbound_value);
}

(int, int, slice, slice, int, int, int, slice, int, int) get_pool_data() method_id {
  (slice router, slice token0, slice token1, int reserve0, int reserve1) = load_pool();
  slice none = begin_cell().store_uint(0, 2).end_cell().begin_parse();
  return (reserve0, reserve1, token0, token1, 0, 0, 0, none, 0, 0);
}
`;
