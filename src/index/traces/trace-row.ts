/** A `traces` row in memory, and its conversions to and from the store's columns. */
import type { SqlRow, SqlValue } from '../sql/driver.js';
import { bigint, bytes, int, optionalBytes, text } from '../sql/values.js';

export type TraceState = 'complete' | 'pending' | 'broken';

export interface TraceRow {
  /** base64 hashes */
  traceId: string;
  externalHash: string | null;
  externalHashNorm: string | null;
  mcSeqnoStart: number;
  mcSeqnoEnd: number;
  startLt: bigint;
  startUtime: number;
  endLt: bigint;
  endUtime: number;
  state: TraceState;
  transactions: number;
  messages: number;
  pendingMessages: number;
}

export const TRACE_COLUMNS = [
  'trace_id',
  'external_hash',
  'external_hash_norm',
  'mc_seqno_start',
  'mc_seqno_end',
  'start_lt',
  'start_utime',
  'end_lt',
  'end_utime',
  'state',
  'transactions',
  'messages',
  'pending_messages',
] as const;

/** Every column but the key replaced: the linker writes a trace's whole new row. */
export const TRACE_UPSERT = `ON CONFLICT (trace_id) DO UPDATE SET ${TRACE_COLUMNS.slice(1)
  .map((c) => `${c} = excluded.${c}`)
  .join(', ')}`;

const b64 = (value: unknown): string => bytes(value).toString('base64');
const fromB64 = (value: string | null): Buffer | null => (value === null ? null : Buffer.from(value, 'base64'));

export function traceRowValues(row: TraceRow): SqlValue[] {
  return [
    fromB64(row.traceId),
    fromB64(row.externalHash),
    fromB64(row.externalHashNorm),
    row.mcSeqnoStart,
    row.mcSeqnoEnd,
    row.startLt,
    row.startUtime,
    row.endLt,
    row.endUtime,
    row.state,
    row.transactions,
    row.messages,
    row.pendingMessages,
  ];
}

export function traceRowOf(row: SqlRow): TraceRow {
  const hash = optionalBytes(row.external_hash);
  const norm = optionalBytes(row.external_hash_norm);
  return {
    traceId: b64(row.trace_id),
    externalHash: hash ? hash.toString('base64') : null,
    externalHashNorm: norm ? norm.toString('base64') : null,
    mcSeqnoStart: int(row.mc_seqno_start),
    mcSeqnoEnd: int(row.mc_seqno_end),
    startLt: bigint(row.start_lt),
    startUtime: int(row.start_utime),
    endLt: bigint(row.end_lt),
    endUtime: int(row.end_utime),
    state: text(row.state) as TraceState,
    transactions: int(row.transactions),
    messages: int(row.messages),
    pendingMessages: int(row.pending_messages),
  };
}
