/** cocoon's details, beside `cocoon.ts` (its twelve matchers): one ton-index-go struct per type. */
import type { CocoonData } from './cocoon.js';
import { str, type ActionParts, type Json } from './details-common.js';

/** A cocoon action's details: ton-index-go's struct for its type (`ActionDetailsCocoon*`), its fields in their order. */
export function cocoonParts(type: string, d: CocoonData): ActionParts {
  const query = { query_id: str(d.queryId) };
  const route = { source: d.source, destination: d.destination };
  const amount = { amount: str(d.amount) };
  const signed = { new_tokens_used: str(d.newTokensUsed), expected_address: d.expectedAddress ?? null };
  let details: Json;
  switch (type) {
    case 'cocoon_worker_payout':
      details = {
        payout_type: d.payoutType,
        ...query,
        new_tokens: str(d.newTokens),
        worker_state: d.workerState,
        worker_tokens: str(d.workerTokens),
        ...route,
        ...amount,
      };
      break;
    case 'cocoon_proxy_payout':
      details = { ...query, ...route };
      break;
    case 'cocoon_proxy_charge':
      details = { ...query, ...signed, ...route };
      break;
    case 'cocoon_client_top_up':
      details = { ...query, ...route, ...amount };
      break;
    case 'cocoon_register_proxy':
      details = { ...query, destination: d.destination };
      break;
    case 'cocoon_unregister_proxy':
      details = { ...query, seqno: d.seqno, destination: d.destination };
      break;
    case 'cocoon_client_register':
      details = { ...query, nonce: str(d.nonce), ...route };
      break;
    case 'cocoon_client_change_secret_hash':
      details = { ...query, new_secret_hash: d.newSecretHash, ...route };
      break;
    case 'cocoon_client_request_refund':
      details = { ...query, via_wallet: d.viaWallet, ...route };
      break;
    case 'cocoon_grant_refund':
      details = { ...query, ...signed, ...route, ...amount };
      break;
    case 'cocoon_client_increase_stake':
      details = { ...query, new_stake: str(d.newStake), ...route, ...amount };
      break;
    case 'cocoon_client_withdraw':
      details = { ...query, withdraw_amount: str(d.withdrawAmount), ...route, ...amount };
      break;
    default:
      throw new Error(`no cocoon details for ${type}`);
  }
  return { details, ends: [d.source, d.sourceSecondary, d.destination, d.destinationSecondary] };
}
