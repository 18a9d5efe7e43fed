/**
 * An NFT auction in FunC that answers getgems' auction get-method layout (what toncenter's indexer reads as
 * `GetGemsNftAuction` through `get_sale_data` with magic "AUC"), written here from that layout and the messages
 * toncenter's classifier reads (bids as plain TON transfers, the outbid refund's comment, the cancel/finish/stop ops
 * and comments), not from getgems' code. Minimal but real:
 *
 *   data: end:uint1 is_canceled:uint1 last_member:MsgAddress last_bid:Coins last_bid_at:uint32 end_time:uint32
 *         nft_owner:MsgAddress
 *         ^[marketplace:MsgAddress nft:MsgAddress created_at:uint32 min_bid:Coins max_bid:Coins min_step:Coins]
 *         ^[mp_fee_address:MsgAddress mp_fee_factor:uint32 mp_fee_base:uint32
 *           royalty_fee_address:MsgAddress royalty_fee_factor:uint32 royalty_fee_base:uint32]
 *   nft_owner is addr_none until the NFT arrives: `ownership_assigned` from the NFT makes its prev_owner the seller.
 *   bid (a plain TON transfer: an empty body or a comment other than the commands, while active and not over): the
 *     value is the bid; the first at least min_bid, later ones at least last_bid + min_step (411 otherwise); the bid
 *     it outbids goes back to its bidder with the comment "Your bid has been outbid by another user."; a bid at or
 *     above max_bid (when max_bid > 0) ends the auction at once, as a finish.
 *   finish (op 0x20c9eb18, stop 0xb95616b6, or the comments "finish", "stop"; from the seller or the marketplace,
 *     705 otherwise; with a bid, 412 otherwise): the marketplace fee (last_bid * mp_fee_factor / mp_fee_base) and the
 *     royalty (likewise) to their addresses, the rest of the bid to the seller, the NFT to the last bidder with what
 *     the auction does not keep; over.
 *   cancel (op 0x5616c572 or the comment "cancel"; from the seller or the marketplace; without a bid, 413
 *     otherwise): the NFT back to the seller with the rest of the balance; over and cancelled.
 *   Once over: 410 for everything. end_time is kept and answered, not enforced (a local chain's clock is the test's).
 *   get_sale_data() -> (int 0x415543 "AUC", int end, int end_time, slice marketplace, slice nft, slice nft_owner,
 *     int last_bid, slice last_member, int min_step, slice mp_fee_address, int mp_fee_factor, int mp_fee_base,
 *     slice royalty_fee_address, int royalty_fee_factor, int royalty_fee_base, int max_bid, int min_bid,
 *     int created_at, int last_bid_at, int is_canceled)
 */
import { NFT_COMMON_FUNC } from '../nft/common.fc.js';

