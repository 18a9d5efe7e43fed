/**
 * Every option of `tongate start`, in one table: the general options here, then the tables of the rooms that
 * have their own (upstream, metadata fetch, DNS roots). Each entry's flag, config-file key, environment variable
 * and parser come from it (option-spec.ts: what an entry is), so the three sources can never disagree.
 */
import { asBoolean, asInteger, asList, asListen, asMnemonic, asString, asUrl, oneOf, type OptionSpec } from './option-spec.js';
import { DEFAULT_FAUCET_MNEMONIC } from './defaults.js';
import { DEFAULT_BLOCK_INTERVAL_MS, DEFAULT_MAX_BLOCK_TRANSACTIONS } from '../chain/local/options.js';
import { UPSTREAM_OPTIONS } from './upstream-options.js';
import { METADATA_FETCH_OPTIONS } from './metadata-fetch-options.js';
import { DNS_ROOT_OPTIONS } from './dns-roots.js';
import { asNetworkPairs } from './per-network.js';
import { readGenesisFile } from './genesis.js';

/** pino's levels, and `silent`: what --log-level takes, and what its help lists. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const OPTIONS: OptionSpec[] = [
  {
    key: 'network',
    flag: '--network <name=url>',
    description: 'a network and its base URL (repeat for each network; replaces the default pair)',
    repeatable: true,
    parse: (raw, label) => asList(raw, label),
  },
  {
    key: 'listen',
    flag: '--listen <[host:]port>',
    description: 'one listening address for all networks, told apart by Host (default: one listener per base-URL port)',
    parse: asListen,
  },
  {
    key: 'liteConfig',
    flag: '--lite-config <network=file>',
    description: 'TON global config (liteservers) of a lite network (default: the public mainnet or testnet config shipped with tongate)',
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'indexFrom',
    flag: '--index-from <network=seqno>',
    description: "a lite network's empty index starts at this masterchain block (back-fill) instead of where tongate starts",
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'liteTrustedBlock',
    flag: '--lite-trusted-block <network=seqno:root_hash:file_hash>',
    description:
      "a lite network's chain of trust starts at this masterchain key block (your own checkpoint) instead of the config's init block",
    repeatable: true,
    parse: asNetworkPairs,
  },
  {
    key: 'indexRps',
    flag: '--index-rps <network=n>',
    description:
      "most liteserver queries per second a lite network's index makes (default 100); HTTP reads keep half of each liteserver's concurrency",
    repeatable: true,
    parse: asNetworkPairs,
  },
  { key: 'tlsCert', flag: '--tls-cert <file>', description: 'PEM certificate for https base URLs', parse: asString },
  { key: 'tlsKey', flag: '--tls-key <file>', description: 'PEM private key for https base URLs', parse: asString },
  {
    key: 'trustProxy',
    flag: '--trust-proxy <cidrs>',
    description: 'comma-separated proxies whose X-Forwarded-* headers are believed; https base URLs are then served as plain HTTP',
    defaultValue: [],
    parse: (raw, label) => asList(raw, label),
  },
  {
    key: 'dataDir',
    flag: '--data-dir <dir>',
    description: 'where chains, keys and the index are stored',
    defaultValue: './.tongate',
    parse: asString,
  },
  { key: 'ephemeral', flag: '--ephemeral', description: 'keep nothing on disk', defaultValue: false, parse: asBoolean },
  {
    key: 'blockInterval',
    flag: '--block-interval <ms>',
    description: 'milliseconds between blocks of the local chains; 0: manual mining',
    defaultValue: DEFAULT_BLOCK_INTERVAL_MS,
    parse: (raw, label) => (raw === 0 || raw === '0' ? 0 : asInteger(10, 3_600_000)(raw, label)),
  },
  {
    key: 'maxBlockTransactions',
    flag: '--max-block-transactions <n>',
    description:
      'local chains: most transactions in one block; the rest waits for the next (a small one spreads traces over blocks, as on a busy network)',
    defaultValue: DEFAULT_MAX_BLOCK_TRANSACTIONS,
    parse: asInteger(1, 1_000_000),
  },
  {
    key: 'mining',
    flag: '--mining <mode>',
    description: 'local chains: auto (a block every --block-interval) or manual (blocks only when asked: POST /devnet/mine, tongate mine)',
    defaultValue: 'auto',
    parse: oneOf('auto', 'manual'),
  },
  {
    key: 'faucetMnemonic',
    flag: '--faucet-mnemonic <words>',
    description: "24 words of the local chains' faucet wallets",
    defaultValue: DEFAULT_FAUCET_MNEMONIC.split(' '),
    defaultHelp: 'the public mnemonic the banner prints',
    parse: asMnemonic,
  },
  {
    key: 'genesis',
    flag: '--genesis <file>',
    description:
      'YAML or JSON list of accounts new local chains start with: address + balance + code + data BoCs, or wallet version + mnemonic + balance',
    parse: (raw, label) => readGenesisFile(asString(raw, label)),
  },
  {
    key: 'adminToken',
    flag: '--admin-token <token>',
    description: 'bearer token of the admin API, /metrics and the /devnet controls (admin API off without it)',
    parse: asString,
  },
  { key: 'access', flag: '--access <on|off>', description: 'API keys and rate limits', defaultValue: 'on', parse: oneOf('on', 'off') },
  {
    key: 'databaseUrl',
    flag: '--database-url <url>',
    description: 'PostgreSQL for keys and the index (scaled out)',
    parse: asUrl('postgres:', 'postgresql:'),
  },
  {
    key: 'redisUrl',
    flag: '--redis-url <url>',
    description: 'Redis for shared rate limits (scaled out)',
    parse: asUrl('redis:', 'rediss:'),
  },
  {
    key: 'limiterFailure',
    flag: '--limiter-failure <mode>',
    description: 'when Redis fails: local (each instance limits alone), open (admit), closed (503)',
    defaultValue: 'local',
    parse: oneOf('local', 'open', 'closed'),
  },
  {
    key: 'storeTimeout',
    flag: '--store-timeout <ms>',
    description: 'timeout of a Redis or key-store call',
    defaultValue: 100,
    parse: asInteger(1, 100),
  },
  {
    key: 'queryTimeout',
    flag: '--query-timeout <ms>',
    description: 'longest a v3 index query may run; a longer one is stopped and answered 504',
    defaultValue: 2000,
    parse: asInteger(10, 600_000),
  },
  {
    key: 'bodyLimit',
    flag: '--body-limit <bytes>',
    description: 'largest request body; bigger ones get 413',
    defaultValue: 1_048_576,
    parse: asInteger(1024, 64 * 1_048_576),
  },
  {
    key: 'logLevel',
    flag: '--log-level <level>',
    description: `${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1)}`,
    defaultValue: 'info',
    parse: oneOf(...LOG_LEVELS),
  },
  {
    key: 'logFormat',
    flag: '--log-format <format>',
    description: 'json (JSON lines on stdout, for log shippers) or pretty (coloured lines for people)',
    defaultValue: 'json',
    parse: oneOf('json', 'pretty'),
  },
  ...UPSTREAM_OPTIONS,
  ...METADATA_FETCH_OPTIONS,
  ...DNS_ROOT_OPTIONS,
];
