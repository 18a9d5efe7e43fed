/**
 * The local chain's elector (the address of config param 1), in FunC. A local chain has no validator
 * elections; this contract exists so tools that look at the elector find an active account answering its
 * get-methods (no election running: `active_election_id` 0, nobody taking part), and so a validator's stake and
 * its recovery take the message path they take on TON (the elector's published opcodes and answers):
 *
 *   new_stake#4e73744b query_id:uint64 validator_pubkey:uint256 stake_at:uint32 max_factor:uint32
 *     adnl_addr:uint256 signature:^bits512, from a masterchain account with at least 1 TON:
 *     confirmation#f374484c query_id comment:uint32 back with 1 TON; the rest is credited to the sender at once
 *     (there is no election to freeze it in), as the elector credits a stake an election did not take.
 *     From elsewhere, or too small, or a body that does not parse: return_stake#ee6f454c query_id reason:uint32
 *     with the whole value. The signature is not checked (no validator set to check it for).
 *   recover_stake#47657424 query_id:uint64 from a masterchain account with a credit: recover_stake_ok#f96f7324
 *     query_id with the credit (and what is left of the inbound value; never more than the elector holds beside
 *     the request, the rest staying a credit); otherwise error#fffffffe query_id op.
 *
 * Its data has the real elector's layout: `elect:(Maybe ^Election) credits:(HashmapE 256 Grams)
 * past_elections:(HashmapE 32 PastElection) grams:Grams active_id:uint32 active_hash:uint256`; only `credits` is
 * ever written. `compute_returned_stake(address)` answers a credit.
 */
export const ELECTOR_FUNC = `
const int op::new_stake = 0x4e73744b;
const int op::new_stake_confirmation = 0xf374484c;
const int op::return_stake = 0xee6f454c;
const int op::recover_stake = 0x47657424;
const int op::recover_stake_ok = 0xf96f7324;
const int op::recover_stake_error = 0xfffffffe;
const int one_ton = 1000000000;

;; a non-bounceable message back with op and query_id (and one more uint32 when tag >= 0)
() answer(slice to, int value, int op, int query_id, int tag, int mode) impure inline {
  builder msg = begin_cell()
    .store_uint(0x10, 6).store_slice(to).store_coins(value)
    .store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_uint(op, 32).store_uint(query_id, 64);
  if (tag >= 0) {
    msg = msg.store_uint(tag, 32);
  }
  send_raw_message(msg.end_cell(), mode);
}

(cell, cell, slice) load_elector() inline {
  slice ds = get_data().begin_parse();
  cell elect = ds~load_dict();
  cell credits = ds~load_dict();
  return (elect, credits, ds);
}

() save_elector(cell elect, cell credits, slice rest) impure inline {
  set_data(begin_cell().store_dict(elect).store_dict(credits).store_slice(rest).end_cell());
}

int credit_of(cell credits, int address) inline {
  (slice value, int found) = credits.udict_get?(256, address);
  return found ? value~load_coins() : 0;
}

;; whether a new_stake body has every field (the signature in its own cell)
int stake_body_ok?(slice body) inline {
  if ((body.slice_bits() < 256 + 32 + 32 + 256) | (body.slice_refs() < 1)) {
    return 0;
  }
  return body.preload_ref().begin_parse().slice_bits() >= 512;
}

() recv_internal(int balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  slice cs = in_msg_full.begin_parse();
  int flags = cs~load_uint(4);
  if ((flags & 1) | (in_msg_body.slice_bits() < 32 + 64)) {
    return ();
  }
  slice sender = cs~load_msg_addr();
  (int wc, int address) = parse_std_addr(sender);
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  if (op == op::new_stake) {
    if ((wc != -1) | (msg_value < one_ton) | (~ stake_body_ok?(in_msg_body))) {
      return answer(sender, 0, op::return_stake, query_id, 0, 64);
    }
    (cell elect, cell credits, slice rest) = load_elector();
    int credit = credit_of(credits, address) + msg_value - one_ton;
    credits~udict_set(256, address, begin_cell().store_coins(credit).end_cell().begin_parse());
    save_elector(elect, credits, rest);
    return answer(sender, one_ton, op::new_stake_confirmation, query_id, 0, 2);
  }
  if (op == op::recover_stake) {
    (cell elect, cell credits, slice rest) = load_elector();
    int credit = credit_of(credits, address);
    if ((wc != -1) | (credit == 0)) {
      return answer(sender, 0, op::recover_stake_error, query_id, op, 64);
    }
    ;; never more than the elector holds beside this message (its zero-state balance is 0): the rest stays a credit
    int paid = min(credit, balance - msg_value);
    if (paid < credit) {
      credits~udict_set(256, address, begin_cell().store_coins(credit - paid).end_cell().begin_parse());
    } else {
      (credits, _) = credits.udict_delete?(256, address);
    }
    save_elector(elect, credits, rest);
    return answer(sender, paid, op::recover_stake_ok, query_id, -1, 64);
  }
  ;; Anything else is kept without an answer: there are no elections to enter.
}

int active_election_id() method_id {
  return 0;
}

int participates_in(int validator_pubkey) method_id {
  return 0;
}

tuple participant_list() method_id {
  return null();
}

(int, int, int, int, tuple, int, int) participant_list_extended() method_id {
  ;; elect_at, elect_close, min_stake, total_stake, participants, failed, finished
  return (0, 0, 0, 0, null(), 0, 0);
}

int compute_returned_stake(int wallet_addr) method_id {
  (_, cell credits, _) = load_elector();
  return credit_of(credits, wallet_addr);
}

tuple past_election_ids() method_id {
  return null();
}

tuple past_elections() method_id {
  return null();
}
`;
