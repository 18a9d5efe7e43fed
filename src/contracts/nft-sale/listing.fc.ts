/**
 * A marketplace's listing contract in FunC: the seller transfers an NFT to it with the price in the forward payload,
 * and it deploys a v4r1-layout sale (sale-v4r1.fc.ts) for that NFT and passes the NFT on to it. That is the trace
 * toncenter's classifier reads as `nft_put_on_sale` (`blocks/auction.py`, NftPutOnSaleBlockMatcher): the NFT's
 * transfer to the listing (its ownership_assigned), then from the listing's transaction a message deploying the sale
 * and the NFT's transfer to the sale. Written here from that shape, not from any marketplace's code.
 *
 *   data: marketplace:MsgAddress fee_address:MsgAddress fee_share:uint17 sale_code:^Cell
 *   ownership_assigned#05138d91 query_id prev_owner forward_payload:(Either Cell ^Cell) from the NFT, the payload
 *     `full_price:Coins royalty_address:MsgAddress royalty_share:uint17` (shares in 1/100000 of the price): the sale
 *     StateInit(sale_code, [not complete, marketplace, prev_owner as the seller, full_price, sold_at 0, query_id 0,
 *     ^[fee_address, royalty_address, fee_share, royalty_share, the NFT, now], NFT not received]) deployed with
 *     0.05 TON and an empty body, then the NFT's transfer to the sale (forward amount 0.02 TON: the sale learns the
 *     NFT arrived; excesses to the seller) with the rest of the message's value. The listing keeps its own balance.
 *     A payload that does not parse, a zero price or shares above 100 %: the NFT goes back to the seller instead.
 *     Less than 0.15 TON forwarded: 709 (the NFT stays here; a marketplace's site asks for enough).
 *   an empty body or a comment: kept (a top-up). Other ops: 0xffff.
 *   get_listing_data() -> (slice marketplace, slice fee_address, int fee_share, cell sale_code)
 */
import { NFT_COMMON_FUNC } from '../nft/common.fc.js';

export const NFT_LISTING_FUNC =
  NFT_COMMON_FUNC +
  `
const int share_base = 100000;
const int sale_deploy_value = 50000000;
const int sale_forward_amount = 20000000;
;; what a listing needs forwarded: the sale's deployment, the NFT's next transfer, this transaction's gas
const int listing_min_value = 150000000;

(slice, slice, int, cell) load_listing() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_msg_addr(), ds~load_msg_addr(), ds~load_uint(17), ds~load_ref());
}

;; transfer#5fcc3d14 to the NFT with the rest of the value: new_owner, excesses to response, forward_amount
() send_nft(slice nft, slice new_owner, slice response, int query_id, int forward_amount) impure inline {
  send_body(nft, 0, begin_cell()
    .store_uint(op::nft_transfer, 32).store_uint(query_id, 64).store_slice(new_owner).store_slice(response)
    .store_uint(0, 1).store_coins(forward_amount).store_uint(0, 1)
    .end_cell(), -1, 128);
}

;; the seller's terms: (ok?, full_price, royalty_address, royalty_share); ok? is 0 when the payload does not parse
(int, int, slice, int) read_terms(slice payload) {
  int ok? = 0;
  int full_price = 0;
  slice royalty_address = null();
  int royalty_share = 0;
  try {
    if (payload~load_uint(1)) {
      payload = payload~load_ref().begin_parse();
    }
    full_price = payload~load_coins();
    royalty_address = payload~load_msg_addr();
    royalty_share = payload~load_uint(17);
    ok? = -1;
  } catch (_, _) {
    ok? = 0;
  }
  return (ok?, full_price, royalty_address, royalty_share);
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  if (in_msg_body.slice_bits() < 32) { return (); }
  int op = in_msg_body~load_uint(32);
  if (op == 0) { return (); }  ;; a comment
  throw_unless(error::unknown_op, op == op::ownership_assigned);
  throw_unless(error::not_enough_value, msg_value >= listing_min_value);
  int query_id = in_msg_body~load_uint(64);
  slice seller = in_msg_body~load_msg_addr();
  ;; the listing keeps what it had; the seller's value pays for the rest
  raw_reserve(my_balance - msg_value, 0);
  (slice marketplace, slice fee_address, int fee_share, cell sale_code) = load_listing();
  (int ok?, int full_price, slice royalty_address, int royalty_share) = read_terms(in_msg_body);
  if ((~ ok?) | (full_price == 0) | (fee_share + royalty_share > share_base)) {
    send_nft(sender, seller, seller, query_id, 0);
    return ();
  }
  cell terms = begin_cell()
    .store_slice(fee_address).store_slice(royalty_address).store_uint(fee_share, 17).store_uint(royalty_share, 17)
    .store_slice(sender).store_uint(now(), 32)
    .end_cell();
  cell sale_data = begin_cell()
    .store_uint(0, 1).store_slice(marketplace).store_slice(seller).store_coins(full_price)
    .store_uint(0, 32).store_uint(0, 64).store_ref(terms).store_uint(0, 1)
    .end_cell();
  cell state_init = state_init_of(sale_code, sale_data);
  slice sale = basechain_address_of(state_init);
  ;; the deployment first: it reaches the sale before the NFT's ownership_assigned, which comes through the NFT
  send_raw_message(begin_cell()
    .store_uint(0x18, 6).store_slice(sale).store_coins(sale_deploy_value)
    .store_uint(0, 1 + 4 + 4 + 64 + 32).store_uint(3, 2).store_uint(0, 1).store_ref(state_init)
    .end_cell(), mode::pay_fees_apart);
  send_nft(sender, sale, seller, query_id, sale_forward_amount);
}

(slice, slice, int, cell) get_listing_data() method_id {
  return load_listing();
}
`;
