/**
 * toncenter's v2 notifications (ton-streaming-go v2/server.go), written as text from parts already rendered:
 * a trace's transactions arrive as JSON texts (the index's own, or the pending layer's), so a notification for
 * each client is a concatenation, never a second serialization of the same transaction.
 *
 *   transactions          {"type","finality","trace_external_hash_norm","transactions":[lt desc],"address_book"?,"metadata"?}
 *   actions               {"type","finality","trace_external_hash_norm","actions":[...],"address_book"?,"metadata"?}
 *   trace                 {"type","finality","trace_external_hash_norm","trace","transactions":{hash:tx},"actions"?,"address_book"?,"metadata"?}
 *   account_state_change  {"type","finality","account","state"}
 *   jettons_change        {"type","finality","jetton","address_book"?,"metadata"?}
 *   trace_invalidated     {"type","trace_external_hash_norm"}
 * The address book and metadata a client gets are only those of the addresses its notification mentions (and, as
 * /api/v3/metadata answers, the master of each jetton wallet among them).
 */
import { closedAction, type ActionPart } from '../index/actions/action-part.js';
import type { StreamConnection } from './connection.js';
import type { Finality } from './subscription.js';
import type { FramedText } from './ws-frame.js';

/** One trace at one finality, ready to be cut per client. */
export interface TraceEvent {
  finality: Finality;
  norm: string;
  /**
   * In lt order, ascending. `alone`, when made ahead (confirmed-ahead.ts): the `transactions` notification of this
   * transaction alone at the event's finality, without address book or metadata, as UTF-8 bytes and their
   * WebSocket frame (what transactionsText writes for a client that gets only it).
   */
  transactions: { hash: string; account: string; lt: bigint; text: string; mentioned: string[]; alone?: FramedText }[];
  /**
   * The transactions this notification is news of (a sealed block's, by hash); `transactions` notifications carry
   * only those, a `trace` notification the whole trace. Undefined: all of them.
   */
  news?: Set<string>;
  /** The trace tree (toncenter's TraceNode), as JSON text. */
  tree: string;
  /** Classified actions of the trace (src/stream/actions.ts), newest first; each closed here at the event's finality. */
  actions: ActionPart[];
  addressBook: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

const pick = (from: Record<string, unknown>, keys: Iterable<string>): string => {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in from) out[key] = from[key];
  return JSON.stringify(out);
};

/** The master a jetton wallet's metadata entry names (src/index/read/metadata.ts), if it is one. */
function walletMaster(entry: unknown): string | undefined {
  const info = (entry as { token_info?: { type?: string; extra?: { jetton?: unknown } }[] } | undefined)?.token_info?.[0];
  return info?.type === 'jetton_wallets' && typeof info.extra?.jetton === 'string' ? info.extra.jetton : undefined;
}

/**
 * The metadata of these addresses, each jetton wallet's bringing its master's along (as /api/v3/metadata answers:
 * the master's token_info is what names the token), when `from` holds it.
 */
export function metadataOf(from: Record<string, unknown>, addresses: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const address of addresses) {
    if (!(address in from)) continue;
    out[address] = from[address];
    const master = walletMaster(from[address]);
    if (master !== undefined && master in from) out[master] = from[master];
  }
  return out;
}

function extras(connection: StreamConnection, event: TraceEvent, mentioned: () => Iterable<string>): string {
  const { includeAddressBook, includeMetadata } = connection.subscription;
  if (!includeAddressBook && !includeMetadata) return '';
  const list = [...mentioned()];
  return (
    (includeAddressBook ? `,"address_book":${pick(event.addressBook, list)}` : '') +
    (includeMetadata ? `,"metadata":${JSON.stringify(metadataOf(event.metadata, list))}` : '')
  );
}

const head = (type: string, { finality, norm }: Pick<TraceEvent, 'finality' | 'norm'>) =>
  `{"type":"${type}","finality":"${finality}","trace_external_hash_norm":${JSON.stringify(norm)}`;

