/**
 * A message cell as the APIs write it:
 *   v2Message     ext.message  (v2 getTransactions: addresses as strings, legacy `message` field)
 *   v2MessageStd  raw.message  (v2 getTransactionsStd: addresses as accountAddress objects)
 *   v3Message     the index's Message (raw uppercase addresses, nulls where a field does not apply)
 *
 * v2 follows tonlib: source/destination are bounceable url-safe with the network's test-only flag,
 * "" for an external or absent address; value, fees and created_lt are decimal strings, "0" where
 * the message kind has none. A text comment (op 0 + snake string) is msg.dataText (text = base64 of
 * the bytes), anything else msg.dataRaw {body, init_state}. ihr_fee is the info field at the old
 * ihr_fee position (zero on every network, where it now holds extra_flags).
 */
import type { Address, Cell } from '@ton/core';
import { normalizedExternalHash } from './normalized-external-hash.js';
import { formatRawUpper, formatV2Address } from './address.js';
import { bocBase64 } from './boc.js';
import { formatHash } from './hash.js';
import { bodyOpcode, commentBytes, formatOpcode, legacyMessageText } from './message-body.js';
import { decodeMessageBody } from './decoded/decode.js';
import type { JsonObject } from './decoded/kinds.js';
import { messageParts, type MessageParts } from './message-cells.js';
import { accountAddress, extraCurrencies, extraCurrenciesMap, type AccountAddressJson, type ExtraCurrencyJson } from './tonlib-json.js';

export type MsgData = { '@type': 'msg.dataRaw'; body: string; init_state: string } | { '@type': 'msg.dataText'; text: string };

interface TonlibMessageFields {
  value: string;
  extra_currencies: ExtraCurrencyJson[];
  fwd_fee: string;
  ihr_fee: string;
  created_lt: string;
  body_hash: string;
  msg_data: MsgData;
}

export interface ExtMessageJson extends TonlibMessageFields {
  '@type': 'ext.message';
  hash: string;
  source: string;
  destination: string;
  message: string;
}

export interface RawMessageJson extends TonlibMessageFields {
  '@type': 'raw.message';
  hash: string;
  source: AccountAddressJson;
  destination: AccountAddressJson;
}

/** The internal-address ends of a message (external addresses are not accounts). */
function ends(parts: MessageParts): { source: Address | null; destination: Address | null } {
  const info = parts.info;
  if (info.type === 'internal') return { source: info.src, destination: info.dest };
  if (info.type === 'external-in') return { source: null, destination: info.dest };
  return { source: info.src, destination: null };
}

function msgData(parts: MessageParts, comment: Buffer | null): MsgData {
  if (comment !== null) return { '@type': 'msg.dataText', text: comment.toString('base64') };
  return { '@type': 'msg.dataRaw', body: bocBase64(parts.body), init_state: parts.init === null ? '' : bocBase64(parts.init) };
}

/** The fields both v2 message shapes share, in toncenter's order (after hash, source, destination). */
function tonlibFields(parts: MessageParts, comment: Buffer | null): TonlibMessageFields {
  const info = parts.info;
  const internal = info.type === 'internal' ? info : null;
  return {
    value: (internal?.value.coins ?? 0n).toString(),
    extra_currencies: extraCurrencies(internal?.value.other),
    fwd_fee: (internal?.forwardFee ?? 0n).toString(),
    ihr_fee: (internal?.ihrFee ?? 0n).toString(),
    created_lt: (info.type === 'external-in' ? 0n : info.createdLt).toString(),
    body_hash: formatHash(parts.body.hash()),
    msg_data: msgData(parts, comment),
  };
}

/** v2 `ext.message` (inside ext.transaction). */
export function v2Message(cell: Cell, testOnly: boolean): ExtMessageJson {
  const parts = messageParts(cell);
  const comment = commentBytes(parts.body);
  const { source, destination } = ends(parts);
  return {
    '@type': 'ext.message',
    hash: formatHash(cell.hash()),
    source: source ? formatV2Address(source, testOnly) : '',
    destination: destination ? formatV2Address(destination, testOnly) : '',
    ...tonlibFields(parts, comment),
    // A comment reads as its text; a raw body as the legacy base64 of its root data.
    message: comment !== null ? comment.toString('utf8') : legacyMessageText(parts.body),
  };
}

