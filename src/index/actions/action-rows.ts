/**
 * Actions as rows of `actions`, `action_accounts` and `trace_classifications` (schema.ts), and the answer's JSON
 * text of one action, written once here in ton-index-go's field order (its `Action` struct): the reader only
 * adds `accounts` when asked and `finality`.
 */
import type { InsertBatch, SqlValue } from '../sql/driver.js';
import type { ActionRecord, ClassificationState } from './classify.js';
import { classifierVersion } from './classifier-version.js';

const ACTION_COLUMNS = [
  'trace_id',
  'action_id',
  'type',
  'start_lt',
  'end_lt',
  'start_utime',
  'end_utime',
  'trace_end_lt',
  'trace_end_utime',
  'trace_mc_seqno_end',
  'success',
  'ancestors',
  'accounts',
  'doc',
];
const ACCOUNT_COLUMNS = ['account', 'trace_id', 'action_id', 'trace_end_lt', 'trace_end_utime', 'action_end_lt', 'action_end_utime'];

const b64 = (hash: string): Buffer => Buffer.from(hash, 'base64');

/** The action's answer without `accounts` and `finality` (ton-index-go's Action, omitempty where it says so). */
export function actionDoc(a: ActionRecord): string {
  return JSON.stringify({
    trace_id: a.traceId,
    action_id: a.actionId,
    start_lt: a.startLt.toString(),
    end_lt: a.endLt.toString(),
    start_utime: a.startUtime,
    end_utime: a.endUtime,
    trace_end_lt: a.traceEndLt.toString(),
    trace_end_utime: a.traceEndUtime,
    trace_mc_seqno_end: a.traceMcSeqnoEnd,
    transactions: a.transactions,
    success: a.success,
    type: a.shownType,
    details: a.details,
    ...(a.traceExternalHash ? { trace_external_hash: a.traceExternalHash } : {}),
    ...(a.traceExternalHashNorm ? { trace_external_hash_norm: a.traceExternalHashNorm } : {}),
  });
}

/** `,a,b,`: what a LIKE '%,a,%' finds a type in; null for an action that is part of none. */
export const ancestorsText = (ancestors: readonly string[]): string | null => (ancestors.length === 0 ? null : `,${ancestors.join(',')},`);

export interface ClassifiedTrace {
  traceId: string;
  state: ClassificationState;
  actions: ActionRecord[];
}

/** The rows of classified traces (idempotent: a trace classified twice writes the same rows). */
export function actionBatches(traces: readonly ClassifiedTrace[]): InsertBatch[] {
  const actions: SqlValue[][] = [];
  const accounts: SqlValue[][] = [];
  for (const trace of traces) {
    for (const a of trace.actions) {
      const traceId = b64(a.traceId);
      const id = b64(a.actionId);
      actions.push([
        traceId,
        id,
        a.type,
        a.startLt,
        a.endLt,
        a.startUtime,
        a.endUtime,
        a.traceEndLt,
        a.traceEndUtime,
        a.traceMcSeqnoEnd,
        a.success ? 1 : 0,
        ancestorsText(a.ancestors),
        JSON.stringify(a.accounts),
        actionDoc(a),
      ]);
      for (const account of a.accounts) accounts.push([account, traceId, id, a.traceEndLt, a.traceEndUtime, a.endLt, a.endUtime]);
    }
  }
  const batches: InsertBatch[] = [];
  if (actions.length > 0) {
    batches.push({ table: 'actions', columns: ACTION_COLUMNS, rows: actions, conflict: 'ON CONFLICT (trace_id, action_id) DO NOTHING' });
    batches.push({
      table: 'action_accounts',
      columns: ACCOUNT_COLUMNS,
      rows: accounts,
      conflict: 'ON CONFLICT (account, trace_id, action_id) DO NOTHING',
    });
  }
  if (traces.length > 0) {
    batches.push({
      table: 'trace_classifications',
      columns: ['trace_id', 'state', 'classifier_version'],
      rows: traces.map((t) => [b64(t.traceId), t.state, classifierVersion()]),
      conflict: 'ON CONFLICT (trace_id) DO UPDATE SET state = excluded.state, classifier_version = excluded.classifier_version',
    });
  }
  return batches;
}
