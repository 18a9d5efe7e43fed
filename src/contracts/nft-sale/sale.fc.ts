/**
 * A fixed-price NFT sale in FunC, with the get-method layout of getgems' fix-price sales (what toncenter's indexer
 * reads as `GetGemsNftFixPriceSale`), written here from that layout, not from getgems' code. Minimal but real:
 *
 *   data: is_complete:uint1 created_at:uint32 marketplace:MsgAddress nft:MsgAddress nft_owner:MsgAddress
 *         full_price:Coins ^[marketplace_fee_address:MsgAddress marketplace_fee:Coins royalty_address:MsgAddress
 *         royalty_amount:Coins]
 *   nft_owner is addr_none until the NFT arrives: `ownership_assigned` from the NFT (the seller transferred it here
 *   with a forward amount) makes its prev_owner the seller, and the sale active.
 *   buy (op 2, an empty body or a comment, while active): at least full_price + 0.1 TON; the marketplace fee and the royalty
 *     go to their addresses, the seller gets full_price minus both, the NFT goes to the buyer with what is left;
 *     the sale is complete.
 *   cancel (op 3, from the seller or the marketplace, while active): the NFT goes back to the seller; complete.
 *   sale_update (op 0x6c6c2080 query_id full_price:Coins marketplace_fee:Coins royalty_amount:Coins, from the seller
 *     while active, as getgems' later sales take it and toncenter reads it as `nft_update_sale`): the new price, fee
 *     and royalty (their addresses kept); the fee and royalty may not exceed the price.
 *   get_sale_data() -> (int 0x46495850 "FIXP", int is_complete, int created_at, slice marketplace, slice nft,
 *                       slice nft_owner, int full_price, slice marketplace_fee_address, int marketplace_fee,
 *                       slice royalty_address, int royalty_amount)
 */
import { NFT_COMMON_FUNC } from '../nft/common.fc.js';

export const NFT_SALE_FUNC =
  NFT_COMMON_FUNC +
  `
const int op::buy = 2;
const int op::cancel_sale = 3;
const int op::sale_update = 0x6c6c2080;
const int sale_magic = 0x46495850; ;; "FIXP"

const int error::sale_complete = 404;
const int error::not_active = 406;
const int error::not_from_nft = 407;
const int error::already_active = 408;
const int error::bad_terms = 409;

;; what a buyer adds to the price for the messages the sale sends
const int sale_gas = 100000000;

(int, int, slice, slice, slice, int, cell) load_sale() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_uint(1), ds~load_uint(32), ds~load_msg_addr(), ds~load_msg_addr(), ds~load_msg_addr(), ds~load_coins(), ds~load_ref());
}

() save_sale(int complete?, int created_at, slice marketplace, slice nft, slice owner, int price, cell fees) impure inline {
  set_data(begin_cell()
    .store_uint(complete?, 1).store_uint(created_at, 32).store_slice(marketplace).store_slice(nft).store_slice(owner)
    .store_coins(price).store_ref(fees).end_cell());
}

;; transfer#5fcc3d14 to the NFT: new_owner, excesses to response, no custom payload, no forward amount
() send_nft(slice nft, slice new_owner, slice response, int query_id, int value, int mode) impure inline {
  send_body(nft, value, begin_cell()
    .store_uint(op::nft_transfer, 32).store_uint(query_id, 64).store_slice(new_owner).store_slice(response)
    .store_uint(0, 1).store_coins(0).store_uint(0, 1)
    .end_cell(), -1, mode);
}

() pay(slice to, int amount) impure inline {
  if (amount > 0) {
    send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(to).store_coins(amount).store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).end_cell(), mode::pay_fees_apart);
  }
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  (int complete?, int created_at, slice marketplace, slice nft, slice owner, int price, cell fees) = load_sale();
  int active? = ~ is_addr_none?(owner);
  int op = -1;  ;; an empty body
  int query_id = 0;
  if (in_msg_body.slice_bits() >= 32) {
    op = in_msg_body~load_uint(32);
  }
  if (in_msg_body.slice_bits() >= 64) {
    query_id = in_msg_body~load_uint(64);
  }
  if (op == op::ownership_assigned) {
    throw_unless(error::not_from_nft, equal_slices(sender, nft));
    throw_if(error::sale_complete, complete?);
    throw_if(error::already_active, active?);
    save_sale(0, created_at, marketplace, nft, in_msg_body~load_msg_addr(), price, fees);
    return ();
  }
  if ((op <= 0) & (~ active?)) { return (); }  ;; a top-up (the deploy), or a comment, before the NFT arrived
  throw_if(error::sale_complete, complete?);
  throw_unless(error::not_active, active?);
  if ((op == op::buy) | (op <= 0)) {  ;; buy: op 2, an empty body or a comment
    throw_unless(error::not_enough_value, msg_value >= price + sale_gas);
    slice fs = fees.begin_parse();
    slice marketplace_fee_address = fs~load_msg_addr();
    int marketplace_fee = fs~load_coins();
    slice royalty_address = fs~load_msg_addr();
    int royalty_amount = fs~load_coins();
    pay(marketplace_fee_address, marketplace_fee);
    pay(royalty_address, royalty_amount);
    pay(owner, price - marketplace_fee - royalty_amount);
    ;; the buyer gets the NFT and, as the excesses, what the sale does not keep
    send_nft(nft, sender, sender, query_id, 0, 128);
    save_sale(1, created_at, marketplace, nft, owner, price, fees);
    return ();
  }
  if (op == op::cancel_sale) {
    throw_unless(error::not_owner, equal_slices(sender, owner) | equal_slices(sender, marketplace));
    send_nft(nft, owner, owner, query_id, 0, 128);
    save_sale(1, created_at, marketplace, nft, owner, price, fees);
    return ();
  }
  if (op == op::sale_update) {
    throw_unless(error::not_owner, equal_slices(sender, owner));
    int new_price = in_msg_body~load_coins();
    int new_marketplace_fee = in_msg_body~load_coins();
    int new_royalty_amount = in_msg_body~load_coins();
    throw_unless(error::bad_terms, new_marketplace_fee + new_royalty_amount <= new_price);
    slice fs = fees.begin_parse();
    slice marketplace_fee_address = fs~load_msg_addr();
    fs~load_coins();
    slice royalty_address = fs~load_msg_addr();
    cell new_fees = begin_cell()
      .store_slice(marketplace_fee_address).store_coins(new_marketplace_fee)
      .store_slice(royalty_address).store_coins(new_royalty_amount)
      .end_cell();
    save_sale(0, created_at, marketplace, nft, owner, new_price, new_fees);
    return ();
  }
  throw(error::unknown_op);
}

(int, int, int, slice, slice, slice, int, slice, int, slice, int) get_sale_data() method_id {
  (int complete?, int created_at, slice marketplace, slice nft, slice owner, int price, cell fees) = load_sale();
  slice fs = fees.begin_parse();
  return (sale_magic, complete?, created_at, marketplace, nft, owner, price, fs~load_msg_addr(), fs~load_coins(), fs~load_msg_addr(), fs~load_coins());
}
`;
