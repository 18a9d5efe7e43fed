/**
 * What an option of `tongate start` is (OptionSpec) and the parsers its tables share: the option tables
 * (options.ts, upstream-options.ts, metadata-fetch-options.ts, dns-roots.ts) all build on this file, and
 * load.ts and the CLI read flags and environment variables by its names.
 */
import { ConfigError } from './errors.js';

export interface OptionSpec {
  /** Config-file key and commander attribute name (camelCase). */
  key: string;
  /** Commander flag, e.g. '--data-dir <dir>'. */
  flag: string;
  description: string;
  /** Shown in --help and docs/configuration.md; applied when no source sets the option. */
  defaultValue?: unknown;
  /** How --help shows the default when the value itself reads badly there (24 words, say). */
  defaultHelp?: string;
  /** Repeatable flag (collected into an array); env and file give a comma-separated string or an array. */
  repeatable?: boolean;
  /** Turns a raw value (string from a flag or env, any JSON/YAML value from a file) into the typed value. */
  parse(raw: unknown, label: string): unknown;
}

export function envName(key: string): string {
  return 'TONGATE_' + key.replace(/[A-Z]/g, (c) => '_' + c).toUpperCase();
}

export function flagName(spec: OptionSpec): string {
  return spec.flag.split(' ')[0];
}

export const asString = (raw: unknown, label: string): string => {
  if (typeof raw === 'string' && raw.trim() !== '') return raw.trim();
  if (typeof raw === 'number') return String(raw);
  throw new ConfigError(label, `expected a non-empty string, got ${JSON.stringify(raw)}`);
};

export const asInteger =
  (min: number, max: number) =>
  (raw: unknown, label: string): number => {
    const text = typeof raw === 'number' ? String(raw) : asString(raw, label);
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new ConfigError(label, `expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return Number(text);
  };

export const asBoolean = (raw: unknown, label: string): boolean => {
  if (typeof raw === 'boolean') return raw;
  const text = asString(raw, label).toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new ConfigError(label, `expected true or false, got ${JSON.stringify(raw)}`);
};

export const oneOf =
  (...values: string[]) =>
  (raw: unknown, label: string): string => {
    const text = asString(raw, label);
    if (!values.includes(text)) throw new ConfigError(label, `expected one of ${values.join(', ')}, got ${JSON.stringify(text)}`);
    return text;
  };

export const asList = (raw: unknown, label: string): string[] => {
  const items = Array.isArray(raw) ? raw : asString(raw, label).split(',');
  return items.map((item) => asString(item, label));
};

export const asUrl =
  (...protocols: string[]) =>
  (raw: unknown, label: string): string => {
    const text = asString(raw, label);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ConfigError(label, `not a URL: ${JSON.stringify(text)}`);
    }
    if (!protocols.includes(url.protocol)) {
      throw new ConfigError(label, `expected a ${protocols.join(' or ')} URL, got ${JSON.stringify(text)}`);
    }
    return text;
  };

export const asListen = (raw: unknown, label: string): { host: string; port: number } => {
  const text = asString(raw, label);
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port < 1 || port > 65535) {
    throw new ConfigError(label, `expected [host:]port, e.g. 0.0.0.0:8080, got ${JSON.stringify(text)}`);
  }
  return { host: (match[1] ?? '0.0.0.0').replace(/^\[|\]$/g, ''), port };
};

export const asMnemonic = (raw: unknown, label: string): string[] => {
  const words = (Array.isArray(raw) ? raw.map((w) => asString(w, label)) : asString(raw, label).split(/\s+/)).filter(Boolean);
  if (words.length !== 24) throw new ConfigError(label, `expected 24 words, got ${words.length}`);
  return words;
};
