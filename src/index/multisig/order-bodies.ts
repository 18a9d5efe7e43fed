/**
 * The body of a message a multisig order would send, read into the `parsed_body` toncenter's /api/v3/multisig/orders
 * writes with `parse_actions=true` (ton-index-go parse/multisig_parse.go, models/parsed_bodies.go): one layout per
 * opcode it knows, its own field names (not message_content.decoded's scheme JSON), `parsed_body_type` naming it.
 * A body of an opcode it does not know, or one that does not read, is `unknown` with the opcode and the body's BoC.
 *
 * Numbers as toncenter's JSON has them: query ids and small fields are JSON numbers (Go uint64), amounts decimal
 * strings; BoCs base64 with CRC32C and no index (tonutils' ToBOC); addresses raw uppercase or null.
 */
import { Cell, loadMessageRelaxed, type Slice } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { address, boc, parseJettonBurn, parseJettonTransfer } from '../tokens/jetton-messages.js';
import { parseNftTransfer } from '../tokens/nft-messages.js';

export interface ParsedBody {
  type: string;
  body: Record<string, unknown>;
}

const TEXT_COMMENT = 0;
const ENCRYPTED_COMMENT = 0x2167da4b;
const STONFI_SWAP = 0x25938561;

const b64 = (bytes: Buffer | null) => (bytes ? bytes.toString('base64') : null);
const cellB64 = (cell: Cell) => boc(cell).toString('base64');
/** Go's uint64 query_id is a JSON number (a JavaScript client reads it as one too). */
const queryIdOf = (cs: Slice) => Number(cs.loadUintBig(64));

/** A snake string (the rest of the slice, then its first reference and on), or '' when it does not read. */
function snake(cs: Slice): string {
  try {
    return cs.loadStringTail();
  } catch {
    return '';
  }
}

/** Opened past the opcode (which the caller matched). */
function after(body: Cell, opcode: number): Slice {
  const cs = body.beginParse();
  if (cs.loadUint(32) !== opcode) throw new Error(`not opcode 0x${opcode.toString(16)}`);
  return cs;
}

/** A plain transfer: an empty body or a text comment (opcode 0). */
function tonTransfer(body: Cell): ParsedBody {
  const cs = body.beginParse();
  // toncenter reads a text comment from the opcode's first bit on (its text then starts with four NUL characters);
  // tongate reads it after the opcode, as every wallet shows it.
  if (cs.remainingBits >= 32) cs.skip(32);
  const comment = cs.remainingBits % 8 === 0 && cs.remainingRefs <= 1 ? snake(cs) : '';
  return { type: 'ton_transfer', body: { comment, encrypted: false } };
}

function unknown(body: Cell, opcode: number): ParsedBody {
  return { type: 'unknown', body: { opcode, data: cellB64(body) } };
}

