/**
 * The names toncenter gives standard message opcodes in `decoded_opcode` (v3 Message). toncenter's
 * indexer names an opcode by the first constructor of its message-body schemes with that tag, whether
 * or not the body then parses; these are the names it gives the standard ones (TEP-74 jettons, TEP-62/66
 * NFTs and royalties, TEP-81 DNS, TEP-85 SBT, wallet v5 and v4 plugins, highload v3, elector, comments,
 * bounces), read from its schemes
 * (toncenter/ton-indexer, ton-marker). Its list also names hundreds of application opcodes (DEXes, staking
 * pools, lending); those are not here and read null, as an unknown opcode does.
 */
const NAMES: ReadonlyMap<number, string> = new Map([
  [0x00000000, 'text_comment'],
  [0x2167da4b, 'encrypted_text_comment'],
  [0xffffffff, 'bounce'],
  [0xd53276db, 'excess'],
  [0xd372158c, 'top_up'],
  [0x1690c604, 'credit'],
  [0x7b4b42e6, 'approve'],
  [0xe8a0abfe, 'disapprove'],
  // elector
  [0x4e73744b, 'elector_new_stake'],
  [0xf374484c, 'elector_new_stake_confirmation'],
  [0x47657424, 'elector_recover_stake_request'],
  [0xf96f7324, 'elector_recover_stake_response'],
  // TEP-74 jettons (wallet, minter)
  [0x0f8a7ea5, 'jetton_transfer'],
  [0x178d4519, 'jetton_internal_transfer'],
  [0x7362d09c, 'jetton_notify'],
  [0x595f07bc, 'jetton_burn'],
  [0x7bdd97de, 'jetton_burn_notification'],
  [0x642b7d07, 'jetton_mint'],
  [0x00000015, 'minter_jetton_mint'],
  [0x6501f354, 'jetton_change_admin'],
  [0xeed236d3, 'jetton_set_status'],
  // TEP-62 NFTs, TEP-66 royalties, TEP-85 SBTs
  [0x5fcc3d14, 'nft_transfer'],
  [0x05138d91, 'nft_ownership_assigned'],
  [0x2fcb26a2, 'get_static_data'],
  [0x8b771735, 'report_static_data'],
  [0x693d3950, 'get_royalty_params'],
  [0xa8cb00ad, 'report_royalty_params'],
  [0x04ded148, 'prove_ownership'],
  [0x0524c7ae, 'ownership_proof'],
  [0xd0c3bfea, 'sbt_request_owner'],
  [0x0dd607e3, 'sbt_owner_info'],
  [0x1f04537a, 'sbt_destroy'],
  [0x6f89f5e3, 'sbt_revoke'],
  // multisig v2 (toncenter's scheme spells the new-order message "mulisig")
  [0xf718510f, 'mulisig_new_order'],
  [0x75097f5d, 'multisig_execute'],
  [0xa32c59bf, 'multisig_execute_internal'],
  [0x9c73fba2, 'multisig_order_init'],
  [0xa762230f, 'multisig_approve'],
  [0x82609bf6, 'multisig_approve_accepted'],
  [0xafaf283e, 'multisig_approve_rejected'],
  // TEP-81 DNS
  [0x4eb1f0f9, 'change_dns_record'],
  [0x4ed14b65, 'dns_balance_release'],
  [0x44beae41, 'process_governance_decision'],
  [0x370fec51, 'auction_fill_up'],
  [0x557cea20, 'outbid_notification'],
  // wallet v5
  [0x7369676e, 'w5_external_signed_request'],
  [0x73696e74, 'w5_internal_signed_request'],
  [0x6578746e, 'w5_extension_action_request'],
  // wallet v4 plugins, highload v3
  [0x6e6f7465, 'wallet_plugin_installation_notification'],
  [0x64737472, 'wallet_plugin_destruct'],
  [0xe4737472, 'wallet_plugin_destruct_response'],
  [0x706c7567, 'payment_request'],
  [0xf06c7567, 'payment_confirmed'],
  [0xae42e5a4, 'highload_v3_internal_request'],
]);

/** toncenter's name of a standard opcode, null for any other. */
export function opcodeName(opcode: number): string | null {
  return NAMES.get(opcode >>> 0) ?? null;
}
