/**
 * Parameters of v2 methods: one declaration per parameter, parsed the same way from a query string (GET),
 * a JSON body (POST) and JSON-RPC `params`. Integers may come as numbers or numeric strings (JSON-RPC clients
 * send both); int64 values stay bigint so no precision is lost.
 */
import { badParameter } from '../errors.js';

export type ParamType = 'int' | 'int64' | 'string' | 'bool' | 'json' | 'string[]';

export interface ParamSpec {
  type: ParamType;
  required?: boolean;
  default?: unknown;
}

export type ParamSpecs = Record<string, ParamSpec>;

type ValueOf<S extends ParamSpec> = S['type'] extends 'int'
  ? number
  : S['type'] extends 'int64'
    ? bigint
    : S['type'] extends 'bool'
      ? boolean
      : S['type'] extends 'string[]'
        ? string[]
        : S['type'] extends 'json'
          ? unknown
          : string;

/** The parsed parameters: required ones (or with a default) are always present. */
export type ParsedParams<S extends ParamSpecs> = {
  [K in keyof S]: S[K]['required'] extends true ? ValueOf<S[K]> : S[K] extends { default: unknown } ? ValueOf<S[K]> : ValueOf<S[K]> | undefined;
};

const INT = /^-?\d+$/;

function parseOne(name: string, spec: ParamSpec, raw: unknown): unknown {
  switch (spec.type) {
    case 'int': {
      const value = typeof raw === 'string' && INT.test(raw.trim()) ? Number(raw.trim()) : raw;
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw badParameter(name, `expected an integer, got ${show(raw)}`);
      if (value < -2147483648 || value > 4294967295) throw badParameter(name, `integer out of range: ${value}`);
      return value;
    }
    case 'int64': {
      const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
      if (text === undefined || !INT.test(text)) throw badParameter(name, `expected an integer, got ${show(raw)}`);
      const value = BigInt(text);
      if (value < -(1n << 63n) || value >= 1n << 64n) throw badParameter(name, `integer out of the 64-bit range: ${text}`);
      return value;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      const text = String(raw).toLowerCase();
      if (['true', '1'].includes(text)) return true;
      if (['false', '0'].includes(text)) return false;
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
  }
}

function show(raw: unknown): string {
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length > 80 ? text.slice(0, 77) + '...' : text;
}

export function parseParams<S extends ParamSpecs>(specs: S, input: Record<string, unknown>): ParsedParams<S> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const raw = input[name];
    if (raw === undefined || raw === null || raw === '') {
      if (spec.required) throw badParameter(name, 'missing required parameter');
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    out[name] = parseOne(name, spec, raw);
  }
  return out as ParsedParams<S>;
}