/** A TON amount in TON, as tonutils prints it: "1.5", "0.000000001", "2". */
function tonDecimal(nano: bigint): string {
  const whole = nano / 1_000_000_000n;
  const fraction = (nano % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** What a jetton transfer's forward payload says: its kind, and a comment or a STON.fi swap's fields. */
function forwardPayloadFields(payload: Buffer | null): Record<string, unknown> {
  // toncenter's field order: the payload itself between the comment fields and its kind
  const fields: Record<string, unknown> = {
    comment: '',
    encrypted_comment: false,
    forward_payload: b64(payload),
    payload_sum_type: '',
    stonfi_swap_body: null,
  };
  if (!payload) return fields;
  const cs = Cell.fromBoc(payload)[0].beginParse();
  if (cs.remainingBits === 0) return fields;
  if (cs.remainingBits < 32) return { ...fields, payload_sum_type: 'Unknown' };
  const kind = cs.loadUint(32);
  if (kind === TEXT_COMMENT) return { ...fields, payload_sum_type: 'TextComment', comment: snake(cs) };
  if (kind === ENCRYPTED_COMMENT)
    return { ...fields, payload_sum_type: 'EncryptedTextComment', encrypted_comment: true, comment: snake(cs) };
  if (kind !== STONFI_SWAP) return { ...fields, payload_sum_type: 'Unknown' };
  try {
    const swap = { jetton_wallet: address(cs), min_amount: tonDecimal(cs.loadCoins()), user_address: address(cs) };
    return { ...fields, payload_sum_type: 'StonfiSwap', stonfi_swap_body: swap };
  } catch {
    return { ...fields, payload_sum_type: 'Unknown' };
  }
}

type Reader = (body: Cell, opcode: number) => Record<string, unknown> | null;

/** opcode -> [parsed_body_type, reader]; a reader throws or answers null when the body does not read. */
const READERS = new Map<number, [string, Reader]>([
  [
    0x0f8a7ea5,
    [
      'jetton_transfer',
      (body) => {
        const t = parseJettonTransfer(body);
        if (!t) return null;
        return {
          query_id: Number(BigInt(t.queryId)),
          amount: t.amount,
          destination: t.destination,
          response: t.responseDestination,
          custom_payload: b64(t.customPayload),
          forward_amount: t.forwardTonAmount,
          ...forwardPayloadFields(t.forwardPayload),
        };
      },
    ],
  ],
  [
    0x595f07bc,
    [
      'jetton_burn',
      (body) => {
        const b = parseJettonBurn(body);
        return b && { query_id: Number(BigInt(b.queryId)), amount: b.amount, response_destination: b.responseDestination };
      },
    ],
  ],
  ...[0x642b7d07, 0x00000015].map((mintOp): [number, [string, Reader]] => [
    mintOp,
    [
      'jetton_mint',
      (body, opcode) => {
        const cs = after(body, opcode);
        const queryId = queryIdOf(cs);
        const toAddress = address(cs);
        const tonAmount = cs.loadCoins().toString();
        const master = cs.loadRef().beginParse();
        master.loadUint(32);
        return {
          opcode,
          query_id: queryId,
          to_address: toAddress,
          ton_amount: tonAmount,
          master_msg_query_id: queryIdOf(master),
          master_msg_jetton_amount: master.loadCoins().toString(),
        };
      },
    ],
  ]),
  [
    0x5fcc3d14,
    [
      'nft_transfer',
      (body) => {
        const n = parseNftTransfer(body);
        return (
          n && {
            query_id: Number(BigInt(n.queryId)),
            new_owner: n.newOwner,
            response_destination: n.responseDestination,
            custom_payload: b64(n.customPayload),
            forward_amount: n.forwardAmount,
            forward_payload: b64(n.forwardPayload),
          }
        );
      },
    ],
  ],
  [ENCRYPTED_COMMENT, ['ton_transfer', (body) => ({ comment: snake(after(body, ENCRYPTED_COMMENT)), encrypted: true })]],
  [0x00009fd3, ['jetton_top_up', (body, op) => ({ query_id: queryIdOf(after(body, op)) })]],
  [
    0x6501f354,
    [
      'jetton_change_admin',
      (body, op) => {
        const cs = after(body, op);
        return { query_id: queryIdOf(cs), new_admin_address: address(cs) };
      },
    ],
  ],
  [0xfb88e119, ['jetton_claim_admin', (body, op) => ({ query_id: queryIdOf(after(body, op)) })]],
  [
    0xcb862902,
    [
      'jetton_change_content',
      (body, op) => {
        const cs = after(body, op);
        return { query_id: queryIdOf(cs), new_metadata_url: cs.loadStringTail() };
      },
    ],
  ],
  [
    0x235caf52,
    [
      'jetton_call_to',
      (body, op) => {
        const cs = after(body, op);
        const queryId = queryIdOf(cs);
        const toAddress = address(cs);
        const tonAmount = cs.loadCoins().toString();
        const action = cs.loadRef();
        const inner = action.beginParse();
        const actionOp = inner.remainingBits >= 32 ? inner.loadUint(32) : null;
        const actionType =
          actionOp === null
            ? ''
            : ({ 0xeed236d3: 'JettonSetStatus', 0x0f8a7ea5: 'JettonTransfer', 0x595f07bc: 'JettonBurn' }[actionOp] ?? 'Unknown');
        return { query_id: queryId, to_address: toAddress, ton_amount: tonAmount, action_type: actionType, action_data: cellB64(action) };
      },
    ],
  ],
  [
    0xeed236d3,
    [
      'jetton_set_status',
      (body, op) => {
        const cs = after(body, op);
        return { query_id: queryIdOf(cs), new_status: cs.loadUint(8) };
      },
    ],
  ],
  [
    0x00001000,
    [
      'single_nominator_withdraw',
      (body, op) => {
        const cs = after(body, op);
        return { query_id: queryIdOf(cs), coins: cs.loadCoins().toString() };
      },
    ],
  ],
  [
    0x00001001,
    [
      'single_nominator_change_validator',
      (body, op) => {
        const cs = after(body, op);
        return { query_id: queryIdOf(cs), validator_address: address(cs) };
      },
    ],
  ],
  [0x75097f5d, ['vesting_internal_transfer', (body, op) => vestingTransfer(after(body, op))]],
]);

/** A vesting wallet's send request: the message it carries, its destination, value, body and comment. */
function vestingTransfer(cs: Slice): Record<string, unknown> {
  const queryId = queryIdOf(cs);
  const sendMode = cs.loadUint(8);
  const message = loadMessageRelaxed(cs.loadRef().beginParse());
  if (message.info.type !== 'internal') {
    return { query_id: queryId, send_mode: sendMode, destination: null, value: null, message_body: null, comment: '' };
  }
  const text = message.body.beginParse();
  const comment = text.remainingBits >= 32 && text.loadUint(32) === TEXT_COMMENT ? snake(text) : '';
  return {
    query_id: queryId,
    send_mode: sendMode,
    destination: formatRawUpper(message.info.dest),
    value: message.info.value.coins.toString(),
    message_body: cellB64(message.body),
    comment,
  };
}

/** The parsed_body and parsed_body_type of a message body. */
export function parsedBody(body: Cell): ParsedBody {
  const cs = body.beginParse();
  if (cs.remainingBits < 32) return tonTransfer(body);
  const opcode = cs.loadUint(32);
  if (opcode === TEXT_COMMENT) return tonTransfer(body);
  const known = READERS.get(opcode);
  if (!known) return unknown(body, opcode);
  try {
    const read = known[1](body, opcode);
    if (read) return { type: known[0], body: read };
  } catch {
    // does not read as its opcode says: unknown, as toncenter
  }
  return unknown(body, opcode);
}
