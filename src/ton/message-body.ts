/**
 * What toncenter reads out of a message body: a text comment (op 0 + a snake string, tonlib's
 * CellString rules), the 32-bit opcode, and the legacy `message` field of v2 messages.
 */
import type { Cell } from '@ton/core';
import { cellDataBytes } from './cell-data.js';

/** tonlib CellString limits: at most 1024 bytes in a chain of at most 16 further cells. */
const MAX_TEXT_BYTES = 1024;
const MAX_CHAIN = 16;

/**
 * The comment bytes of a text-comment body (op 0, then bytes whose every cell holds whole bytes and
 * at most one ref, the next piece), or null when the body is not a comment.
 */
export function commentBytes(body: Cell): Buffer | null {
  if (body.bits.length < 32) return null;
  const cs = body.beginParse();
  if (cs.loadUint(32) !== 0) return null;
  const pieces: Buffer[] = [];
  let total = 0;
  let slice = cs;
  for (let depth = 0; ; depth++) {
    if (slice.remainingBits % 8 !== 0 || slice.remainingRefs > 1 || depth > MAX_CHAIN) return null;
    const piece = slice.loadBuffer(slice.remainingBits / 8);
    total += piece.length;
    if (total > MAX_TEXT_BYTES) return null;
    pieces.push(piece);
    if (slice.remainingRefs === 0) return Buffer.concat(pieces);
    slice = slice.loadRef().beginParse();
  }
}

/** The first 32 bits of the body as an unsigned opcode, null when the body is shorter. */
export function bodyOpcode(body: Cell): number | null {
  return body.bits.length >= 32 ? body.beginParse().loadUint(32) : null;
}

/** v3 opcode text, Go's "0x%08x". */
export function formatOpcode(opcode: number): string {
  return `0x${opcode.toString(16).padStart(8, '0')}`;
}

/**
 * The legacy `message` field of a v2 message with a raw body: base64 of the root cell's data bytes
 * (padding bits zero) plus "\n", as the Python server's base64 codec wrote it and the C++ server keeps
 * for compatibility. An empty body gives "" (Python's codec writes nothing for no bytes).
 * Deliberately unlike the C++ server: it also zeroes the whole last byte when the data is
 * byte-aligned (a bug; it would report "hello" as "hell\0"), which is not reproduced here.
 */
export function legacyMessageText(body: Cell): string {
  const bytes = cellDataBytes(body);
  return bytes.length === 0 ? '' : `${bytes.toString('base64')}\n`;
}
