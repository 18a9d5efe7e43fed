/**
 * Resolves the configuration from its sources, in rising priority: defaults, the config file
 * (--config tongate.yaml|.json), TONGATE_* environment variables, flags. Bad configuration throws a
 * ConfigError that names the option.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseYaml } from './yaml.js';
import { ConfigError } from './errors.js';
import { DEFAULT_BLOCK_INTERVAL_MS } from '../chain/local/options.js';
import { OPTIONS } from './options.js';
import { envName, flagName, type OptionSpec } from './option-spec.js';
import { resolveNetworks } from './networks.js';
import { applyBackendKinds } from './backends.js';
import { applyLite } from './lite.js';
import { applyDnsRoots } from './dns-roots.js';
import type { NetworkPairs } from './per-network.js';
import { applyUpstreams, type UpstreamValues } from './upstream.js';
import { metadataFetchConfig, type MetadataFetchValues } from './metadata-fetch-options.js';
import type { LimiterFailureMode, TongateConfig } from './types.js';

export interface ConfigSources {
  /** Commander's parsed options (camelCase keys); only the flags actually given. */
  flags: Record<string, unknown>;
  env: Record<string, string | undefined>;
}

export function loadConfig({ flags, env }: ConfigSources): TongateConfig {
  const configPath = (flags.config as string | undefined) ?? env.TONGATE_CONFIG;
  const file = configPath ? readConfigFile(configPath) : {};
  const values: Record<string, unknown> = {};

  for (const spec of OPTIONS) {
    const fileValue = fileValueOf(file, spec);
    if (fileValue !== undefined) values[spec.key] = spec.parse(fileValue, `${configPath}: ${spec.key}`);
    const envValue = env[envName(spec.key)];
    if (envValue !== undefined && envValue !== '') values[spec.key] = spec.parse(envValue, envName(spec.key));
    if (flags[spec.key] !== undefined) values[spec.key] = spec.parse(flags[spec.key], flagName(spec));
    if (values[spec.key] === undefined && spec.defaultValue !== undefined) values[spec.key] = spec.defaultValue;
  }
  const unknownKeys = Object.keys(file).filter((key) => key !== 'networks' && !OPTIONS.some((spec) => spec.key === key));
  if (unknownKeys.length > 0) {
    throw new ConfigError(`${configPath}: ${unknownKeys[0]}`, `unknown option (known: networks, ${OPTIONS.map((s) => s.key).join(', ')})`);
  }

  const config: TongateConfig = {
    networks: applyDnsRoots(
      applyUpstreams(
        applyLite(
          applyBackendKinds(resolveNetworks(values.network as string[] | undefined), values.backend as NetworkPairs | undefined),
          values.liteConfig as NetworkPairs | undefined,
          values.indexFrom as NetworkPairs | undefined,
          values.indexRps as NetworkPairs | undefined,
          values.liteTrustedBlock as NetworkPairs | undefined,
        ),
        values as unknown as UpstreamValues,
      ),
      values.dnsRoot as NetworkPairs | undefined,
    ),
    listen: values.listen as TongateConfig['listen'],
    tlsCert: values.tlsCert as string | undefined,
    tlsKey: values.tlsKey as string | undefined,
    trustProxy: values.trustProxy as string[],
    dataDir: values.dataDir as string,
    ephemeral: values.ephemeral as boolean,
    blockIntervalMs: (values.blockInterval as number) || DEFAULT_BLOCK_INTERVAL_MS,
    mining: values.mining === 'manual' || values.blockInterval === 0 ? 'manual' : 'auto',
    maxBlockTransactions: values.maxBlockTransactions as number,
    faucetMnemonic: values.faucetMnemonic as string[],
    genesis: values.genesis as TongateConfig['genesis'],
    adminToken: values.adminToken as string | undefined,
    access: values.access === 'on',
    databaseUrl: values.databaseUrl as string | undefined,
    redisUrl: values.redisUrl as string | undefined,
    limiterFailure: values.limiterFailure as LimiterFailureMode,
    storeTimeoutMs: values.storeTimeout as number,
    queryTimeoutMs: values.queryTimeout as number,
    bodyLimitBytes: values.bodyLimit as number,
    logLevel: values.logLevel as string,
    logFormat: values.logFormat as TongateConfig['logFormat'],
    metadataFetch: metadataFetchConfig(values as unknown as MetadataFetchValues),
  };
  checkTls(config);
  return config;
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError('--config', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError('--config', `${path} is not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('--config', `${path} must hold a mapping of options`);
  return parsed as Record<string, unknown>;
}

/** The file may write networks as a map `networks: {mainnet: URL}` as well as the flag's `network: [name=url]`. */
function fileValueOf(file: Record<string, unknown>, spec: OptionSpec): unknown {
  if (spec.key === 'network' && file.networks !== undefined) {
    const networks = file.networks;
    if (typeof networks !== 'object' || networks === null || Array.isArray(networks)) {
      throw new ConfigError('networks', 'expected a mapping of network name to base URL');
    }
    return Object.entries(networks).map(([name, url]) => `${name}=${String(url)}`);
  }
  return file[spec.key];
}

function checkTls(config: TongateConfig): void {
  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey)) {
    throw new ConfigError(config.tlsCert ? '--tls-key' : '--tls-cert', 'give both --tls-cert and --tls-key');
  }
  const https = config.networks.filter((n) => n.baseUrl.protocol === 'https:');
  if (https.length > 0 && !config.tlsCert && config.trustProxy.length === 0) {
    throw new ConfigError(
      '--network',
      `${https[0].name} has an https base URL: give --tls-cert and --tls-key, or --trust-proxy when a TLS proxy is in front`,
    );
  }
  for (const file of [config.tlsCert, config.tlsKey]) {
    if (file) {
      try {
        readFileSync(file);
      } catch (err) {
        throw new ConfigError(
          file === config.tlsCert ? '--tls-cert' : '--tls-key',
          `cannot read ${file}: ${(err as NodeJS.ErrnoException).code}`,
        );
      }
    }
  }
}