export const NFT_AUCTION_FUNC =
  NFT_COMMON_FUNC +
  `
const int op::cancel_auction = 0x5616c572;
const int op::finish_auction = 0x20c9eb18;
const int op::stop_auction = 0xb95616b6;
const int auction_magic = 0x415543; ;; "AUC"

const int error::not_active = 406;
const int error::not_from_nft = 407;
const int error::already_active = 408;
const int error::auction_over = 410;
const int error::bid_too_low = 411;
const int error::no_bid = 412;
const int error::has_bid = 413;

global int end?;
global int canceled?;
global slice last_member;
global int last_bid;
global int last_bid_at;
global int end_time;
global slice nft_owner;
global cell terms;
global cell fees;

() load_auction() impure inline {
  slice ds = get_data().begin_parse();
  end? = ds~load_uint(1);
  canceled? = ds~load_uint(1);
  last_member = ds~load_msg_addr();
  last_bid = ds~load_coins();
  last_bid_at = ds~load_uint(32);
  end_time = ds~load_uint(32);
  nft_owner = ds~load_msg_addr();
  terms = ds~load_ref();
  fees = ds~load_ref();
}

() save_auction() impure inline {
  set_data(begin_cell()
    .store_uint(end?, 1).store_uint(canceled?, 1).store_slice(last_member).store_coins(last_bid)
    .store_uint(last_bid_at, 32).store_uint(end_time, 32).store_slice(nft_owner)
    .store_ref(terms).store_ref(fees).end_cell());
}

;; transfer#5fcc3d14 to the NFT: new_owner, excesses to it too, no custom payload, no forward amount
() send_nft(slice nft, slice new_owner, int mode) impure inline {
  send_body(nft, 0, begin_cell()
    .store_uint(op::nft_transfer, 32).store_uint(0, 64).store_slice(new_owner).store_slice(new_owner)
    .store_uint(0, 1).store_coins(0).store_uint(0, 1)
    .end_cell(), -1, mode);
}

;; a plain TON transfer (with a comment when one is given), its forwarding fee paid apart
() pay(slice to, int amount, slice comment) impure inline {
  if (amount > 0) {
    builder msg = begin_cell().store_uint(0x10, 6).store_slice(to).store_coins(amount).store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1);
    if (comment.slice_bits() > 0) {
      msg = msg.store_uint(0, 32).store_slice(comment);
    }
    send_raw_message(msg.end_cell(), mode::pay_fees_apart);
  }
}

;; the bid goes to the seller less the marketplace fee and the royalty; the NFT to the last bidder
() finish(slice nft) impure {
  slice fs = fees.begin_parse();
  slice mp_fee_address = fs~load_msg_addr();
  int mp_fee = muldiv(last_bid, fs~load_uint(32), fs~load_uint(32));
  slice royalty_address = fs~load_msg_addr();
  int royalty = muldiv(last_bid, fs~load_uint(32), fs~load_uint(32));
  pay(mp_fee_address, mp_fee, "");
  pay(royalty_address, royalty, "");
  pay(nft_owner, last_bid - mp_fee - royalty, "");
  send_nft(nft, last_member, 128);
  end? = 1;
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  (slice sender, int bounced) = sender_and_bounced(in_msg_full);
  if (bounced) { return (); }
  load_auction();
  slice ts = terms.begin_parse();
  slice marketplace = ts~load_msg_addr();
  slice nft = ts~load_msg_addr();
  ts~skip_bits(32); ;; created_at
  int min_bid = ts~load_coins();
  int max_bid = ts~load_coins();
  int min_step = ts~load_coins();
  int active? = ~ is_addr_none?(nft_owner);
  int op = -1;  ;; an empty body
  if (in_msg_body.slice_bits() >= 32) {
    op = in_msg_body~load_uint(32);
  }
  if (op == op::ownership_assigned) {
    throw_unless(error::not_from_nft, equal_slices(sender, nft));
    throw_if(error::auction_over, end?);
    throw_if(error::already_active, active?);
    in_msg_body~skip_bits(64);
    nft_owner = in_msg_body~load_msg_addr();
    save_auction();
    return ();
  }
  if ((op <= 0) & (~ active?)) { return (); }  ;; a top-up (the deploy), or a comment, before the NFT arrived
  throw_if(error::auction_over, end?);
  throw_unless(error::not_active, active?);
  int command = op;
  if (op == 0) {
    if (equal_slices(in_msg_body, "cancel")) { command = op::cancel_auction; }
    if (equal_slices(in_msg_body, "finish")) { command = op::finish_auction; }
    if (equal_slices(in_msg_body, "stop")) { command = op::stop_auction; }
  }
  int has_bid? = ~ is_addr_none?(last_member);
  if (command == op::cancel_auction) {
    throw_unless(error::not_owner, equal_slices(sender, nft_owner) | equal_slices(sender, marketplace));
    throw_if(error::has_bid, has_bid?);
    send_nft(nft, nft_owner, 128);
    end? = 1;
    canceled? = 1;
    save_auction();
    return ();
  }
  if ((command == op::finish_auction) | (command == op::stop_auction)) {
    throw_unless(error::not_owner, equal_slices(sender, nft_owner) | equal_slices(sender, marketplace));
    throw_unless(error::no_bid, has_bid?);
    finish(nft);
    save_auction();
    return ();
  }
  throw_unless(error::unknown_op, op <= 0);
  ;; a bid
  throw_unless(error::bid_too_low, msg_value >= (has_bid? ? last_bid + min_step : min_bid));
  if (has_bid?) {
    pay(last_member, last_bid, "Your bid has been outbid by another user.");
  }
  last_member = sender;
  last_bid = msg_value;
  last_bid_at = now();
  if ((max_bid > 0) & (msg_value >= max_bid)) {
    finish(nft);
  }
  save_auction();
}

(int, int, int, slice, slice, slice, int, slice, int, slice, int, int, slice, int, int, int, int, int, int, int) get_sale_data() method_id {
  load_auction();
  slice ts = terms.begin_parse();
  slice marketplace = ts~load_msg_addr();
  slice nft = ts~load_msg_addr();
  int created_at = ts~load_uint(32);
  int min_bid = ts~load_coins();
  int max_bid = ts~load_coins();
  int min_step = ts~load_coins();
  slice fs = fees.begin_parse();
  return (auction_magic, end?, end_time, marketplace, nft, nft_owner, last_bid, last_member, min_step,
    fs~load_msg_addr(), fs~load_uint(32), fs~load_uint(32), fs~load_msg_addr(), fs~load_uint(32), fs~load_uint(32),
    max_bid, min_bid, created_at, last_bid_at, canceled?);
}
`;
