import type { GlobalConfig } from '../ton/global-config.js';
/** The resolved configuration of one tongate process: what `tongate start` runs with. */

export interface NetworkConfig {
  /** The network's name: mainnet, testnet, or any other lowercase name. */
  name: string;
  /** Where clients reach the network: {baseUrl}/api/v2, {baseUrl}/api/v3. No trailing slash, no path. */
  baseUrl: URL;
  /** global_id of the network's blocks (config param 19): -239 on mainnet, -3 on testnet. */
  globalId: number;
  /** What serves it: an embedded chain, or TON liteservers (src/chain/lite). */
  backend: 'local' | 'lite';
  /** Lite networks: the global config (liteservers, zero state) and the file it came from. */
  lite?: { configFile: string; globalConfig: GlobalConfig; indexFrom?: number };
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
  blockIntervalMs: number;
  faucetMnemonic: string[];
  adminToken?: string;
  access: boolean;
  databaseUrl?: string;
  redisUrl?: string;
  limiterFailure: LimiterFailureMode;
  storeTimeoutMs: number;
  bodyLimitBytes: number;
  logLevel: string;
}
