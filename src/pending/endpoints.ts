/**
 * `GET /api/v3/pendingTransactions` and `/api/v3/pendingTraces`, from the pending layer of the network's chain,
 * with toncenter's parameters and refusals (ton-index-go: `account` required for transactions, `account` or
 * `ext_msg_hash` for traces). `/pendingActions` is not served (404) until actions are classified.
 */
import { ApiError } from '../http/api-error.js';
import type { NetworkContext } from '../http/network-context.js';
import { defineEndpoint, ref } from '../api/v3/endpoint.js';
import { addressBookOf } from '../api/v3/format/address-book.js';
import { jsonObject, type JsonText } from '../api/v3/json-text.js';
import type { PendingTrace, PendingTraces } from './pending-traces.js';
import { pendingOf } from './registry.js';
import { mentionedAccounts, pendingTraceParts, pendingTraceText, pendingTransactionText } from './render.js';

function layerOf(network: NetworkContext): PendingTraces {
  const layer = pendingOf(network.chain);
  if (!layer)
    throw new ApiError(
      404,
      `pending messages are followed on local and lite networks; ${network.name} is served by ${network.backend ?? 'another backend'}`,
    );
  return layer;
}

/** The address book of these accounts, from what the network's index knows of them (none: friendly forms only). */
export async function addressBookFor(network: NetworkContext, accounts: string[]): Promise<Record<string, unknown>> {
  const known = network.index ? await network.index.addressBookStates(accounts) : { states: [], domains: new Map<string, string>() };
  return addressBookOf(accounts, known, network.testOnly);
}

const distinctTraces = (traces: (PendingTrace | undefined)[]) => [...new Set(traces.filter((t): t is PendingTrace => t !== undefined))];

const TRANSACTIONS_QUERY = {
  account: { type: 'address[]', maxItems: 1000, description: 'Accounts whose pending transactions to list (raw or user-friendly).' },
  trace_id: { type: 'hash[]', maxItems: 1000, description: 'Only these pending traces (the hash of their root transaction).' },
} as const;

const TRACES_QUERY = {
  account: { type: 'address', description: 'Pending traces with a transaction of this account.' },
  ext_msg_hash: { type: 'hash[]', maxItems: 1000, description: 'Pending traces of these external messages (hash or normalized hash).' },
  supported_action_types: { type: 'string[]', maxItems: 100, description: 'Accepted for compatibility; no actions are classified yet.' },
} as const;

/** The pending transactions of `accounts` (of the traces `traceIds` only, when given), newest first. */
async function transactionsOf(accounts: string[], traceIds: Buffer[], network: NetworkContext): Promise<JsonText> {
  if (accounts.length === 0) throw new ApiError(422, 'at least 1 account address required');
  const layer = layerOf(network);
  const wanted = new Set(traceIds.map((id) => id.toString('base64')));
  const followed = new Set(accounts);
  const texts: { lt: bigint; text: string; mentioned: string[] }[] = [];
  for (const trace of distinctTraces(accounts.flatMap((a) => layer.ofAccount(a)))) {
    if (wanted.size > 0 && !wanted.has(trace.traceId)) continue;
    for (const tx of trace.txs) {
      if (!followed.has(tx.account)) continue;
      const text = pendingTransactionText(tx, trace);
      texts.push({ lt: tx.lt, text, mentioned: mentionedAccounts(tx) });
    }
  }
  texts.sort((a, b) => (a.lt === b.lt ? 0 : a.lt > b.lt ? -1 : 1));
  return jsonObject([
    ['transactions', `[${texts.map((t) => t.text).join(',')}]`],
    [
      'address_book',
      JSON.stringify(
        await addressBookFor(
          network,
          texts.flatMap((t) => t.mentioned),
        ),
      ),
    ],
  ]);
}

/** The pending traces of `account`, or of these external messages. */
async function tracesOf(account: string | undefined, externals: Buffer[], network: NetworkContext): Promise<JsonText> {
  if (account === undefined && externals.length === 0) throw new ApiError(422, 'account or ext_msg_hash should be specified');
  const layer = layerOf(network);
  const traces =
    account !== undefined ? layer.ofAccount(account) : distinctTraces(externals.map((h) => layer.ofExternal(h.toString('base64'))));
  const texts: string[] = [];
  const mentioned: string[] = [];
  for (const trace of traces) {
    texts.push(pendingTraceText(pendingTraceParts(trace)));
    for (const tx of trace.txs) mentioned.push(...mentionedAccounts(tx));
  }
  return jsonObject([
    ['traces', `[${texts.join(',')}]`],
    ['address_book', JSON.stringify(await addressBookFor(network, mentioned))],
    ['metadata', '{}'],
  ]);
}

export const pendingTransactions = defineEndpoint({
  path: '/pendingTransactions',
  tag: 'blockchain',
  summary: 'Transactions of accepted messages not in a block yet (emulated: true, finality pending)',
  params: TRANSACTIONS_QUERY,
  response: ref('TransactionsResponse'),
  handle: (p, network) => transactionsOf(p.account, p.trace_id, network),
});

export const pendingTraces = defineEndpoint({
  path: '/pendingTraces',
  tag: 'traces',
  summary: 'Traces of accepted messages not in a block yet (trace_state pending)',
  params: TRACES_QUERY,
  response: ref('TracesResponse'),
  handle: (p, network) => tracesOf(p.account, p.ext_msg_hash, network),
});
