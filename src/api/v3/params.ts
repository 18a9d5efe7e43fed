/**
 * Query parameters of v3 endpoints: one declaration per parameter drives the parsing, the typed
 * handler input and the OpenAPI document. Parsing follows toncenter's index where it is defined:
 *   addresses  raw `wc:hex` or user-friendly (std or url-safe base64), normalized to raw uppercase
 *   hashes     64 hex (optional 0x) or 44 base64/base64url characters
 *   shard      unsigned hex (optional 0x), else signed decimal
 *   opcode     0x-hex, bare hex (leading zeros aside, at most 32 bits), or signed 32-bit decimal
 *   utime      an integer, or a float (truncated)
 *   lists      repeated keys (`?address=A&address=B`), bracketed keys (`?address[]=A`, as axios and PHP
 *              write arrays; toncenter's fiber reads `name[]` as `name`), and a comma-separated value splits
 *   single     a value given twice: the last counts (toncenter's query decoder); no comma split
 *   bool       Go's strconv.ParseBool words (1 t true, 0 f false, any case) and `on` (fiber's schema decoder)
 *   sort       asc/desc or a/d, any case; default desc (`sort|none`: no default, the endpoint's own order)
 *   limit      default 10, 1..1000, above 1000 is 422 `limit is not allowed: N > 1000`; below 1 counts as 1
 * Every failure is a 422 that names the parameter and echoes (a bounded excerpt of) the value.
 */
import { formatRawUpper, parseAddress } from '../../ton/address.js';
import { parseV3Shard } from '../../ton/block-id.js';
import { TonInputError } from '../../ton/errors.js';
import { showInput } from '../../util/show-input.js';
import { parseHash } from '../../ton/hash.js';
import { ApiError, badParameter } from '../../http/api-error.js';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;

export type ParamType =
  | 'int32'
  | 'int64'
  | 'utime'
  | 'bool'
  | 'address'
  | 'address|null'
  | 'address[]'
  | 'string'
  | 'string[]'
  | 'hash'
  | 'hash[]'
  | 'shard'
  | 'opcode'
  | 'direction'
  | 'direction|both'
  | 'sort'
  | 'sort|none'
  | 'limit'
  | 'offset';

export interface ParamSpec {
  type: ParamType;
  description: string;
  required?: boolean;
  /** The message when a required parameter is missing (toncenter's own wording where it has one). */
  missing?: string;
  /** Its status (default 422; toncenter answers 401 on the endpoints it proxies to v2). */
  missingStatus?: number;
  /** Lists: the most values accepted. */
  maxItems?: number;
  default?: unknown;
}

export type ParamSpecs = Record<string, ParamSpec>;

interface Values {
  int32: number;
  int64: bigint;
  utime: number;
  bool: boolean;
  address: string;
  'address|null': string | null;
  'address[]': string[];
  string: string;
  'string[]': string[];
  hash: Buffer;
  'hash[]': Buffer[];
  shard: bigint;
  opcode: number;
  direction: 'in' | 'out';
  /** Token transfers: `both` (either side) is the same as no direction. */
  'direction|both': 'in' | 'out' | 'both';
  sort: 'asc' | 'desc';
  /** A sort with no default: absent means the endpoint's own order (jetton/wallets: by balance only when given). */
  'sort|none': 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Parsed parameters: required ones, lists, limit/offset/sort and those with a default are always present. */
export type Parsed<S extends ParamSpecs> = {
  [K in keyof S]: S[K]['required'] extends true
    ? Values[S[K]['type']]
    : S[K]['type'] extends 'address[]' | 'string[]' | 'hash[]' | 'limit' | 'offset' | 'sort'
      ? Values[S[K]['type']]
      : S[K] extends { default: unknown }
        ? Values[S[K]['type']]
        : Values[S[K]['type']] | undefined;
};

const LIST_TYPES = new Set<ParamType>(['address[]', 'string[]', 'hash[]']);
const DECIMAL = /^-?\d+$/;

/**
 * The values a query string gave for `name` (and `name[]`), empty ones dropped. `split`: a comma-separated
 * value is several values (list parameters; real wallets send `address=A,B`).
 */
function rawValues(query: Record<string, unknown>, name: string, split: boolean): string[] {
  const given = [name, `${name}[]`].flatMap((key) => {
    const raw = Object.prototype.hasOwnProperty.call(query, key) ? query[key] : undefined;
    return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  });
  // Query values are strings; anything else (a JSON body never reaches here) is not read as text.
  const texts = given.filter((v): v is string => typeof v === 'string');
  return (split ? texts.flatMap((v) => v.split(',')) : texts).map((v) => v.trim()).filter((v) => v.length > 0);
}

function integer(name: string, text: string, min: bigint, max: bigint): bigint {
  if (!DECIMAL.test(text)) throw badParameter(name, `expected an integer, got '${showInput(text)}'`);
  // Leading zeros aside, more than 20 digits is out of every range here; BigInt() of a huge text is slow.
  const digits = text.replace(/^-?0*/, '');
  const value = digits.length <= 20 ? BigInt(text) : undefined;
  if (value === undefined || value < min || value > max) throw badParameter(name, `${showInput(text)} is out of range ${min}..${max}`);
  return value;
}

/** Codec errors (bad address, hash, shard) already say what was wrong with what: prefix the parameter. */
function codec<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TonInputError) throw badParameter(name, error.message);
    throw error;
  }
}

