/**
 * FunC shared by the jetton master and wallet (TEP-74): opcodes, the wallet's data layout and how a wallet's
 * address follows from its owner and master (after src/contracts/shared.fc.ts). Both sources start with this text, so the master computes the
 * very address a wallet checks its senders against.
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const JETTON_COMMON_FUNC =
  SHARED_FUNC +
  `
;; TEP-74 message bodies
const int op::transfer = 0x0f8a7ea5;
const int op::transfer_notification = 0x7362d09c;
const int op::internal_transfer = 0x178d4519;
const int op::burn = 0x595f07bc;
const int op::burn_notification = 0x7bdd97de;
;; TEP-89 (discoverable masters)
const int op::provide_wallet_address = 0x2c76b973;
const int op::take_wallet_address = 0xd1735400;
;; the master's admin operations (the numbers tonweb's JettonMinter sends)
const int op::mint = 21;
const int op::change_admin = 3;
const int op::change_content = 4;

;; exit codes
const int error::balance_too_low = 706;
const int error::not_from_master_or_wallet = 707;
const int error::not_admin = 73;
const int error::not_from_wallet = 74;
const int error::wrong_workchain = 333;

;; what a wallet keeps for its storage and spends on its own gas, in nanotons
const int min_storage_reserve = 10000000;
const int wallet_gas = 15000000;

;; wallet data: balance:Coins owner:MsgAddress master:MsgAddress wallet_code:^Cell
cell wallet_data(int balance, slice owner, slice master, cell wallet_code) inline {
  return begin_cell().store_coins(balance).store_slice(owner).store_slice(master).store_ref(wallet_code).end_cell();
}

cell wallet_state_init(slice owner, slice master, cell wallet_code) inline {
  return state_init_of(wallet_code, wallet_data(0, owner, master, wallet_code));
}

slice wallet_address(slice owner, slice master, cell wallet_code) inline {
  return basechain_address_of(wallet_state_init(owner, master, wallet_code));
}

`;
