/**
 * Field kinds: the small interpreter that reads a TL-B value from a slice and writes it the way
 * toncenter's marker prints it (its tlbc-generated printers writing through tlb::JsonPrinter):
 *  - a constructor is an object whose first key is `"@type": <constructor name>` (no `@type` for an
 *    anonymous constructor `_`), its fields follow in scheme order;
 *  - every integer (`uintN`, `intN`, `## N`, the length of a VarUInteger) is a decimal string;
 *  - `bitsN` is upper-case hex (TON's bit-string text: a trailing `_` marks an incomplete nibble);
 *  - `Bool` is a JSON boolean;
 *  - `VarUInteger n`, `Coins`, `Grams`, `Maybe`, `Either` are the objects of their own constructors
 *    (`var_uint`, `nanocoins`, `nanograms`, `nothing_from_maybe` / `something_from_maybe`,
 *    `first_from_either` / `second_from_either`), because the scheme file declares them as ordinary types;
 *  - a `Cell` (the rest of the slice) or `^Cell` is written as its BoC in base64 (no index, no CRC),
 *    then replaced by that cell's own decoding when it has one (see decode.ts, `nested`);
 *  - a reference `^X` that is a field is X itself; a `^X` that is a type argument (`Maybe ^X`) is
 *    wrapped as `{"cell_reference": X}`, as the library's RefT printer does.
 * A kind throws NO_PARSE when the bits do not match (toncenter then tries the next scheme); the caller
 * turns any throw into "no decoding", never into an error.
 */
import type { Cell, Slice } from '@ton/core';

export type Json = string | boolean | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** Work left for one message body, shared by its nested cells. */
export interface Budget {
  /** References that may still be followed. */
  refs: number;
  /** Cell work left: nested decodings attempted and cells of the BoCs written. */
  cells: number;
}

/** What a kind needs besides the slice. */
export interface Ctx {
  budget: Budget;
  /** Nesting level of the body being read: 0 for the message body, +1 for each decoded nested cell. */
  level: number;
  /** A `Cell` / `^Cell` field: the cell's own decoding when it has one, else its BoC in base64. */
  nested: (cell: Cell, ctx: Ctx) => Json;
}

export type Kind = (s: Slice, ctx: Ctx) => Json;

/** The one value thrown when bits do not match a scheme; preallocated so a miss costs no stack trace. */
export const NO_PARSE = Object.freeze({ noParse: true });
/** Thrown when toncenter's printer would write text that is not JSON (its result is then dropped: null). */
export const NOT_JSON = Object.freeze({ notJson: true });
/** Thrown when a body asks for more work than its budget allows: the whole decoding is null. */
export const OVER_BUDGET = Object.freeze({ overBudget: true });

export function need(ok: boolean): void {
  if (!ok) throw NO_PARSE;
}

function needBits(s: Slice, n: number): void {
  if (s.remainingBits < n) throw NO_PARSE;
}

/** `uintN`, `## N`: a decimal string. */
export function uint(n: number): Kind {
  return (s) => {
    needBits(s, n);
    return n <= 48 ? String(s.loadUint(n)) : s.loadUintBig(n).toString();
  };
}

/** `intN`: a decimal string. */
export function int(n: number): Kind {
  return (s) => {
    needBits(s, n);
    return n <= 48 ? String(s.loadInt(n)) : s.loadIntBig(n).toString();
  };
}

/**
 * Loads `n` bits as TON writes a bit string: upper-case hex, and when `n` is not a whole number of
 * nibbles, the last nibble completed by a 1 and zeros and marked with `_` (@ton/core's BitString text).
 */
export function loadHex(s: Slice, n: number): string {
  if (n % 8 === 0)
    return s
      .loadBuffer(n / 8)
      .toString('hex')
      .toUpperCase();
  if (n % 4 === 0)
    return (
      s
        .loadBuffer((n - 4) / 8)
        .toString('hex')
        .toUpperCase() + s.loadUint(4).toString(16).toUpperCase()
    );
  return s.loadBits(n).toString(); // the rare incomplete nibble: @ton/core's own text
}

/** `bitsN`: TON's upper-case hex of the bits. */
export function bits(n: number): Kind {
  return (s) => {
    needBits(s, n);
    return loadHex(s, n);
  };
}

export const bool: Kind = (s) => {
  needBits(s, 1);
  return s.loadBit();
};

/** Bits needed for `#< n`. */
function lessWidth(n: number): number {
  return 32 - Math.clz32(n - 1);
}

/** `VarUInteger n`: `var_uint$_ len:(#< n) value:(uint (len * 8))`. */
export function varUint(n: number): Kind {
  const width = lessWidth(n);
  return (s) => {
    needBits(s, width);
    const len = s.loadUint(width);
    need(len < n);
    needBits(s, len * 8);
    return { '@type': 'var_uint', len: String(len), value: s.loadUintBig(len * 8).toString() };
  };
}

