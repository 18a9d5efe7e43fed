import type { IndexReader } from '../../../index/reader.js';
import type { StoredAction } from '../../../index/actions/reader.js';
import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { actionAddresses, actionsText, actionTransactions, traceActionsOf, type TraceActions } from '../format/actions.js';
import { PAGE_PARAMS, SORT_PARAM, type ParamSpecs } from '../params.js';
import { expandActionTypes } from '../../../index/actions/versions.js';
import { requireMasterchainBlock } from './transactions.js';

/** ton-index-go's check of `action_type` / `exclude_action_type` values (its 422 text). */
const ACTION_TYPE = /^[A-Za-z0-9_.]+$/;

function checkTypes(values: string[], name: string): void {
  if (values.some((v) => v !== '' && !ACTION_TYPE.test(v))) throw new ApiError(422, `${name} contains invalid characters`);
}

export const SUPPORTED_ACTION_TYPES = {
  type: 'string[]',
  maxItems: 100,
  description:
    'Action types (or shortcuts: v1...v5, latest, jettons, nft, dns, multisig, ...) the client understands; v1 is always included, default latest. The X-Actions-Version header, when sent, replaces it.',
} as const;

/** The actions' transactions, read with what /transactions shows of them. */
async function actionsTransactionPage(reader: IndexReader, actions: StoredAction[]) {
  const traceIds = [...new Map(actions.map((a) => [a.traceId.toString('base64'), a.traceId])).values()];
  const wanted = new Set(actions.flatMap(actionTransactions));
  const records =
    traceIds.length === 0
      ? []
      : (await reader.transactions({ traceIds }, 'asc', { limit: 1_000_000, offset: 0 })).filter((r) =>
          wanted.has(r.hash.toString('base64')),
        );
  return reader.transactionPage(records);
}

/** /traces: each trace's classification_state, and with include_actions its actions (format/actions.ts writes them). */
export async function traceActions(
  reader: IndexReader,
  traceIds: Buffer[],
  include: boolean,
  supported: ReadonlySet<string>,
  testOnly: boolean,
): Promise<TraceActions> {
  const [states, actions] = await Promise.all([
    reader.actions.classificationStates(traceIds),
    include ? reader.actions.ofTraces(traceIds, supported) : Promise.resolve(null),
  ]);
  if (!actions) return traceActionsOf({ states, actions, book: { states: [], domains: new Map() }, metadata: {} }, testOnly);
  const addresses = actionAddresses([...actions.values()].flat());
  const [book, metadata] = await Promise.all([reader.addressBookStates(addresses), reader.metadata(addresses)]);
  return traceActionsOf({ states, actions, book, metadata }, testOnly);
}

const hashes = (description: string) => ({ type: 'hash[]', maxItems: 1000, description }) as const;
const typeList = (description: string) => ({ type: 'string[]', maxItems: 100, description }) as const;
const flag = (description: string) => ({ type: 'bool', default: false, description }) as const;
/** A bound on the trace's end (toncenter's actions filter on trace_end_utime / trace_end_lt). */
const traceEnd = <T extends 'utime' | 'int64'>(type: T, bound: string) =>
  ({ type, description: `Actions of traces with ${bound}.` }) as const;

/** toncenter's ActionRequest, its window and page. */
const ACTION_PARAMS = {
  account: { type: 'address', description: 'Actions naming this account.' },
  tx_hash: hashes('Actions holding these transactions.'),
  msg_hash: hashes('Actions holding a transaction that sent or received these messages (hash or normalized hash).'),
  action_id: hashes('Actions by id (then the other filters but the types are ignored).'),
  trace_id: hashes('Actions of these traces.'),
  mc_seqno: { type: 'int32', description: 'Actions of traces that ended in this masterchain block.' },
  start_utime: traceEnd('utime', 'trace_end_utime >= start_utime (orders by time)'),
  end_utime: traceEnd('utime', 'trace_end_utime <= end_utime (orders by time)'),
  start_lt: traceEnd('int64', 'trace_end_lt >= start_lt'),
  end_lt: traceEnd('int64', 'trace_end_lt <= end_lt'),
  action_type: typeList('Only these types (instead of the supported ones).'),
  exclude_action_type: typeList('Not these types.'),
  supported_action_types: SUPPORTED_ACTION_TYPES,
  include_accounts: flag("Add each action's accounts."),
  include_transactions: flag("Add each action's transactions (`transactions_full`)."),
  ...PAGE_PARAMS,
  ...SORT_PARAM,
} as const satisfies ParamSpecs;

export const actions = defineEndpoint({
  path: '/actions',
  tag: 'traces',
  summary: "Actions (what traces did, in toncenter's action types), ordered by the end of their trace",
  params: ACTION_PARAMS,
  response: ref('ActionsResponse'),
  async handle(p, network) {
    for (const name of ['action_type', 'exclude_action_type'] as const) checkTypes(p[name], name);
    const reader = indexOf(network);
    await requireMasterchainBlock(reader, p.mc_seqno);
    // The reader takes toncenter's request as parsed (index/actions/reader.ts ActionQuery).
    const actions = await reader.actions.actions({ ...p, supported: expandActionTypes(p.supported_action_types) }, p.sort, p);
    const addresses = actionAddresses(actions);
    const [book, metadata, transactions] = await Promise.all([
      reader.addressBookStates(addresses),
      reader.metadata(addresses),
      p.include_transactions ? actionsTransactionPage(reader, actions) : Promise.resolve(null),
    ]);
    return actionsText({ actions, book, metadata, transactions }, { accounts: p.include_accounts, testOnly: network.testOnly });
  },
});
