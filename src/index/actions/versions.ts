/**
 * Which action types a client understands (ton-index-go's `index/models/action_versioning.go`): it names types or
 * shortcuts in `supported_action_types` (or one in the `X-Actions-Version` header); `v1` is always included; the
 * default is `latest`. An action is shown when its type is understood and none of the actions it is part of is
 * (a client that knows the parent sees the parent, one that does not sees its parts). `unknown` is a v2 type, so a
 * v1 client never sees it.
 *
 * The shortcuts are those of ton-indexer's newest branch (v1.3): `latest` is `v5`.
 */

const V1 = [
  'call_contract',
  'contract_deploy',
  'ton_transfer',
  'stake_deposit',
  'stake_withdrawal',
  'stake_withdrawal_request',
  'dex_deposit_liquidity',
  'jetton_transfer',
  'nft_transfer',
  'nft_mint',
  'jetton_burn',
  'jetton_mint',
  'jetton_swap',
  'change_dns',
  'delete_dns',
  'renew_dns',
  'subscribe',
  'dex_withdraw_liquidity',
  'unsubscribe',
  'election_deposit',
  'election_recover',
  'auction_bid',
  'tick_tock',
];

/** cocoon's types: the `cocoon` group, part of `v4`, and among the types the classifier builds (action-types.ts). */
export const COCOON_TYPES = [
  'cocoon_worker_payout',
  'cocoon_proxy_payout',
  'cocoon_proxy_charge',
  'cocoon_client_top_up',
  'cocoon_register_proxy',
  'cocoon_unregister_proxy',
  'cocoon_client_register',
  'cocoon_client_change_secret_hash',
  'cocoon_client_request_refund',
  'cocoon_grant_refund',
  'cocoon_client_increase_stake',
  'cocoon_client_withdraw',
];

const NFT_V3 = [
  'nft_put_on_sale',
  'nft_put_on_auction',
  'auction_outbid',
  'nft_cancel_sale',
  'nft_purchase',
  'nft_cancel_auction',
  'nft_finish_auction',
  'teleitem_start_auction',
  'teleitem_cancel_auction',
  'nft_update_sale',
  'dns_purchase',
  'dns_release',
];

const LAYERZERO = ['layerzero_send', 'layerzero_send_tokens', 'layerzero_receive', 'layerzero_commit_packet', 'layerzero_dvn_verify'];

export const ACTION_TYPE_SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  v1: V1,
  v2: [
    ...V1,
    'multisig_create_order',
    'multisig_approve',
    'multisig_execute',
    'vesting_send_message',
    'vesting_add_whitelist',
    'evaa_supply',
    'evaa_withdraw',
    'evaa_liquidate',
    'jvault_stake',
    'jvault_unstake',
    'jvault_claim',
    'jvault_unstake_request',
    'nft_discovery',
    'tonco_deploy_pool',
    'coffee_create_vault',
    'coffee_create_pool_creator',
    'coffee_create_pool',
    'coffee_mev_protect_hold_funds',
    'coffee_mev_protect_failed_swap',
    'coffee_staking_claim_rewards',
    'coffee_staking_deposit',
    'coffee_staking_withdraw',
    'unknown',
  ],
  v3: ['v2', ...NFT_V3, ...LAYERZERO],
  v4: ['v3', ...COCOON_TYPES],
  v5: ['v4', 'dedust_v2_claim_fees', 'dedust_v2_claim_reward'],
  latest: ['v5'],
  staking: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
  jettons: ['jetton_transfer', 'jetton_burn', 'jetton_mint'],
  nft: ['nft_transfer', 'nft_mint', 'auction_bid'],
  'nft.v3': ['nft', ...NFT_V3],
  dns: ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release'],
  'dns.v2': ['dns', 'dns_purchase', 'dns_release'],
  multisig: ['multisig_create_order', 'multisig_approve', 'multisig_execute'],
  vesting: ['vesting_send_message', 'vesting_add_whitelist'],
  evaa: ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate'],
  jvault: ['jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request'],
  coffee: [
    'coffee_create_vault',
    'coffee_create_pool_creator',
    'coffee_create_pool',
    'coffee_mev_protect_hold_funds',
    'coffee_staking_claim_rewards',
    'coffee_staking_deposit',
    'coffee_staking_withdraw',
  ],
  tgbtc: [
    'tgbtc_dkg_log_fallback',
    'tgbtc_new_key',
    'tgbtc_new_key_fallback',
    'tgbtc_burn',
    'tgbtc_burn_fallback',
    'tgbtc_mint',
    'tgbtc_mint_fallback',
  ],
  layerzero: LAYERZERO,
  cocoon: COCOON_TYPES,
};

/** The default when a client names nothing. */
export const DEFAULT_ACTION_TYPES = ['latest'];

function expandInto(name: string, into: Set<string>, seen: Set<string>): void {
  const members = ACTION_TYPE_SHORTCUTS[name];
  if (!members) {
    into.add(name);
    return;
  }
  if (seen.has(name)) return;
  seen.add(name);
  for (const member of members) expandInto(member, into, seen);
}

/** The types `names` (types and shortcuts) stand for, v1's always among them. */
export function expandActionTypes(names: readonly string[]): Set<string> {
  const types = new Set<string>();
  const seen = new Set<string>();
  for (const name of [...(names.length > 0 ? names : DEFAULT_ACTION_TYPES), 'v1']) expandInto(name, types, seen);
  return types;
}

/** Whether a client that understands `supported` is shown an action of `type` that is part of actions of `ancestors`. */
export function shownTo(supported: ReadonlySet<string>, type: string, ancestors: readonly string[]): boolean {
  return supported.has(type) && !ancestors.some((a) => supported.has(a));
}
