/**
 * Parameters of v2 methods: one declaration per parameter, parsed the same way from a query string (GET),
 * a JSON body (POST) and JSON-RPC `params`. Integers may come as numbers or numeric strings (JSON-RPC clients
 * send both); int64 values stay bigint so no precision is lost. TON values (addresses, hashes, BoCs, shards,
 * stacks) are parsed here by the src/ton codecs, so a handler only ever sees valid values and every bad one
 * is a 422 that names its parameter.
 */
import type { Address, Cell, TupleItem } from '@ton/core';
import { parseAddress } from '../../ton/address.js';
import { parseV2Shard } from '../../ton/block-id.js';
import { bocBudget, parseBoc, type BocBudget } from '../../ton/boc.js';
import { TonInputError } from '../../ton/errors.js';
import { describeJson } from '../../util/show-input.js';
import { parseHash } from '../../ton/hash.js';
import { parseStack } from '../../ton/stack-input.js';
import { badParameter } from '../../http/api-error.js';

export type ParamType =
  | 'int'
  | 'int64'
  | 'string'
  | 'bool'
  | 'json'
  | 'string[]'
  /** Any address form (raw, friendly std/url-safe, bounceable or not, test-only or not) -> Address. */
  | 'address'
  /** 32 bytes as hex, base64 or base64url -> Buffer. */
  | 'hash'
  /** A list of hashes: repeated query keys, a comma-separated string or a JSON array -> Buffer[]. */
  | 'hash[]'
  /** A base64 (or base64url) BoC with one root -> Cell. */
  | 'boc'
  /** v2 shard id: signed decimal int64 (or unsigned, or 0x-hex) -> unsigned bigint. */
  | 'shard'
  /** A get-method argument stack in any accepted form (legacy arrays, tonlib typed, v3) -> TupleItem[]. */
  | 'stack'
  /** A get-method: its name, or its numeric id -> string | number. */
  | 'method';

export interface ParamSpec {
  type: ParamType;
  required?: boolean;
  default?: unknown;
  /** Bounds of 'int' / 'int64' values (inclusive); the message says which bound was crossed. */
  min?: number | bigint;
  max?: number | bigint;
  /** What the parameter means, for the OpenAPI document. */
  description?: string;
}

export type ParamSpecs = Record<string, ParamSpec>;

type ValueOf<S extends ParamSpec> = S['type'] extends 'int'
  ? number
  : S['type'] extends 'int64' | 'shard'
    ? bigint
    : S['type'] extends 'bool'
      ? boolean
      : S['type'] extends 'string[]'
        ? string[]
        : S['type'] extends 'json'
          ? unknown
          : S['type'] extends 'address'
            ? Address
            : S['type'] extends 'hash'
              ? Buffer
              : S['type'] extends 'hash[]'
                ? Buffer[]
                : S['type'] extends 'boc'
                  ? Cell
                  : S['type'] extends 'stack'
                    ? TupleItem[]
                    : S['type'] extends 'method'
                      ? string | number
                      : string;

/** The parsed parameters: required ones (or with a default) are always present. */
export type ParsedParams<S extends ParamSpecs> = {
  [K in keyof S]: S[K]['required'] extends true
    ? ValueOf<S[K]>
    : S[K] extends { default: unknown }
      ? ValueOf<S[K]>
      : ValueOf<S[K]> | undefined;
};

const INT = /^-?\d+$/;
/** The words toncenter's C++ server reads as booleans (userver's parser; tonlib's Python server took the same). */
const TRUE_WORDS = new Set(['1', 't', 'true', 'y', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'f', 'false', 'n', 'no', 'off']);
export const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;
/** FunC names may hold almost any character ('?', '!', quotes); only whitespace and length are refused. */
const METHOD_NAME = /^\S{1,128}$/;
/** Libraries per request: the C++ server has no documented cap; this keeps a request bounded. */
const MAX_HASHES = 256;

/** Runs a src/ton codec; its TonInputError (which names the bad value) becomes a 422 naming the parameter. */
export function codec<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TonInputError) throw badParameter(name, error.message);
    throw error;
  }
}

function checkBounds<T extends number | bigint>(name: string, spec: ParamSpec, value: T): T {
  if (spec.min !== undefined && value < spec.min) throw badParameter(name, `${value} is below the minimum ${spec.min}`);
  if (spec.max !== undefined && value > spec.max) throw badParameter(name, `${value} is above the maximum ${spec.max}`);
  return value;
}