function parseOne(name: string, type: ParamType, text: string): unknown {
  switch (type) {
    case 'int32':
      return Number(integer(name, text, -(2n ** 31n), 2n ** 31n - 1n));
    case 'int64':
      // Signed 64-bit, as the index stores lts (SQLite and PostgreSQL bigint); no lt comes near 2^63.
      return integer(name, text, -(2n ** 63n), 2n ** 63n - 1n);
    case 'utime': {
      const value = Number(text);
      if (text === '' || !Number.isFinite(value) || value < 0 || value >= 2 ** 32)
        throw badParameter(name, `expected a unix time, got '${showInput(text)}'`);
      return Math.trunc(value);
    }
    case 'bool': {
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === 't' || lower === '1' || lower === 'on') return true;
      if (lower === 'false' || lower === 'f' || lower === '0') return false;
      throw badParameter(name, `expected true or false, got '${showInput(text)}'`);
    }
    case 'address':
    case 'address[]':
      return codec(name, () => formatRawUpper(parseAddress(text).address));
    case 'address|null':
      return text === 'null' ? null : codec(name, () => formatRawUpper(parseAddress(text).address));
    case 'string':
    case 'string[]':
      return text;
    case 'hash':
    case 'hash[]':
      // An unencoded '+' of a base64 hash arrives as ' '; the strict base64 check still guards the result.
      return codec(name, () => parseHash(text.length === 44 ? text.replace(/ /g, '+') : text));
    case 'shard':
      return codec(name, () => parseV3Shard(text));
    case 'opcode': {
      const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
      // Leading zeros do not count toward the 32 bits, as in toncenter's strconv.ParseUint.
      const significant = hex.replace(/^0+(?=.)/, '');
      if (/^[0-9a-fA-F]+$/.test(hex) && significant.length <= 8) return parseInt(significant, 16);
      if (DECIMAL.test(text)) return Number(integer(name, text, -(2n ** 31n), 2n ** 31n - 1n)) >>> 0;
      throw badParameter(name, `expected 0x-hex or a signed 32-bit decimal, got '${showInput(text)}'`);
    }
    case 'direction':
      if (text !== 'in' && text !== 'out') throw new ApiError(422, `${name} should be one of: in, out (got '${showInput(text)}')`);
      return text;
    case 'direction|both':
      if (text !== 'in' && text !== 'out' && text !== 'both')
        throw new ApiError(422, `${name} should be one of: in, out, both (got '${showInput(text)}')`);
      return text;
    case 'sort':
    case 'sort|none': {
      const lower = text.toLowerCase();
      if (lower === 'asc' || lower === 'a') return 'asc';
      if (lower === 'desc' || lower === 'd') return 'desc';
      throw new ApiError(422, `wrong value for ${name} parameter: '${showInput(text)}' (expected asc or desc)`);
    }
    case 'limit': {
      const value = integer(name, text, -(2n ** 31n), 2n ** 31n - 1n);
      if (value > BigInt(MAX_LIMIT)) throw new ApiError(422, `limit is not allowed: ${value} > ${MAX_LIMIT}`);
      return Math.max(1, Number(value));
    }
    case 'offset':
      return Math.max(0, Number(integer(name, text, -(2n ** 31n), 2n ** 31n - 1n)));
  }
}

