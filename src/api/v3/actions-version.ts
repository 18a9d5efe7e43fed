/**
 * toncenter's `X-Actions-Version` header: when a request sends it, its one value replaces the query's
 * `supported_action_types` (ton-index-go's GetActions / GetTraces), so a wallet can pin the action types it
 * understands once for every call (MyTonWallet sends `v1`). Applied to every v3 query before it is parsed.
 */
export function withActionsVersion(headers: Record<string, unknown>, query: Record<string, unknown>): Record<string, unknown> {
  const header = headers['x-actions-version'];
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return query;
  const { 'supported_action_types[]': _bracketed, ...rest } = query;
  return { ...rest, supported_action_types: value };
}
