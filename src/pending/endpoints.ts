/**
 * `GET /api/v3/pendingTransactions` and `/api/v3/pendingTraces`, from the pending layer of the network's chain,
 * with toncenter's parameters and refusals (ton-index-go: `account` required for transactions, `account` or
 * `ext_msg_hash` for traces and actions). Actions are those of the pending traces, classified from what the open
 * block executed (actions.ts), at finality `pending`, the newest first within a trace (ton-index-go's
 * GetPendingActions); a trace's actions are gone once a sealed block holds it. /pendingTraces carries the same
 * actions in each trace (one classification per trace, shared with /pendingActions and the stream).
 */
import { ApiError } from '../http/api-error.js';
import type { NetworkContext } from '../http/network-context.js';
import { defineEndpoint, ref } from '../api/v3/endpoint.js';
import { addressBookOf } from '../api/v3/format/address-book.js';
import { detailsAddresses } from '../api/v3/format/actions.js';
import { jsonObject, type JsonText } from '../api/json-text.js';
import type { PendingTrace, PendingTraces } from './pending-traces.js';
import { pendingOf } from './registry.js';
import { mentionedAccounts, pendingTraceParts, pendingTraceText, pendingTransactionText } from './render.js';
import { pendingActionsOf } from './actions.js';
import { closedAction, type ActionPart } from '../index/actions/action-part.js';
import { shownTo, expandActionTypes } from '../index/actions/versions.js';
import { SUPPORTED_ACTION_TYPES } from '../api/v3/endpoints/actions.js';

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
  supported_action_types: SUPPORTED_ACTION_TYPES,
} as const;

const ACTIONS_QUERY = {
  account: { type: 'address', description: 'Actions of the pending traces with a transaction of this account.' },
  ext_msg_hash: {
    type: 'hash[]',
    maxItems: 1000,
    description: 'Actions of the pending traces of these external messages (hash or normalized hash).',
  },
  supported_action_types: SUPPORTED_ACTION_TYPES,
  include_transactions: { type: 'bool', default: false, description: "Add each action's transactions (`transactions_full`)." },
} as const;

/** The pending traces of `account`, or of these external messages (toncenter's 422 when neither is given). */
function tracesNamed(account: string | undefined, externals: Buffer[], network: NetworkContext): PendingTrace[] {
  if (account === undefined && externals.length === 0) throw new ApiError(422, 'account or ext_msg_hash should be specified');
  const layer = layerOf(network);
  return account !== undefined ? layer.ofAccount(account) : distinctTraces(externals.map((h) => layer.ofExternal(h.toString('base64'))));
}

/**
 * A pending trace's actions a client of `understood` sees, in /pendingActions' order. One classification per trace
 * (actions.ts); each is written closed at finality `pending` with its `accounts`, as ton-index-go's ParseRawAction
 * writes an emulated action, in /pendingActions and /pendingTraces alike.
 */
async function shownActionsOf(trace: PendingTrace, understood: Set<string>, network: NetworkContext): Promise<ActionPart[]> {
  return (await pendingActionsOf(trace, network)).filter((a) => shownTo(understood, a.type, a.ancestorTypes));
}

/** The actions of the pending traces of `account` (or of these external messages) a client of `supported` understands. */
async function actionsOf(
  account: string | undefined,
  externals: Buffer[],
  supported: string[],
  withTransactions: boolean,
  network: NetworkContext,
): Promise<JsonText> {
  const traces = tracesNamed(account, externals, network);
  const understood = expandActionTypes(supported);
  const texts: string[] = [];
  const mentioned: string[] = [];
  for (const trace of traces) {
    const transactions = withTransactions ? new Map(trace.txs.map((tx) => [tx.hash, pendingTransactionText(tx, trace)])) : undefined;
    for (const action of await shownActionsOf(trace, understood, network)) {
      const full = transactions
        ? (JSON.parse(`${action.head}}`) as { transactions: string[] }).transactions.flatMap((h) => transactions.get(h) ?? [])
        : undefined;
      texts.push(closedAction(action, 'pending', full));
      mentioned.push(...action.accounts);
    }
  }
  return jsonObject([
    ['actions', `[${texts.join(',')}]`],
    ['address_book', JSON.stringify(await addressBookFor(network, mentioned))],
    ['metadata', JSON.stringify(network.index ? await network.index.metadata(mentioned) : {})],
  ]);
}

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

/**
 * The pending traces of `account`, or of these external messages, each with its actions as ton-index-go's
 * QueryPendingTraces gives them (every trace carries them: toncenter's /pendingTraces has no include_actions; the
 * version filter applies as on /traces). The address book and metadata cover the transactions' accounts and the
 * addresses the actions name, their details' included (toncenter's CollectAddressesFromAction).
 */
async function tracesOf(account: string | undefined, externals: Buffer[], supported: string[], network: NetworkContext): Promise<JsonText> {
  const traces = tracesNamed(account, externals, network);
  const understood = expandActionTypes(supported);
  const texts: string[] = [];
  const mentioned: string[] = [];
  const inActions: string[] = [];
  // Each trace as it stands now, its transactions and its actions alike: a trace still growing in the open block
  // may gain transactions while its actions are classified, and the answer shows what was classified.
  const taken = traces.map((trace) => ({
    txs: [...trace.txs],
    parts: pendingTraceParts(trace, true),
    actions: shownActionsOf(trace, understood, network),
  }));
  for (const { txs, parts, actions: classified } of taken) {
    const actions = await classified;
    texts.push(
      pendingTraceText(
        parts,
        actions.map((a) => closedAction(a, 'pending')),
      ),
    );
    for (const tx of txs) mentioned.push(...mentionedAccounts(tx));
    for (const action of actions)
      inActions.push(...action.accounts, ...detailsAddresses((JSON.parse(`${action.head}}`) as { details: unknown }).details));
  }
  return jsonObject([
    ['traces', `[${texts.join(',')}]`],
    ['address_book', JSON.stringify(await addressBookFor(network, [...mentioned, ...inActions]))],
    ['metadata', JSON.stringify(network.index ? await network.index.metadata([...mentioned, ...inActions]) : {})],
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
  handle: (p, network) => tracesOf(p.account, p.ext_msg_hash, p.supported_action_types, network),
});

export const pendingActions = defineEndpoint({
  path: '/pendingActions',
  tag: 'traces',
  summary: 'Actions of accepted messages not in a block yet (finality pending), classified from what the open block executed',
  params: ACTIONS_QUERY,
  response: ref('ActionsResponse'),
  handle: (p, network) => actionsOf(p.account, p.ext_msg_hash, p.supported_action_types, p.include_transactions, network),
});
