/**
 * `message_content.decoded` of a v3 message: the body read as toncenter's indexer reads it, or null.
 *
 * One body, as toncenter's marker decodes it:
 *  - an empty cell is `{"@type":"empty_cell"}`; fewer than 32 bits (or an exotic cell) is null;
 *  - a text comment keeps the form toncenter's API gives it for old clients,
 *    `{"@type":"text_comment","comment":..,"type":"text_comment"}` (nested ones are `{"@type":"text_comment","text":..}`);
 *  - wallet v5 and highload-v3 requests by their opcodes, other opcodes by the scheme table, and bodies
 *    with an unknown opcode as signed wallet externals (wallets.ts);
 *  - every cell inside (`Cell`, `^Cell` fields: forward and custom payloads, message bodies of a
 *    wallet's actions, ...) is replaced by its own decoding when it has one, down to 11 levels below the
 *    body, as toncenter rewrites every BoC its decoding contains; otherwise it stays a base64 BoC.
 * Nothing here throws: a body that does not read, or asks for more than the work limits, is null.
 */
import type { Cell } from '@ton/core';
import { commentBytes } from '../message-body.js';
import { ctor, NO_PARSE, OVER_BUDGET, rest, type Budget, type Ctx, type Json, type JsonObject, type Kind } from './kinds.js';
import { SCHEMES_BY_OPCODE } from './schemes.js';
import { HIGHLOAD_V3_INTERNAL, signedExternal, W5_OPCODES, walletRequest } from './wallets.js';

/** Levels of nested cells decoded below the body (toncenter stops rewriting BoCs after ten passes). */
const MAX_NESTED_LEVEL = 11;
/** References followed for one body, nested cells included (toncenter's printer allows 4096 too). */
const MAX_REFS = 4096;
/**
 * Cell work for one body: each nested decoding attempt costs one, each BoC written the number of
 * distinct cells it holds. A v5 request's 255 messages cost a few hundred; a hostile body stops here.
 */
const MAX_CELL_WORK = 8192;

const EMPTY_CELL: JsonObject = Object.freeze({ '@type': 'empty_cell' }) as JsonObject;

/** What toncenter falls back to when a v5 / highload-v3 request does not read: its name and the rest. */
const REQUEST_FALLBACK: ReadonlyMap<number, Kind> = new Map([
  [W5_OPCODES.internal, ctor('w5_internal_signed_request', 32, W5_OPCODES.internal, [['rest', rest]])],
  [W5_OPCODES.external, ctor('w5_external_signed_request', 32, W5_OPCODES.external, [['rest', rest]])],
  [W5_OPCODES.extension, ctor('w5_extension_action_request', 32, W5_OPCODES.extension, [['rest', rest]])],
  [HIGHLOAD_V3_INTERNAL, ctor('highload_v3_internal_request', 32, HIGHLOAD_V3_INTERNAL, [['rest', rest]])],
]);

function isMiss(error: unknown): boolean {
  return error === NO_PARSE || error instanceof Error;
}

/** Tries `read`; a miss (bits that do not match, a short cell) is null, work limits and bad text propagate. */
function attempt(read: () => Json): Json | null {
  try {
    return read();
  } catch (error) {
    if (isMiss(error)) return null;
    throw error;
  }
}

/** One cell decoded as toncenter's `decode_boc` does; null when nothing reads. */
function decodeCell(cell: Cell, ctx: Ctx): Json | null {
  if (cell.isExotic) return null;
  if (cell.bits.length === 0 && cell.refs.length === 0) return EMPTY_CELL;
  if (cell.bits.length < 32) return null;
  const opcode = cell.beginParse().preloadUint(32);
  const request = REQUEST_FALLBACK.get(opcode);
  if (request !== undefined) {
    const json = attempt(() => walletRequest(cell, opcode, ctx));
    if (json !== null) return json;
    return attempt(() => request(cell.beginParse(), ctx));
  }
  const schemes = SCHEMES_BY_OPCODE.get(opcode);
  if (schemes === undefined) return signedExternal(cell, ctx);
  for (const kind of schemes) {
    const json = attempt(() => kind(cell.beginParse(), ctx));
    if (json !== null) return json;
  }
  return null;
}

/** Distinct cells under (and including) `root`, charged to the budget before they are serialized. */
function chargeCells(root: Cell, budget: Budget): void {
  const seen = new Set<Cell>([root]);
  const stack = [root];
  while (stack.length > 0) {
    if (--budget.cells < 0) throw OVER_BUDGET;
    for (const child of stack.pop()!.refs) {
      if (!seen.has(child)) {
        seen.add(child);
        stack.push(child);
      }
    }
  }
}

function nested(cell: Cell, ctx: Ctx): Json {
  if (--ctx.budget.cells < 0) throw OVER_BUDGET;
  if (ctx.level < MAX_NESTED_LEVEL) {
    const json = decodeCell(cell, { budget: ctx.budget, level: ctx.level + 1, nested });
    if (json !== null) return json;
  }
  chargeCells(cell, ctx.budget);
  return cell.toBoc({ idx: false, crc32: false }).toString('base64');
}

function newCtx(): Ctx {
  const budget: Budget = { refs: MAX_REFS, cells: MAX_CELL_WORK };
  return { budget, level: 0, nested };
}

/** toncenter's API keeps the first form it gave text comments, which clients rely on. */
function legacyComment(text: string): JsonObject {
  return { '@type': 'text_comment', comment: text, type: 'text_comment' };
}

/**
 * One cell as toncenter's marker writes it, with no form kept for old clients (a comment is
 * `{"@type":"text_comment","text":..}`): what its `/api/v3/decode` answers for a body. Null when nothing reads.
 */
export function decodeBody(body: Cell): JsonObject | null {
  try {
    const json = decodeCell(body, newCtx());
    return json === null || typeof json !== 'object' ? null : json;
  } catch {
    // No match, text toncenter could not have written as JSON (NOT_JSON), work over the limits
    // (OVER_BUDGET), or anything @ton/core refuses: all mean "no decoding", never an error.
    return null;
  }
}

/** `message_content.decoded` of a message body. */
export function decodeMessageBody(body: Cell): JsonObject | null {
  try {
    if (!body.isExotic && body.bits.length >= 32 && body.beginParse().preloadUint(32) === 0) {
      const comment = commentBytes(body);
      if (comment !== null) return legacyComment(comment.toString('utf8'));
    }
  } catch {
    return null; // a cell @ton/core refuses to read: no decoding, as below
  }
  const json = decodeBody(body);
  if (json !== null && json['@type'] === 'text_comment' && typeof json.text === 'string') return legacyComment(json.text);
  return json;
}
