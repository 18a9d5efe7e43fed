/**
 * The options of the offchain TEP-64 metadata fetcher (src/index/metadata-fetch): off unless asked, since
 * tongate assumes no internet and a token's uri is whatever its deployer wrote. They join the one option table
 * (options.ts), so flags, file keys and environment variables agree.
 */
import { ConfigError } from './errors.js';
import type { OptionSpec } from './option-spec.js';
import type { MetadataFetchOptions } from '../index/metadata-fetch/start.js';

const integer =
  (min: number, max: number) =>
  (raw: unknown, label: string): number => {
    const text = String(raw).trim();
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new ConfigError(label, `expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return Number(text);
  };

const boolean = (raw: unknown, label: string): boolean => {
  if (typeof raw === 'boolean') return raw;
  const text = String(raw).trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new ConfigError(label, `expected true or false, got ${JSON.stringify(raw)}`);
};

/** A gateway base URL: http(s), no query or fragment (the ipfs path is appended to it). */
const gateway = (raw: unknown, label: string): URL => {
  const text = String(raw).trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(label, `not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(label, `expected an http or https URL, got ${JSON.stringify(text)}`);
  if (url.search || url.hash) throw new ConfigError(label, 'the gateway URL must not have a query or fragment (e.g. https://ipfs.io/ipfs)');
  return url;
};

export const METADATA_FETCH_OPTIONS: OptionSpec[] = [
  {
    key: 'fetchMetadata',
    flag: '--fetch-metadata',
    description: "fetch tokens' offchain TEP-64 metadata (uri) in the background to fill token_info (off: is_indexed false)",
    defaultValue: false,
    parse: boolean,
  },
  {
    key: 'fetchMetadataAllowPrivate',
    flag: '--fetch-metadata-allow-private',
    description: 'let metadata uris reach loopback, private and link-local addresses (refused by default)',
    defaultValue: false,
    parse: boolean,
  },
  {
    key: 'ipfsGateway',
    flag: '--ipfs-gateway <url>',
    description: 'where ipfs:// metadata uris are fetched, e.g. https://ipfs.io/ipfs (none: not fetched)',
    parse: gateway,
  },
  {
    key: 'fetchMetadataTimeout',
    flag: '--fetch-metadata-timeout <ms>',
    description: "one metadata fetch attempt's budget: connect, headers, body and redirects",
    defaultValue: 10_000,
    parse: integer(100, 600_000),
  },
  {
    key: 'fetchMetadataMaxSize',
    flag: '--fetch-metadata-max-size <bytes>',
    description: 'the largest metadata body read (a bigger one is dropped at that size)',
    defaultValue: 1_048_576,
    parse: integer(1024, 64 * 1_048_576),
  },
  {
    key: 'fetchMetadataConcurrency',
    flag: '--fetch-metadata-concurrency <n>',
    description: 'metadata fetches in flight at most (at most 2 to one host)',
    defaultValue: 4,
    parse: integer(1, 256),
  },
];

export interface MetadataFetchValues {
  fetchMetadata: boolean;
  fetchMetadataAllowPrivate: boolean;
  ipfsGateway?: URL;
  fetchMetadataTimeout: number;
  fetchMetadataMaxSize: number;
  fetchMetadataConcurrency: number;
}

/** The fetcher's configuration; its own options without --fetch-metadata cannot do anything: refused (exit 2). */
export function metadataFetchConfig(values: MetadataFetchValues): MetadataFetchOptions {
  if (!values.fetchMetadata) {
    if (values.fetchMetadataAllowPrivate) throw new ConfigError('--fetch-metadata-allow-private', 'has no effect without --fetch-metadata');
    if (values.ipfsGateway) throw new ConfigError('--ipfs-gateway', 'has no effect without --fetch-metadata');
  }
  return {
    enabled: values.fetchMetadata,
    allowPrivate: values.fetchMetadataAllowPrivate,
    ipfsGateway: values.ipfsGateway,
    timeoutMs: values.fetchMetadataTimeout,
    maxBytes: values.fetchMetadataMaxSize,
    concurrency: values.fetchMetadataConcurrency,
  };
}
