/**
 * The options of networks of kind `upstream` (src/upstream): which backend serves each network, the
 * toncenter-compatible APIs it forwards to, the key tongate presents there and the budget it keeps to.
 * They join the one option table (options.ts), so flags, file keys and environment variables agree.
 */
import { asNetworkPairs, asSecretNetworkPairs } from './per-network.js';
import type { OptionSpec } from './option-spec.js';
import { ConfigError } from './errors.js';

const integer =
  (min: number, max: number) =>
  (raw: unknown, label: string): number => {
    const text = String(raw).trim();
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new ConfigError(label, `expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return Number(text);
  };

export const UPSTREAM_OPTIONS: OptionSpec[] = [
  {
    key: 'backend',
    flag: '--backend <network=kind>',
    description:
      'what serves a network: local (an embedded chain, the default), lite (TON liteservers) or upstream (forwarded to --upstream-v2/--upstream-v3)',
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'upstreamV2',
    flag: '--upstream-v2 <network=url>',
    description: 'a toncenter-compatible v2 API for an upstream network, e.g. mainnet=https://toncenter.com/api/v2 (repeat for failover)',
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'upstreamV3',
    flag: '--upstream-v3 <network=url>',
    description: 'a toncenter-compatible v3 API for an upstream network, e.g. mainnet=https://toncenter.com/api/v3 (repeat for failover)',
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'upstreamKey',
    flag: '--upstream-key <network=key>',
    description: "the API key tongate sends upstream as X-API-Key (clients' own keys are never forwarded)",
    repeatable: true,
    parse: asSecretNetworkPairs,
  },
  {
    key: 'upstreamRps',
    flag: '--upstream-rps <network=n>',
    description: "the upstream's request budget per second; beyond it tongate queues, then answers 503 itself",
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'upstreamConcurrency',
    flag: '--upstream-concurrency <network=n>',
    description: 'requests in flight to an upstream network at most (default 64); beyond it tongate queues, then answers 503',
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'upstreamCache',
    flag: '--upstream-cache <network=ms>',
    description: "how long reads that change with each block are kept (default 1000; at most the upstream's block interval; 0: off)",
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'upstreamTimeout',
    flag: '--upstream-timeout <ms>',
    description: 'the longest a forwarded request may take, retries included (then 504)',
    defaultValue: 10_000,
    parse: integer(100, 600_000),
  },
  {
    key: 'upstreamMaxResponse',
    flag: '--upstream-max-response <bytes>',
    description: 'the largest upstream response body passed on (then 502)',
    defaultValue: 32 * 1_048_576,
    parse: integer(1024, 1024 * 1_048_576),
  },
  {
    key: 'upstreamHealthInterval',
    flag: '--upstream-health-interval <ms>',
    description:
      'how often each upstream URL is checked with getMasterchainInfo / masterchainInfo (a passed check closes its circuit breaker)',
    defaultValue: 5000,
    parse: integer(100, 3_600_000),
  },
  {
    key: 'upstreamBreakerOpen',
    flag: '--upstream-breaker-open <ms>',
    description: "how long an upstream URL's circuit breaker stays open (its requests go to the next URL) before one probe is let through",
    defaultValue: 2000,
    parse: integer(100, 600_000),
  },
];