/** A `transactions` notification of these transaction texts (newest first), `extras` its address book and metadata. */
export function transactionsNotification(finality: Finality, norm: string, texts: readonly string[], extrasText = ''): string {
  return `${head('transactions', { finality, norm })},"transactions":[${texts.join(',')}]${extrasText}}`;
}

/**
 * The client's transactions of the trace (its subscribed accounts'), newest first; undefined when none. A single
 * transaction with its notification made ahead, to a client that asked for no address book nor metadata, is those
 * bytes (the same text, encoded once for every client that gets it).
 */
export function transactionsText(connection: StreamConnection, event: TraceEvent): string | FramedText | undefined {
  const addresses = connection.subscription.addresses;
  const mine = event.transactions.filter((tx) => addresses.has(tx.account) && (!event.news || event.news.has(tx.hash))).reverse();
  if (mine.length === 0) return undefined;
  const { includeAddressBook, includeMetadata } = connection.subscription;
  if (mine.length === 1 && mine[0].alone !== undefined && !includeAddressBook && !includeMetadata) return mine[0].alone;
  return transactionsNotification(
    event.finality,
    event.norm,
    mine.map((tx) => tx.text),
    extras(connection, event, () => mine.flatMap((tx) => tx.mentioned)),
  );
}

/** The version filter toncenter applies (action_types, then supported types and their ancestors). */
function actionShown(connection: StreamConnection, action: TraceEvent['actions'][number], supported: ReadonlySet<string>): boolean {
  const { actionTypes } = connection.subscription;
  if (actionTypes.length > 0 && !actionTypes.includes(action.type)) return false;
  if (action.ancestorTypes.some((t) => supported.has(t))) return false;
  return supported.has(action.type);
}

/** The client's actions of the trace (an action is its when one of its accounts is subscribed); undefined when none. */
export function actionsText(connection: StreamConnection, event: TraceEvent, supported: ReadonlySet<string>): string | undefined {
  const addresses = connection.subscription.addresses;
  const mine = event.actions.filter((a) => a.accounts.some((acc) => addresses.has(acc)) && actionShown(connection, a, supported));
  if (mine.length === 0) return undefined;
  return `${head('actions', event)},"actions":[${mine.map((a) => closedAction(a, event.finality)).join(',')}]${extras(connection, event, () => mine.flatMap((a) => a.accounts))}}`;
}

export function traceText(connection: StreamConnection, event: TraceEvent, supported: ReadonlySet<string>): string {
  const txs = event.transactions.map((tx) => `${JSON.stringify(tx.hash)}:${tx.text}`).join(',');
  const actions = event.actions.filter((a) => actionShown(connection, a, supported));
  return (
    `${head('trace', event)},"trace":${event.tree},"transactions":{${txs}}` +
    (actions.length > 0 ? `,"actions":[${actions.map((a) => closedAction(a, event.finality)).join(',')}]` : '') +
    `${extras(connection, event, () => Object.keys(event.addressBook))}}`
  );
}

export function accountStateText(finality: Finality, account: string, state: unknown): string {
  return `{"type":"account_state_change","finality":"${finality}","account":${JSON.stringify(account)},"state":${JSON.stringify(state)}}`;
}

export function jettonText(
  connection: StreamConnection,
  finality: Finality,
  jetton: Record<string, unknown>,
  addressBook: Record<string, unknown>,
  metadata: Record<string, unknown>,
): string {
  const { includeAddressBook, includeMetadata } = connection.subscription;
  const mentioned = [jetton.address, jetton.owner, jetton.jetton].filter((a): a is string => typeof a === 'string');
  return (
    `{"type":"jettons_change","finality":"${finality}","jetton":${JSON.stringify(jetton)}` +
    (includeAddressBook ? `,"address_book":${pick(addressBook, mentioned)}` : '') +
    (includeMetadata ? `,"metadata":${JSON.stringify(metadataOf(metadata, mentioned))}` : '') +
    '}'
  );
}

export function invalidatedText(norm: string): string {
  return `{"type":"trace_invalidated","trace_external_hash_norm":${JSON.stringify(norm)}}`;
}
