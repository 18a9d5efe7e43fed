/**
 * FunC the multisig wallet and its orders share: multisig v2's opcodes (its published TL-B, `multisig.tlb`), its
 * exit codes, and the order's address (StateInit of the order code and `multisig_address seqno:uint256`).
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const MULTISIG_COMMON_FUNC =
  SHARED_FUNC +
  `
const int op::new_order = 0xf718510f;
const int op::execute = 0x75097f5d;
const int op::execute_internal = 0xa32c59bf;
const int op::init = 0x9c73fba2;
const int op::approve = 0xa762230f;
const int op::approve_accepted = 0x82609bf6;
const int op::approve_rejected = 0xafaf283e;

const int action::send_message = 0xf1381e5b;
const int action::update_multisig_params = 0x1d0cfbd3;

const int error::not_enough_ton = 100;
const int error::unauthorized_execute = 101;
const int error::signers_outdated = 102;
const int error::invalid_dictionary_sequence = 103;
const int error::unauthorized_init = 104;
const int error::already_inited = 105;
const int error::unauthorized_sign = 106;
const int error::already_approved = 107;
const int error::inconsistent_data = 108;
const int error::invalid_threshold = 109;
const int error::invalid_signers = 110;
const int error::expired = 111;
const int error::already_executed = 112;
const int error::unauthorized_new_order = 1007;
const int error::invalid_new_order = 1008;

;; signers, proposers and order actions are dictionaries keyed by uint8
const int index_bits = 8;

cell order_data(slice multisig, int order_seqno) inline {
  return begin_cell().store_slice(multisig).store_uint(order_seqno, 256).end_cell();
}
`;
