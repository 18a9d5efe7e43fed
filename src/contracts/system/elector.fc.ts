/**
 * The local chain's elector (the address of config param 1), in FunC. A local chain has no validator
 * elections; this contract exists so tools that look at the elector find an active account answering its
 * get-methods: no election running (`active_election_id` 0), nobody taking part, nothing to return. Its data has
 * the real elector's layout, empty: `elect:(Maybe ^Election) credits:(HashmapE 256 Grams)
 * past_elections:(HashmapE 32 PastElection) grams:Grams active_id:uint32 active_hash:uint256`.
 */
export const ELECTOR_FUNC = `
() recv_internal(int balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  ;; Stakes and other requests are kept without an answer: there are no elections to enter.
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
  return 0;
}

tuple past_election_ids() method_id {
  return null();
}

tuple past_elections() method_id {
  return null();
}
`;
