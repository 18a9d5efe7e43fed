/**
 * `GET /api/v3/decode` and `POST /api/v3/decode`: opcodes named and message bodies decoded on request, by the same
 * tables `decoded_opcode` and `message_content.decoded` come from (src/ton/opcode-names.ts, src/ton/decoded). No
 * index, no chain: pure work on the input, bounded before it starts.
 *
 * As toncenter's ton-index-go answers (`GetDecode`, `PostDecode`, `processDecode`):
 *  - `opcodes[]`: hex (with or without `0x`) tried first, then unsigned decimal, then signed 32-bit decimal; each
 *    answers its name, or `unknown`;
 *  - `bodies[]`: a BoC in base64 or hex; each answers the marker's JSON (a comment is
 *    `{"@type":"text_comment","text":..}`, not the old form message documents keep), or `{"error":"unknown: ..."}`
 *    when no scheme reads it;
 *  - at most 1,000 of each: `opcodes list exceeds maximum length of 1000` (422).
 * Where tongate differs: a body that is not a BoC at all (not base64 or hex, or no valid bag of cells) is a 422
 * naming `bodies[i]`, where toncenter answers that slot `{"error":"unknown: failed to ..."}`; bad input is a 4xx here.
 */
import type { Cell } from '@ton/core';
import { BOC_MAX_BYTES, parseBoc, type BocBudget } from '../../../ton/boc.js';
import { decodeBody } from '../../../ton/decoded/decode.js';
import type { JsonObject } from '../../../ton/decoded/kinds.js';
import { opcodeName } from '../../../ton/opcode-names.js';
import { ApiError, badParameter } from '../../../http/api-error.js';
import { TonInputError } from '../../../ton/errors.js';
import { showInput } from '../../../util/show-input.js';
import { defineEndpoint, definePostEndpoint, ref } from '../endpoint.js';

/** toncenter's cap, on each list. */
export const DECODE_MAX_ITEMS = 1000;
/**
 * Cells of all the bodies of one request (ours: toncenter has none). Bodies are parsed and decoded on the HTTP
 * thread; a thousand real bodies (a transfer and its payload: 1-3 cells each) fit, as does one wallet request of
 * 255 messages, while a request of a thousand 1,024-cell bags does not.
 */
export const DECODE_MAX_CELLS = 8_192;
/** Bytes of all the bodies of one request: a thousand bodies of 256 bytes, or 16 maximal messages. */
export const DECODE_MAX_BYTES = 16 * BOC_MAX_BYTES;

const HEX = /^[0-9a-fA-F]+$/;
const DECIMAL = /^[+-]?\d+$/;

/** An opcode as toncenter reads it: hex first (any leading zeros), then decimal, then signed 32-bit decimal. */
export function parseOpcode(text: string, index: number): number {
  const digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  const significant = digits.replace(/^0+(?=.)/, '');
  if (HEX.test(digits) && significant.length <= 8) return parseInt(significant, 16);
  if (DECIMAL.test(digits) && digits.replace(/^[+-]?0*/, '').length <= 10) {
    const value = Number(digits);
    if (value >= 0 && value <= 0xffffffff && !digits.startsWith('-')) return value;
    if (value >= -(2 ** 31) && value < 2 ** 31) return value >>> 0;
  }
  throw new ApiError(422, `invalid opcode format at index ${index}: ${showInput(text)}`);
}

/** A body as base64 (standard or url-safe) or hex, checked as every BoC from a client is (src/ton/boc.ts). */
function parseBody(text: string, index: number, budget: BocBudget): Cell {
  const name = `bodies[${index}]`;
  const base64 = HEX.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex').toString('base64') : text;
  try {
    return parseBoc(base64, name, budget);
  } catch (error) {
    // The client's own text in the message, not the base64 a hex body was turned into.
    if (error instanceof TonInputError) throw badParameter(name, `'${showInput(text)}' is not a BoC in base64 or hex (${error.reason})`);
    throw error;
  }
}

/** Why a BoC has no decoding, in toncenter's words. */
function undecoded(cell: Cell): string {
  if (cell.isExotic) return 'unknown: exotic cell';
  if (cell.bits.length < 32) return `unknown: boc is too small, size ${cell.bits.length}`;
  return 'unknown: no parser succeeded';
}

function decode(opcodes: string[], bodies: string[]): { opcodes: string[]; bodies: JsonObject[] } {
  if (opcodes.length > DECODE_MAX_ITEMS) throw new ApiError(422, `opcodes list exceeds maximum length of ${DECODE_MAX_ITEMS}`);
  if (bodies.length > DECODE_MAX_ITEMS) throw new ApiError(422, `bodies list exceeds maximum length of ${DECODE_MAX_ITEMS}`);
  const names = opcodes.map((text, i) => opcodeName(parseOpcode(text.trim(), i)) ?? 'unknown');
  // Every body is parsed before any is decoded: a bad one is refused before the work starts.
  const budget: BocBudget = { bytes: DECODE_MAX_BYTES, cells: DECODE_MAX_CELLS, maxBytes: DECODE_MAX_BYTES, maxCells: DECODE_MAX_CELLS };
  const cells = bodies.map((text, i) => parseBody(text.trim(), i, budget));
  return { opcodes: names, bodies: cells.map((cell) => decodeBody(cell) ?? { error: undecoded(cell) }) };
}

/** The two lists, declared once: GET reads them from the query, POST from the JSON body. */
const LISTS = {
  opcodes: { type: 'string[]', description: 'Opcodes to name: hex (with or without 0x) or decimal, at most 1000.' },
  bodies: { type: 'string[]', description: 'Message bodies to decode: BoCs in base64 or hex, at most 1000.' },
} as const;

export const decodeGet = defineEndpoint({
  path: '/decode',
  tag: 'utils',
  summary: "Names of opcodes and decodings of message bodies, as messages' decoded_opcode and message_content.decoded",
  params: LISTS,
  response: ref('DecodeResponse'),
  async handle(p) {
    return decode(p.opcodes, p.bodies);
  },
});

export const decodePost = definePostEndpoint({
  path: '/decode',
  tag: 'utils',
  summary: 'The same as GET /decode, for lists too long for a URL: a JSON body {"opcodes":[...],"bodies":[...]}',
  body: LISTS,
  missing: {},
  response: ref('DecodeResponse'),
  async handle(p) {
    return decode(p.opcodes ?? [], p.bodies ?? []);
  },
});