/** v2 `raw.message` (inside raw.transaction of getTransactionsStd). */
export function v2MessageStd(cell: Cell, testOnly: boolean): RawMessageJson {
  const parts = messageParts(cell);
  const { source, destination } = ends(parts);
  return {
    '@type': 'raw.message',
    hash: formatHash(cell.hash()),
    source: accountAddress(source ? formatV2Address(source, testOnly) : ''),
    destination: accountAddress(destination ? formatV2Address(destination, testOnly) : ''),
    ...tonlibFields(parts, commentBytes(parts.body)),
  };
}

export interface V3MessageContent {
  hash: string;
  body: string;
  decoded: JsonObject | null;
}

export interface V3MessageJson {
  hash: string;
  source: string | null;
  destination: string | null;
  value: string | null;
  value_extra_currencies: Record<string, string> | null;
  fwd_fee: string | null;
  ihr_fee: string | null;
  extra_flags: string | null;
  created_lt: string | null;
  created_at: string | null;
  opcode: string | null;
  decoded_opcode: string | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: string | null;
  in_msg_tx_hash?: string;
  out_msg_tx_hash?: string;
  message_content: V3MessageContent;
  init_state: V3MessageContent | null;
  hash_norm?: string;
}

export interface V3MessageOptions {
  /** Hash of the transaction that received the message (written only when known). */
  inMsgTxHash?: Buffer;
  /** Hash of the transaction that created the message (written only when known). */
  outMsgTxHash?: Buffer;
  /** The message's own hash as base64 text, when the caller has it already: not computed again from the cell. */
  hash?: string;
  /** Its cells read from a BoC that merges equal cells (boc.ts's bocBase64): body and init written without hashing them. */
  uniqueCells?: boolean;
}

/** v3 Message. Field order follows the index's JSON. */
export function v3Message(cell: Cell, options: V3MessageOptions = {}): V3MessageJson {
  const parts = messageParts(cell);
  const info = parts.info;
  const internal = info.type === 'internal' ? info : null;
  const opcode = bodyOpcode(parts.body);
  const { source, destination } = ends(parts);
  const json: V3MessageJson = {
    hash: options.hash ?? formatHash(cell.hash()),
    source: source ? formatRawUpper(source) : null,
    destination: destination ? formatRawUpper(destination) : null,
    value: internal ? internal.value.coins.toString() : null,
    value_extra_currencies: internal ? extraCurrenciesMap(internal.value.other) : null,
    fwd_fee: internal ? internal.forwardFee.toString() : null,
    // The field once named ihr_fee now carries extra_flags; IHR itself is gone, so its fee is 0.
    ihr_fee: internal ? '0' : null,
    extra_flags: internal ? internal.ihrFee.toString() : null,
    created_lt: info.type === 'external-in' ? null : info.createdLt.toString(),
    created_at: info.type === 'external-in' ? null : String(info.createdAt),
    opcode: opcode === null ? null : formatOpcode(opcode),
    decoded_opcode: null,
    ihr_disabled: internal ? internal.ihrDisabled : null,
    bounce: internal ? internal.bounce : null,
    bounced: internal ? internal.bounced : null,
    import_fee: info.type === 'external-in' ? info.importFee.toString() : null,
    message_content: {
      hash: formatHash(parts.body.hash()),
      body: bocBase64(parts.body, options.uniqueCells),
      decoded: decodeMessageBody(parts.body),
    },
    init_state:
      parts.init === null ? null : { hash: formatHash(parts.init.hash()), body: bocBase64(parts.init, options.uniqueCells), decoded: null },
  };
  if (options.inMsgTxHash) json.in_msg_tx_hash = formatHash(options.inMsgTxHash);
  if (options.outMsgTxHash) json.out_msg_tx_hash = formatHash(options.outMsgTxHash);
  if (info.type === 'external-in') json.hash_norm = formatHash(normalizedExternalHash(info.dest, parts.body));
  return json;
}