/** `VarUInteger 16`: jetton amounts, and inside Coins and Grams. */
export const varUint16 = varUint(16);
/** `Coins`: `nanocoins$_ amount:(VarUInteger 16)`. */
export const coins: Kind = (s, ctx) => ({ '@type': 'nanocoins', amount: varUint16(s, ctx) });
/** `Grams`: `nanograms$_ amount:(VarUInteger 16)`. */
export const grams: Kind = (s, ctx) => ({ '@type': 'nanograms', amount: varUint16(s, ctx) });

/**
 * A constructor without fields, one frozen object shared by every decoding (they are written out as
 * they are, never changed): fewer objects per message for the most common values.
 */
export function constant(name: string): JsonObject {
  return Object.freeze({ '@type': name }) as JsonObject;
}

const NOTHING = constant('nothing_from_maybe');

export function maybe(value: Kind): Kind {
  return (s, ctx): JsonObject => {
    needBits(s, 1);
    if (!s.loadBit()) return NOTHING;
    return { '@type': 'something_from_maybe', value: value(s, ctx) };
  };
}

export function either(left: Kind, right: Kind): Kind {
  return (s, ctx): JsonObject => {
    needBits(s, 1);
    if (!s.loadBit()) return { '@type': 'first_from_either', value: left(s, ctx) };
    return { '@type': 'second_from_either', value: right(s, ctx) };
  };
}

/** Follows a reference: the next cell's slice, charged to the budget. Exotic cells are not read. */
export function enterRef(s: Slice, ctx: Ctx): Slice {
  need(s.remainingRefs > 0);
  if (--ctx.budget.refs < 0) throw OVER_BUDGET;
  const cell = s.loadRef();
  need(!cell.isExotic);
  return cell.beginParse();
}

/** A field `x:^X`: X read from the referenced cell (what is left in that cell is not checked). */
export function ref(inner: Kind): Kind {
  return (s, ctx) => inner(enterRef(s, ctx), ctx);
}

/** `^X` as a type argument (`Maybe ^X`, `Either X ^X`): the library's RefT wraps it. */
export function refArg(inner: Kind): Kind {
  return (s, ctx) => ({ cell_reference: inner(enterRef(s, ctx), ctx) });
}

/** `Cell` / `Any`: the rest of the slice, bits and references, as one cell. */
export const rest: Kind = (s, ctx) => {
  const cell = s.asCell();
  s.skip(s.remainingBits);
  while (s.remainingRefs > 0) s.loadRef();
  return ctx.nested(cell, ctx);
};

/** `^Cell`: the referenced cell. */
export const refCell: Kind = (s, ctx) => {
  need(s.remainingRefs > 0);
  if (--ctx.budget.refs < 0) throw OVER_BUDGET;
  return ctx.nested(s.loadRef(), ctx);
};

/** `Bytes` (`_ _:Cell = Bytes`): an anonymous constructor with one anonymous field, hence the key "". */
export const bytes: Kind = (s, ctx) => ({ '': rest(s, ctx) });

const MAX_SNAKE_CELLS = 1000;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `SnakeString`: every bit of this cell and of a chain of single references, the last partial byte
 * padded with zeros; more than one reference in a cell, or text that is not UTF-8, does not parse.
 */
export const snakeString: Kind = (s, ctx) => {
  const pieces: Buffer[] = [];
  let slice = s;
  for (let cells = 1; ; cells++) {
    need(cells <= MAX_SNAKE_CELLS && slice.remainingRefs <= 1);
    const n = slice.remainingBits;
    const whole = n >> 3;
    if (whole > 0) pieces.push(slice.loadBuffer(whole));
    if (n & 7) pieces.push(Buffer.from([slice.loadUint(n & 7) << (8 - (n & 7))]));
    if (slice.remainingRefs === 0) break;
    slice = enterRef(slice, ctx);
  }
  try {
    return utf8.decode(Buffer.concat(pieces));
  } catch {
    throw NO_PARSE;
  }
};

export type Field = readonly [name: string, kind: Kind];

/**
 * A constructor: its tag (`bits` wide, checked and consumed) and fields. `name` null is the
 * anonymous `_`, written without "@type".
 */
export function ctor(name: string | null, tagBits: number, tag: number, fields: readonly Field[]): Kind {
  return (s, ctx) => {
    if (tagBits > 0) {
      needBits(s, tagBits);
      need(s.loadUint(tagBits) === tag);
    }
    const out: JsonObject = name === null ? {} : { '@type': name };
    for (const [key, kind] of fields) out[key] = kind(s, ctx);
    return out;
  };
}

/** A type with several constructors told apart by their tags: the first one whose tag matches. */
export function oneOf(choices: readonly (readonly [tagBits: number, tag: number, kind: Kind])[]): Kind {
  return (s, ctx) => {
    for (const [tagBits, tag, kind] of choices) {
      if (s.remainingBits >= tagBits && s.preloadUint(tagBits) === tag) return kind(s, ctx);
    }
    throw NO_PARSE;
  };
}
