/**
 * `/api/v3/balanceChanges` (ton-index-go's, not in its published spec): what a trace, or one action of it, did to
 * balances (index/actions/balance-changes.ts), computed from the trace's transactions when asked.
 */
import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { JsonText } from '../../json-text.js';
import type { ParamSpecs } from '../params.js';
import { balanceChanges, balanceChangesText } from '../../../index/actions/balance-changes.js';

/** ton-index-go's BalanceChangesRequest: one of the two. */
const BALANCE_PARAMS = {
  trace_id: { type: 'hash', description: 'The trace.' },
  action_id: { type: 'hash', description: 'One action: its changes (its trace found by it when trace_id is not given).' },
} as const satisfies ParamSpecs;

export const balanceChangesEndpoint = defineEndpoint({
  path: '/balanceChanges',
  tag: 'traces',
  summary: 'TON, fee and jetton changes per account of a trace, or of one action of it',
  params: BALANCE_PARAMS,
  response: ref('BalanceChangesResponse'),
  async handle(p, network) {
    if (p.trace_id === undefined && p.action_id === undefined) throw new ApiError(400, 'trace_id or action_id is required');
    const reader = indexOf(network);
    const traceId = p.trace_id ?? (await reader.actions.traceOfAction(p.action_id!));
    if (traceId === null) throw new ApiError(404, 'action_id not found');
    const inputs = await reader.actions.balanceInputs(traceId);
    if (!inputs) throw new ApiError(404, 'trace not found');
    const changes = balanceChanges(inputs.trace, inputs.wallets, inputs.actions);
    // An action with no changes of its own (a deployment): toncenter answers every key null.
    const chosen = p.action_id === undefined ? changes.trace : (changes.actions.get(p.action_id.toString('base64')) ?? null);
    return new JsonText(balanceChangesText(chosen));
  },
});
