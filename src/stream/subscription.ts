/**
 * A streaming subscription as toncenter's v2 reads it (ton-streaming-go v2/server.go), with its refusals word for
 * word: `types` required and each one known; `addresses` (also `accounts`, as toncenter's docs spell it) in any
 * address form, normalized to raw uppercase and deduplicated, required for every type but `trace`;
 * `trace_external_hash_norms` required with `trace` and only with it; `min_finality` pending / confirmed /
 * finalized (default finalized); `action_types`, `supported_action_types` (default `latest`, or the
 * X-Actions-Version header), `include_address_book`, `include_metadata`. `trace_invalidated` in `types` is
 * accepted and ignored (the docs list it; it is pushed without asking).
 */
import { formatRawUpper, parseAddress } from '../ton/address.js';

export const FINALITIES = ['pending', 'confirmed', 'finalized'] as const;
export type Finality = (typeof FINALITIES)[number];
export const finalityRank = (f: Finality): number => FINALITIES.indexOf(f);

export const EVENT_TYPES = ['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface Subscription {
  types: Set<EventType>;
  /** Raw uppercase. */
  addresses: Set<string>;
  traces: Set<string>;
  minFinality: Finality;
  actionTypes: string[];
  supportedActionTypes: string[];
  includeAddressBook: boolean;
  includeMetadata: boolean;
}

/** A refusal in toncenter's words; the transport sends it as `{"id"?, "error"}`. */
export class SubscriptionError extends Error {}

export function emptySubscription(supportedActionTypes: string[] = ['latest']): Subscription {
  return {
    types: new Set(),
    addresses: new Set(),
    traces: new Set(),
    minFinality: 'finalized',
    actionTypes: [],
    supportedActionTypes,
    includeAddressBook: false,
    includeMetadata: false,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function stringList(body: Record<string, unknown>, field: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new SubscriptionError(`${field} must be an array of strings`);
  return value as string[];
}

function optionalBool(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new SubscriptionError(`${field} must be a boolean`);
  return value;
}

/** Raw uppercase, deduplicated in order; toncenter's `invalid address: X` for the first that does not read. */
export function normalizeAddresses(addresses: string[]): string[] {
  const out = new Set<string>();
  for (const a of addresses) {
    let raw: string;
    try {
      raw = formatRawUpper(parseAddress(a).address);
    } catch {
      throw new SubscriptionError(`invalid address: ${a.length > 100 ? `${a.slice(0, 100)}...` : a}`);
    }
    out.add(raw);
  }
  return [...out];
}

function traceNorms(values: string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const trimmed = v.trim();
    if (trimmed === '') throw new SubscriptionError('trace_external_hash_norms contains empty value');
    out.add(trimmed);
  }
  return [...out];
}

export interface SubscribeRequest {
  id?: string;
  types: EventType[];
  addresses: string[];
  traces: string[];
  minFinality?: Finality;
  actionTypes: string[];
  supportedActionTypes: string[];
  includeAddressBook?: boolean;
  includeMetadata?: boolean;
}

/** toncenter answers with the request's id when it is a string (its `*string`); other ids are left out. */
export function requestId(body: unknown): string | undefined {
  return isRecord(body) && typeof body.id === 'string' ? body.id : undefined;
}

/** The body of `POST /sse` or of a WS `subscribe`, checked as toncenter checks it (`wsMessages`: WS's shorter words). */
export function parseSubscribe(body: unknown, wsMessages = false): SubscribeRequest {
  if (!isRecord(body)) throw new SubscriptionError('invalid subscription request: the body must be a JSON object');
  const rawTypes = stringList(body, 'types').filter((t) => t !== 'trace_invalidated');
  if (rawTypes.length === 0 && stringList(body, 'types').length === 0)
    throw new SubscriptionError(wsMessages ? 'types are required' : 'types are required for subscription');
  for (const t of rawTypes) if (!(EVENT_TYPES as readonly string[]).includes(t)) throw new SubscriptionError(`invalid event type: ${t}`);
  const types = [...new Set(rawTypes)] as EventType[];
  const addresses = normalizeAddresses([...stringList(body, 'addresses'), ...stringList(body, 'accounts')]);
  const traces = traceNorms(stringList(body, 'trace_external_hash_norms'));
  const hasTrace = types.includes('trace');
  if (traces.length > 0 && !hasTrace) throw new SubscriptionError('trace_external_hash_norms requires type "trace"');
  if (hasTrace && traces.length === 0) throw new SubscriptionError('trace_external_hash_norms are required for trace subscription');
  if (types.some((t) => t !== 'trace') && addresses.length === 0)
    throw new SubscriptionError(wsMessages ? 'addresses are required' : 'addresses are required for subscription');
  let minFinality: Finality | undefined;
  if (body.min_finality !== undefined && body.min_finality !== null) {
    if (typeof body.min_finality !== 'string' || !(FINALITIES as readonly string[]).includes(body.min_finality)) {
      throw new SubscriptionError(`invalid subscription request: unknown finality state: ${String(body.min_finality).slice(0, 40)}`);
    }
    minFinality = body.min_finality as Finality;
  }
  return {
    id: requestId(body),
    types,
    addresses,
    traces,
    minFinality,
    actionTypes: stringList(body, 'action_types'),
    supportedActionTypes: stringList(body, 'supported_action_types'),
    includeAddressBook: optionalBool(body, 'include_address_book'),
    includeMetadata: optionalBool(body, 'include_metadata'),
  };
}

/** A WS `subscribe` applied: it replaces the whole subscription; options it leaves out keep their value. */
export function applySubscribe(current: Subscription, request: SubscribeRequest): Subscription {
  return {
    types: new Set(request.types),
    addresses: new Set(request.addresses),
    traces: new Set(request.traces),
    minFinality: request.minFinality ?? current.minFinality,
    actionTypes: request.actionTypes.length > 0 ? request.actionTypes : current.actionTypes,
    supportedActionTypes: request.supportedActionTypes.length > 0 ? request.supportedActionTypes : current.supportedActionTypes,
    includeAddressBook: request.includeAddressBook ?? current.includeAddressBook,
    includeMetadata: request.includeMetadata ?? current.includeMetadata,
  };
}

/** A WS `unsubscribe`: the addresses and trace norms it names leave the subscription. */
export function parseUnsubscribe(body: unknown): { addresses: string[]; traces: string[] } {
  if (!isRecord(body)) throw new SubscriptionError('invalid unsubscribe request: the message must be a JSON object');
  const addresses = stringList(body, 'addresses').concat(stringList(body, 'accounts'));
  const traces = stringList(body, 'trace_external_hash_norms');
  if (addresses.length === 0 && traces.length === 0) throw new SubscriptionError('addresses or trace_external_hash_norms are required');
  return { addresses: normalizeAddresses(addresses), traces: traceNorms(traces) };
}

/** The `X-Actions-Version` header, else `latest` (toncenter's default). */
export function defaultActionTypes(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header[0] : header;
  return value ? [value] : ['latest'];
}
