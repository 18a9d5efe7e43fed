/**
 * A fixed-price NFT sale in FunC whose data has the layout of getgems' v4r1 sales, as toncenter's indexer reads a
 * listed sale's StateInit (`messages/getgems.py`, `get_sale_data`: any code it does not know by hash is read this way).
 * Written here from that published layout, not from getgems' code. A listing contract deploys it (listing.fc.ts):
 * the seller, price and fee shares are in its StateInit from the start, and the NFT arrives right after.
 *
 *   data: is_complete:uint1 marketplace:MsgAddress nft_owner:MsgAddress full_price:Coins sold_at:uint32
 *         query_id:uint64 ^[marketplace_fee_address:MsgAddress royalty_address:MsgAddress fee_share:uint17
 *         royalty_share:uint17 nft:MsgAddress created_at:uint32] nft_received:uint1
 *   toncenter reads up to the two shares; the NFT, the creation time and whether the NFT arrived follow them, where
 *   its reader does not look. Shares are in 1/100000 of the price (100 % = 100000 fits 17 bits).
 *   deploy (an empty body or a comment before the NFT arrived): kept.
 *   ownership_assigned from its NFT: the NFT arrived, the sale is active (407 from anyone else, 408 when it had).
 *   buy (an empty body, a comment or op 2, while active): at least full_price + 0.1 TON; the fee and royalty shares go
 *     to their addresses, the rest of the price to the seller, the NFT to the buyer with what is left; complete, with
 *     the time and query id of the buy (sold_at, query_id).
 *   cancel (op 3, from the seller or the marketplace, while active): the NFT back to the seller; complete.
 *   get_fix_price_data_v4() -> (is_complete, created_at, marketplace, nft, nft_owner, full_price, fee address, fee
 *     share, royalty address, royalty share, sold_at, query_id, jetton prices = null): like getgems' v4 sales, no
 *     get_sale_data, so the index detects it as toncenter detects those (src/index/tokens/sales.ts).
 */
import { NFT_COMMON_FUNC } from '../nft/common.fc.js';

export const NFT_SALE_V4R1_FUNC =
  NFT_COMMON_FUNC +
  `
const int op::buy = 2;
const int op::cancel_sale = 3;
const int share_base = 100000;

const int error::sale_complete = 404;
const int error::not_active = 406;
const int error::not_from_nft = 407;
const int error::already_active = 408;

;; what a buyer adds to the price for the messages the sale sends
const int sale_gas = 100000000;

global int complete?;
global slice marketplace;
global slice owner;
global int price;
global int sold_at;
global int sold_query_id;
global cell terms;
global int received?;

() load_sale() impure inline {
  slice ds = get_data().begin_parse();
  complete? = ds~load_uint(1);
  marketplace = ds~load_msg_addr();
  owner = ds~load_msg_addr();
  price = ds~load_coins();
  sold_at = ds~load_uint(32);
  sold_query_id = ds~load_uint(64);
  terms = ds~load_ref();
  received? = ds~load_uint(1);
}

() save_sale() impure inline {
  set_data(begin_cell()
    .store_uint(complete?, 1).store_slice(marketplace).store_slice(owner).store_coins(price)
    .store_uint(sold_at, 32).store_uint(sold_query_id, 64).store_ref(terms).store_uint(received?, 1)
    .end_cell());
}

;; the terms cell: (fee address, royalty address, fee share, royalty share, nft, created_at)
(slice, slice, int, int, slice, int) load_terms() inline {
  slice ts = terms.begin_parse();
  return (ts~load_msg_addr(), ts~load_msg_addr(), ts~load_uint(17), ts~load_uint(17), ts~load_msg_addr(), ts~load_uint(32));
}

;; transfer#5fcc3d14 to the NFT: new_owner, excesses to response, no custom payload, no forward amount
() send_nft(slice nft, slice new_owner, int query_id) impure inline {
  send_body(nft, 0, begin_cell()
    .store_uint(op::nft_transfer, 32).store_uint(query_id, 64).store_slice(new_owner).store_slice(new_owner)
    .store_uint(0, 1).store_coins(0).store_uint(0, 1)
    .end_cell(), -1, 128);
}

() pay(slice to, int amount) impure inline {
  if (amount > 0) {
    send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(to).store_coins(amount).store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).end_cell(), mode::pay_fees_apart);
  }
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  load_sale();
  (slice fee_address, slice royalty_address, int fee_share, int royalty_share, slice nft, _) = load_terms();
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
    throw_if(error::already_active, received?);
    received? = 1;
    save_sale();
    return ();
  }
  if ((op <= 0) & (received? == 0)) { return (); }  ;; the deploy (or a top-up) before the NFT arrived
  throw_if(error::sale_complete, complete?);
  throw_unless(error::not_active, received?);
  if ((op == op::buy) | (op <= 0)) {  ;; buy: op 2, an empty body or a comment
    throw_unless(error::not_enough_value, msg_value >= price + sale_gas);
    int fee = price * fee_share / share_base;
    int royalty = price * royalty_share / share_base;
    pay(fee_address, fee);
    pay(royalty_address, royalty);
    pay(owner, price - fee - royalty);
    ;; the buyer gets the NFT and, as the excesses, what the sale does not keep
    send_nft(nft, sender, query_id);
    complete? = 1;
    sold_at = now();
    sold_query_id = query_id;
    save_sale();
    return ();
  }
  if (op == op::cancel_sale) {
    throw_unless(error::not_owner, equal_slices(sender, owner) | equal_slices(sender, marketplace));
    send_nft(nft, owner, query_id);
    complete? = 1;
    save_sale();
    return ();
  }
  throw(error::unknown_op);
}

(int, int, slice, slice, slice, int, slice, int, slice, int, int, int, cell) get_fix_price_data_v4() method_id {
  load_sale();
  (slice fee_address, slice royalty_address, int fee_share, int royalty_share, slice nft, int created_at) = load_terms();
  return (complete?, created_at, marketplace, nft, owner, price,
    fee_address, fee_share, royalty_address, royalty_share, sold_at, sold_query_id, null());
}
`;
