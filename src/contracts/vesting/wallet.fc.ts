/**
 * A vesting wallet in FunC, written here from the published description of TON's standard vesting contract (its
 * README: parameters, lock rule, whitelist, restrictions, opcodes and get-methods), not from its code:
 *
 *   data:  seqno:uint32 subwallet_id:uint32 public_key:uint256 whitelist:(HashmapE 264 True) ^[vesting_start_time:uint64
 *          vesting_total_duration:uint32 unlock_period:uint32 cliff_duration:uint32 vesting_total_amount:Coins
 *          vesting_sender_address:MsgAddress owner_address:MsgAddress]   (whitelist keys: workchain:int8 hash:uint256)
 *   locked(t) = total before start + cliff, 0 after start + duration, else
 *          total - total * floor((t - start) / unlock_period) / (duration / unlock_period)
 *   send#a7733acd query_id:uint64 send_mode:uint8 msg:^MessageRelaxed   from owner_address; answered with
 *          send_response#f7733acd query_id (the rest of the value). The same one message from a wallet v3-style external
 *          (signature subwallet_id valid_until seqno send_mode ^msg).
 *   add_whitelist#7258a69b query_id:uint64 address:MsgAddress (^[address ^[...]])   from vesting_sender_address;
 *          answered with add_whitelist_response#f258a69b query_id. No way to remove an address.
 *   While something is locked a message goes out only with send_mode 3, and the locked amount stays reserved, unless
 *          it goes to a whitelisted address or to vesting_sender_address: then it must be bounceable, carry no
 *          StateInit, and its body be empty, a comment starting with d/w/D/W, or one of the staking/voting opcodes
 *          (the README's list). The README's extra rules for the elector and config addresses are not kept: a local
 *          chain has no elections.
 *   get-methods: seqno, get_subwallet_id, get_public_key, get_vesting_data() -> (int start_time, int total_duration,
 *          int unlock_period, int cliff_duration, int total_amount, slice sender, slice owner, cell whitelist),
 *          is_whitelisted(slice address) -> int, get_whitelist() -> list of [wc, hash], get_locked_amount(int at_time)
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const VESTING_WALLET_FUNC =
  SHARED_FUNC +
  `
const int op::add_whitelist = 0x7258a69b;
const int op::add_whitelist_response = 0xf258a69b;
const int op::send = 0xa7733acd;
const int op::send_response = 0xf7733acd;

const int error::invalid_seqno = 33;
const int error::invalid_subwallet_id = 34;
const int error::invalid_signature = 35;
const int error::expired = 36;
const int error::send_mode_not_allowed = 100;
const int error::non_bounceable_not_allowed = 101;
const int error::state_init_not_allowed = 102;
const int error::comment_not_allowed = 103;
const int error::symbols_not_allowed = 104;

const int whitelist_key_bits = 264;

global int stored_seqno;
global int subwallet_id;
global int public_key;
global cell whitelist;
global int start_time;
global int total_duration;
global int unlock_period;
global int cliff_duration;
global int total_amount;
global slice vesting_sender;
global slice owner;

() load_vesting() impure inline {
  slice ds = get_data().begin_parse();
  stored_seqno = ds~load_uint(32);
  subwallet_id = ds~load_uint(32);
  public_key = ds~load_uint(256);
  whitelist = ds~load_dict();
  slice ps = ds~load_ref().begin_parse();
  ds.end_parse();
  start_time = ps~load_uint(64);
  total_duration = ps~load_uint(32);
  unlock_period = ps~load_uint(32);
  cliff_duration = ps~load_uint(32);
  total_amount = ps~load_coins();
  vesting_sender = ps~load_msg_addr();
  owner = ps~load_msg_addr();
  ps.end_parse();
}

() save_vesting() impure inline {
  set_data(begin_cell()
    .store_uint(stored_seqno, 32).store_uint(subwallet_id, 32).store_uint(public_key, 256).store_dict(whitelist)
    .store_ref(begin_cell()
      .store_uint(start_time, 64).store_uint(total_duration, 32).store_uint(unlock_period, 32)
      .store_uint(cliff_duration, 32).store_coins(total_amount).store_slice(vesting_sender).store_slice(owner)
      .end_cell())
    .end_cell());
}

slice whitelist_key(slice address) inline {
  (int wc, int hash) = parse_std_addr(address);
  return begin_cell().store_int(wc, 8).store_uint(hash, 256).end_cell().begin_parse();
}

int whitelisted?(slice address) inline {
  (_, int found?) = whitelist.dict_get?(whitelist_key_bits, whitelist_key(address));
  return found?;
}

int locked_at(int time) inline {
  if (time > start_time + total_duration) {
    return 0;
  }
  if (time < start_time + cliff_duration) {
    return total_amount;
  }
  return total_amount - muldiv(total_amount, (time - start_time) / unlock_period, total_duration / unlock_period);
}

;; what may be sent to a whitelisted address (or the vesting sender) while coins are locked: the body's rules
() check_allowed_body(slice body) impure inline {
  if (body.slice_bits() >= 32) {
    int op = body~load_uint(32);
    if (op == 0) {
      if (body.slice_bits() >= 8) {
        int first = body.preload_uint(8);
        throw_unless(error::symbols_not_allowed, (first == 100) | (first == 119) | (first == 68) | (first == 87)); ;; d w D W
      }
    } else {
      throw_unless(error::comment_not_allowed,
        (op == 0x1000) | (op == 0x1001) | (op == 0x47d54391) | (op == 0x595f07bc) | (op == 0x69fb306c) |
        (op == 0x566f7465) | (op == 0x56744370) | (op == 0x4e73744b) | (op == 0x47657424));
    }
  }
}

() send_out(int send_mode, cell msg) impure inline {
  int locked = locked_at(now());
  if (locked > 0) {
    throw_unless(error::send_mode_not_allowed, send_mode == mode::pay_fees_apart + mode::ignore_errors);
    slice cs = msg.begin_parse();
    int flags = cs~load_uint(4); ;; int_msg_info$0 ihr_disabled bounce bounced
    cs~load_msg_addr(); ;; src
    slice destination = cs~load_msg_addr();
    if (whitelisted?(destination) | equal_slices(destination, vesting_sender)) {
      throw_unless(error::non_bounceable_not_allowed, flags & 2);
      cs~load_coins(); ;; value
      cs~load_dict(); ;; extra currencies
      cs~load_coins(); ;; ihr_fee
      cs~load_coins(); ;; fwd_fee
      cs~skip_bits(64 + 32); ;; created_lt, created_at
      throw_if(error::state_init_not_allowed, cs~load_int(1));
      slice body = cs~load_int(1) ? cs~load_ref().begin_parse() : cs;
      check_allowed_body(body);
      locked = 0;
    }
    if (locked > 0) {
      raw_reserve(locked, 2); ;; at most the locked amount: a balance below it is kept whole
    }
  }
  send_raw_message(msg, send_mode);
}

() answer(slice to, int op, int query_id) impure inline {
  send_raw_message(begin_cell()
    .store_uint(0x10, 6).store_slice(to).store_coins(0)
    .store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_uint(op, 32).store_uint(query_id, 64)
    .end_cell(), mode::carry_inbound_value + mode::ignore_errors);
}

() recv_internal(int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_bits() < 32 + 64) {
    return (); ;; plain TON, a comment
  }
  (slice sender, int bounced?) = sender_and_bounced(in_msg_full);
  if (bounced?) {
    return ();
  }
  load_vesting();
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  if (equal_slices(sender, owner) & (op == op::send)) {
    int send_mode = in_msg_body~load_uint(8);
    cell msg = in_msg_body~load_ref();
    in_msg_body.end_parse();
    send_out(send_mode, msg);
    answer(sender, op::send_response, query_id);
    return ();
  }
  if (equal_slices(sender, vesting_sender) & (op == op::add_whitelist)) {
    slice list = in_msg_body;
    int more? = true;
    while (more?) {
      whitelist~dict_set_builder(whitelist_key_bits, whitelist_key(list~load_msg_addr()), begin_cell().store_int(true, 1));
      more? = list.slice_refs() > 0;
      if (more?) {
        list = list.preload_ref().begin_parse();
      }
    }
    save_vesting();
    answer(sender, op::add_whitelist_response, query_id);
  }
  ;; anything else: TON kept
}

() recv_external(slice in_msg) impure {
  slice signature = in_msg~load_bits(512);
  slice cs = in_msg;
  int msg_subwallet_id = cs~load_uint(32);
  int valid_until = cs~load_uint(32);
  int msg_seqno = cs~load_uint(32);
  throw_if(error::expired, valid_until <= now());
  load_vesting();
  throw_unless(error::invalid_seqno, msg_seqno == stored_seqno);
  throw_unless(error::invalid_subwallet_id, msg_subwallet_id == subwallet_id);
  throw_unless(error::invalid_signature, check_signature(slice_hash(in_msg), signature, public_key));
  accept_message();
  if (cs.slice_refs() == 1) {
    try {
      int send_mode = cs~load_uint(8);
      send_out(send_mode, cs~load_ref());
    } catch (_, _) {
    }
  }
  stored_seqno += 1;
  save_vesting();
}

int seqno() method_id {
  return get_data().begin_parse().preload_uint(32);
}

int get_subwallet_id() method_id {
  return get_data().begin_parse().skip_bits(32).preload_uint(32);
}

int get_public_key() method_id {
  return get_data().begin_parse().skip_bits(64).preload_uint(256);
}

(int, int, int, int, int, slice, slice, cell) get_vesting_data() method_id {
  load_vesting();
  return (start_time, total_duration, unlock_period, cliff_duration, total_amount, vesting_sender, owner, whitelist);
}

int is_whitelisted(slice address) method_id {
  load_vesting();
  return whitelisted?(address);
}

tuple get_whitelist() method_id {
  load_vesting();
  tuple list = null();
  cell rest = whitelist;
  int found? = true;
  while (found?) {
    (rest, slice key, _, found?) = rest.dict_delete_get_min(whitelist_key_bits);
    if (found?) {
      list = cons(pair(key~load_int(8), key~load_uint(256)), list);
    }
  }
  return list;
}

int get_locked_amount(int at_time) method_id {
  load_vesting();
  return locked_at(at_time);
}
`;
