/**
 * The action types the classifier builds, as names only: what the version filter and the readers need on every
 * thread, without the classifier's ~60 matcher modules (the main thread reads actions and filters them by version;
 * only the index's and the pending layer's threads classify).
 */
import { ACTION_TYPE_SHORTCUTS, COCOON_TYPES } from './versions.js';

export const TGBTC_DKG_LOG = 'tgbtc_dkg_log';

/** The types whose parts are never actions of their own (toncenter's serializer's `v1_ops`). */
export const WHOLE_TYPES = new Set([
  // The v1 types, and protocol types of ton-indexer's that carry their parts inside.
  ...ACTION_TYPE_SHORTCUTS.v1,
  ...['nominator_pool_deposit', 'nominator_pool_withdraw_request', 'dedust_deposit_liquidity', 'dedust_deposit_liquidity_partial'],
  ...['tonstakers_deposit', 'tonstakers_withdraw_request', 'tonstakers_withdraw', 'ethena_withdrawal_request', 'ethena_deposit'],
  ...['tonco_deposit_liquidity', 'tonco_withdraw_liquidity', 'coffee_deposit_liquidity'],
  ...['dedust_v2_deposit_liquidity', 'dedust_v2_deposit_liquidity_partial'],
]);

/** Every type the matchers here build. */
const BUILT_TYPES = [
  'jetton_transfer',
  'jetton_burn',
  'jetton_mint',
  'jetton_swap',
  'dex_deposit_liquidity',
  'dex_withdraw_liquidity',
  'nft_mint',
  'nft_transfer',
  'nft_purchase',
  'nft_put_on_sale',
  'nft_cancel_sale',
  'nft_put_on_auction',
  'auction_bid',
  'auction_outbid',
  'nft_cancel_auction',
  'nft_finish_auction',
  'nft_update_sale',
  'nft_discovery',
  'teleitem_start_auction',
  'teleitem_cancel_auction',
  'dns_purchase',
  'dns_release',
  'change_dns',
  'delete_dns',
  'renew_dns',
  'election_deposit',
  'election_recover',
  'subscribe',
  'unsubscribe',
  'stake_deposit',
  'stake_withdrawal',
  'stake_withdrawal_request',
  'multisig_create_order',
  'multisig_approve',
  'multisig_execute',
  'vesting_send_message',
  'vesting_add_whitelist',
  'tonco_deploy_pool',
  'coffee_create_vault',
  'coffee_create_pool_creator',
  'coffee_create_pool',
  'coffee_mev_protect_hold_funds',
  'coffee_mev_protect_failed_swap',
  'coffee_staking_deposit',
  'coffee_staking_withdraw',
  'coffee_staking_claim_rewards',
  'layerzero_send',
  'layerzero_send_tokens',
  'layerzero_receive',
  'layerzero_commit_packet',
  'layerzero_dvn_verify',
  'dedust_v2_claim_fees',
  'dedust_v2_claim_reward',
  'evaa_supply',
  'evaa_withdraw',
  'evaa_liquidate',
  'jvault_stake',
  'jvault_unstake',
  'jvault_claim',
  'jvault_unstake_request',
  ...COCOON_TYPES,
  // tgBTC's block types: a fallback keeps its block's type as its parts' ancestor, as toncenter does.
  'tgbtc_mint',
  'tgbtc_burn',
  'tgbtc_new_key',
  TGBTC_DKG_LOG,
];

/** The built types whose parts are actions too (their `ancestors` name them): what the version filter looks for. */
export const PARENT_TYPES: readonly string[] = BUILT_TYPES.filter((t) => !WHOLE_TYPES.has(t));
