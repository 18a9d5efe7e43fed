import type { GlobalBlockId, GlobalConfig } from '../ton/global-config.js';
import type { MetadataFetchOptions } from '../index/metadata-fetch/start.js';
import type { GenesisSpec } from './genesis.js';
/** The resolved configuration of one tongate process: what `tongate start` runs with. */

export interface NetworkConfig {
  /** The network's name: mainnet, testnet, or any other lowercase name. */
  name: string;
  /** Where clients reach the network: {baseUrl}/api/v2, {baseUrl}/api/v3. No trailing slash, no path. */
  baseUrl: URL;
  /** global_id of the network's blocks (config param 19): -239 on mainnet, -3 on testnet. */
  globalId: number;
  /**
   * What serves it: `local` (an embedded chain and its index), `lite` (TON liteservers and tongate's own index,
   * src/chain/lite) or `upstream` (forwarded to a toncenter-compatible API, src/upstream).
   */
  backend: NetworkBackend;
  /**
   * For backend `lite`: the global config (liteservers, zero state), the file it came from, the index's start and
   * the most liteserver queries per second its follower makes; `trustedBlock`: the operator's checkpoint, already
   * in `globalConfig.initBlock` (kept apart to say where the chain of trust starts).
   */
  lite?: { configFile: string; globalConfig: GlobalConfig; indexFrom?: number; indexRps?: number; trustedBlock?: GlobalBlockId };
  /** For backend `upstream`: where and how requests are forwarded. */
  upstream?: UpstreamConfig;
  /** DNS root collections (raw addresses) whose items the index reads as domains (dns-roots.ts). */
  dnsRoots?: string[];
}

export type NetworkBackend = 'local' | 'lite' | 'upstream';

/** The upstream APIs of one network of kind `upstream` (see src/upstream/README.md). */
export interface UpstreamConfig {
  /** Base URLs standing for `/api/v2` (e.g. https://toncenter.com/api/v2), in failover order; empty: v2 answers 404. */
  v2: URL[];
  /** Base URLs standing for `/api/v3`, in failover order; empty: v3 answers 404. */
  v3: URL[];
  /** Sent as X-API-Key on every upstream request. A secret: never logged, never shown. */
  apiKey?: string;
  /** Upstream requests per second at most (undefined: no limit). */
  rps?: number;
  /** Upstream requests in flight at most. */
  concurrency: number;
  /** How long reads that change with each block are kept (0: not kept). */
  cacheMs: number;
  /** The longest a forwarded request may take, retries included. */
  timeoutMs: number;
  /** The largest response body passed on. */
  maxResponseBytes: number;
  /** How often each upstream URL is checked (getMasterchainInfo / masterchainInfo). */
  healthIntervalMs: number;
  /** How long an upstream URL's open circuit breaker stays open before one probe is let through. */
  breakerOpenMs: number;
}

export type LimiterFailureMode = 'local' | 'open' | 'closed';

export interface TongateConfig {
  networks: NetworkConfig[];
  /** One listener for every network ([host:]port), told apart by Host; otherwise one listener per base-URL port. */
  listen?: { host: string; port: number };
  tlsCert?: string;
  tlsKey?: string;
  /** Peers (CIDRs or addresses) whose X-Forwarded-For / X-Forwarded-Host / X-Forwarded-Proto are believed. */
  trustProxy: string[];
  dataDir: string;
  ephemeral: boolean;
  /** Local chains: the interval of auto mining (also when they start in manual mining and switch later). */
  blockIntervalMs: number;
  /** Local chains: blocks on a timer (auto) or only when asked (manual; `--block-interval 0` means it too). */
  mining: 'auto' | 'manual';
  /** Local chains: most transactions in one block. */
  maxBlockTransactions: number;
  faucetMnemonic: string[];
  /** Local chains: accounts a new chain's zero state holds (`--genesis FILE`, src/config/genesis.ts). */
  genesis?: GenesisSpec;
  adminToken?: string;
  access: boolean;
  databaseUrl?: string;
  redisUrl?: string;
  limiterFailure: LimiterFailureMode;
  storeTimeoutMs: number;
  /** A v3 index query's time budget; past it the query is stopped and answered 504. */
  queryTimeoutMs: number;
  bodyLimitBytes: number;
  logLevel: string;
  /** Log lines on stdout: JSON lines (the default, for log shippers) or pino-pretty's lines for people. */
  logFormat: 'json' | 'pretty';
  /** The offchain TEP-64 metadata fetcher (src/index/metadata-fetch); `enabled` false by default. */
  metadataFetch: MetadataFetchOptions;
}