function defaultOf(spec: ParamSpec): unknown {
  if (LIST_TYPES.has(spec.type)) return [];
  if (spec.type === 'limit') return spec.default ?? DEFAULT_LIMIT;
  if (spec.type === 'offset') return 0;
  if (spec.type === 'sort') return 'desc';
  return spec.default;
}

export function parseQuery<S extends ParamSpecs>(specs: S, query: Record<string, unknown>): Parsed<S> {
  const parsed: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const list = LIST_TYPES.has(spec.type);
    const values = rawValues(query, name, list);
    if (values.length === 0) {
      if (spec.required) throw new ApiError(spec.missingStatus ?? 422, spec.missing ?? `failed to parse parameter ${name}: required`);
      parsed[name] = defaultOf(spec);
      continue;
    }
    if (list) {
      if (spec.maxItems !== undefined && values.length > spec.maxItems) {
        throw badParameter(name, `at most ${spec.maxItems} values are allowed, got ${values.length}`);
      }
      parsed[name] = values.map((v) => parseOne(name, spec.type, v));
    } else {
      // A single-valued parameter given twice: the last one counts, as in toncenter (fiber's schema decoder).
      parsed[name] = parseOne(name, spec.type, values[values.length - 1]);
    }
  }
  return parsed as Parsed<S>;
}

/** limit + offset, as every list endpoint takes them. */
export const PAGE_PARAMS = {
  limit: { type: 'limit', description: 'Limit number of queried rows. Use with *offset* to batch read.' },
  offset: { type: 'offset', description: 'Skip first N rows. Use with *limit* to batch read.' },
} as const satisfies ParamSpecs;

export const SORT_PARAM = {
  sort: { type: 'sort', description: 'Sort order: `asc` or `desc` (default).' },
} as const satisfies ParamSpecs;

/** Time and lt windows (both ends inclusive). */
export const WINDOW_PARAMS = {
  start_utime: { type: 'utime', description: 'Only rows with time >= start_utime.' },
  end_utime: { type: 'utime', description: 'Only rows with time <= end_utime.' },
  start_lt: { type: 'int64', description: 'Only rows with lt >= start_lt.' },
  end_lt: { type: 'int64', description: 'Only rows with lt <= end_lt.' },
} as const satisfies ParamSpecs;

/** The reader's Window from parsed window parameters. */
export function windowOf(p: { start_utime?: number; end_utime?: number; start_lt?: bigint; end_lt?: bigint }) {
  return { startUtime: p.start_utime, endUtime: p.end_utime, startLt: p.start_lt, endLt: p.end_lt };
}

/** Go's strconv.ParseBool, which toncenter's request settings use: anything else is no setting at all. */
function goBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/**
 * The envelope keys a request asks to leave empty: toncenter's `X-No-Address-Book` / `X-No-Metadata` headers,
 * or their query forms `x_no_address_book` / `x_no_metadata` (the header wins), answer `{}` for that key.
 */
export function emptiedKeys(headers: Record<string, unknown>, query: Record<string, unknown>): ('address_book' | 'metadata')[] {
  const setting = (header: string, name: string) => {
    const raw = headers[header] ?? (Object.prototype.hasOwnProperty.call(query, name) ? query[name] : undefined);
    const text = Array.isArray(raw) ? raw[0] : raw;
    return typeof text === 'string' ? goBool(text) === true : false;
  };
  return [
    ...(setting('x-no-address-book', 'x_no_address_book') ? (['address_book'] as const) : []),
    ...(setting('x-no-metadata', 'x_no_metadata') ? (['metadata'] as const) : []),
  ];
}