function parseOne(name: string, spec: ParamSpec, raw: unknown, budget: BocBudget): unknown {
  switch (spec.type) {
    case 'int': {
      const value = typeof raw === 'string' && INT.test(raw.trim()) ? Number(raw.trim()) : raw;
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw badParameter(name, `expected an integer, got ${show(raw)}`);
      if (value < -2147483648 || value > 4294967295) throw badParameter(name, `integer out of range: ${value}`);
      return checkBounds(name, spec, value);
    }
    case 'int64': {
      const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
      if (text === undefined || !INT.test(text)) throw badParameter(name, `expected an integer, got ${show(raw)}`);
      // Signed 64-bit, as the stores keep lts (SQLite and PostgreSQL integers); no lt comes near 2^63.
      // The length is checked first: BigInt() of a megabyte of digits takes a tenth of a second.
      const value = text.replace(/^-?0*/, '').length <= 20 ? BigInt(text) : undefined;
      if (value === undefined || value < INT64_MIN || value > INT64_MAX) {
        throw badParameter(name, `integer out of the int64 range ${INT64_MIN}..${INT64_MAX}: ${show(raw)}`);
      }
      return checkBounds(name, spec, value);
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      // toncenter's C++ server: a JSON integer is true when not 0; a text one of its words, any case.
      if (typeof raw === 'number' && Number.isInteger(raw)) return raw !== 0;
      const text = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      if (TRUE_WORDS.has(text)) return true;
      if (FALSE_WORDS.has(text)) return false;
      throw badParameter(name, `expected true or false, got ${show(raw)}`);
    }
    case 'string':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number') return String(raw);
      throw badParameter(name, `expected a string, got ${show(raw)}`);
    case 'string[]': {
      const items = Array.isArray(raw) ? raw : [raw];
      if (!items.every((item) => typeof item === 'string')) throw badParameter(name, `expected a list of strings, got ${show(raw)}`);
      return items;
    }
    case 'json':
      return raw;
    case 'address':
      return codec(name, () => parseAddress(raw).address);
    case 'hash':
      return codec(name, () => parseHash(raw));
    case 'hash[]': {
      const items = (Array.isArray(raw) ? raw : [raw]).flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]));
      const hashes = items.filter((item) => item !== '');
      if (hashes.length === 0) throw badParameter(name, 'expected at least one hash');
      if (hashes.length > MAX_HASHES) throw badParameter(name, `at most ${MAX_HASHES} hashes per request, got ${hashes.length}`);
      return hashes.map((item, i) => codec(`${name}[${i}]`, () => parseHash(typeof item === 'string' ? item.trim() : item)));
    }
    case 'boc':
      return codec(name, () => parseBoc(raw, name, budget));
    case 'shard':
      return codec(name, () => parseV2Shard(typeof raw === 'string' ? raw.trim() : raw));
    case 'stack': {
      // GET carries the stack as a JSON string in the query; POST and JSON-RPC as an array.
      let value = raw;
      if (typeof raw === 'string') {
        try {
          value = JSON.parse(raw);
        } catch {
          throw badParameter(name, 'Stack should be array (a JSON array in the query string)');
        }
      }
      return codec(name, () => parseStack(value, name, budget));
    }
    case 'method': {
      if (typeof raw === 'number') {
        if (!Number.isSafeInteger(raw) || raw < -2147483648 || raw > 2147483647)
          throw badParameter(name, `method id out of the int32 range: ${raw}`);
        return raw;
      }
      if (typeof raw !== 'string') throw badParameter(name, `expected a get-method name or numeric id, got ${show(raw)}`);
      const text = raw.trim();
      if (INT.test(text)) return parseOne(name, { type: 'method' }, Number(text), budget);
      if (!METHOD_NAME.test(text)) throw badParameter(name, `not a get-method name: ${show(raw)}`);
      return text;
    }
  }
}

/** The value as JSON, cut short (bounded work whatever its size or nesting: see showInput). */
function show(raw: unknown): string {
  const text = describeJson(raw, 80);
  return text.length > 80 ? text.slice(0, 77) + '...' : text;
}

export function parseParams<S extends ParamSpecs>(specs: S, input: Record<string, unknown>): ParsedParams<S> {
  const out: Record<string, unknown> = {};
  // One budget for every BoC of the request (boc.ts): three 1,024-cell BoCs in one estimateFee cost as
  // much as one would, three times over.
  const budget = bocBudget();
  for (const [name, spec] of Object.entries(specs)) {
    // Own fields only: a parameter must never be read from Object.prototype.
    const raw = Object.prototype.hasOwnProperty.call(input, name) ? input[name] : undefined;
    if (raw === undefined || raw === null || raw === '') {
      if (spec.required) throw badParameter(name, 'missing required parameter');
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    out[name] = parseOne(name, spec, raw, budget);
  }
  return out as ParsedParams<S>;
}
