/** The start-up banner: each network with its base URL, global_id and faucet wallets, as Hardhat lists accounts. */
import type { TongateConfig } from '../config/types.js';
import type { NetworkContext } from '../http/network-context.js';

export interface FaucetLine {
  kind: string;
  address: string;
  balanceTon: string;
}

export function renderBanner(
  config: TongateConfig,
  networks: Array<{
    network: NetworkContext;
    faucets: FaucetLine[];
    /** Lines describing an upstream network's upstreams. */
    upstreams?: string[];
    /** A lite network's liteservers. */
    liteservers?: { count: number; configFile: string };
    /** A lite network's index: its first masterchain block, its newest, and the network's head at start. */
    index?: { from: number; last: number; head: number };
  }>,
  accessDescription: string,
  /** From the start to the sockets serving the API (v2 and health), and to everything up (every v3 index). */
  startup: { servingMs: number; readyMs: number },
): string {
  const locals = networks.filter((n) => !n.upstreams && !n.liteservers).length;
  const lites = networks.filter((n) => n.liteservers).length;
  const upstreams = networks.filter((n) => n.upstreams).length;
  const what = [
    locals > 0 ? `${locals} local chain(s)` : '',
    lites > 0 ? `${lites} network(s) through liteservers` : '',
    upstreams > 0 ? `${upstreams} upstream network(s)` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const indexes = startup.readyMs > startup.servingMs ? `; v3 indexes up in ${startup.readyMs} ms` : '';
  const lines = [`tongate: toncenter-compatible API on ${what}, ready in ${startup.servingMs} ms${indexes}`, ''];
  for (const { network, faucets, upstreams: forwardedTo, liteservers, index } of networks) {
    const base = network.baseUrl.origin;
    lines.push(`${network.name}  global_id ${network.globalId}`);
    lines.push(`  v2  ${base}/api/v2   (JSON-RPC: ${base}/api/v2/jsonRPC)`);
    lines.push(`  v3  ${base}/api/v3${index ? `   (${indexedFrom(index)})` : ''}`);
    if (liteservers) lines.push(`  liteservers: ${liteservers.count} from ${liteservers.configFile}`);
    for (const line of forwardedTo ?? []) lines.push(`  ${line}`);
    for (const faucet of faucets) lines.push(`  faucet ${faucet.kind.padEnd(5)} ${faucet.address}  ${faucet.balanceTon} TON`);
    if (!forwardedTo && !liteservers) lines.push(`  controls ${base}/devnet/   (mining, time, accounts: docs/local-chains.md)`);
    lines.push('');
  }
  if (locals > 0 && config.mining === 'manual') {
    lines.push('Mining: manual (no block until asked: tongate mine, or POST <base>/devnet/mine)');
  }
  if (locals > 0) {
    lines.push(`Faucet mnemonic (public: local chains only, never on a real network):`);
    lines.push(`  ${config.faucetMnemonic.join(' ')}`);
  }
  lines.push(config.ephemeral ? 'Storage: ephemeral (nothing is kept on disk)' : `Storage: ${config.dataDir}`);
  if (config.access) {
    lines.push(
      `Access: on (${accessDescription}). Without a key: 1 request/s per client on each network; with a key (X-API-Key): 10 by default.`,
    );
    // An --ephemeral server's keys live in its memory: `tongate keys` (another process) cannot reach them.
    const inMemory = config.ephemeral && !config.databaseUrl;
    lines.push(
      !inMemory
        ? '  Create a key: KEY=$(tongate keys create --network <name>)'
        : config.adminToken
          ? '  Create a key (kept in memory: --ephemeral): POST <base>/admin/keys {"network":"<name>"} with the admin token'
          : '  Keys are kept in memory (--ephemeral): restart with --admin-token to create them (POST <base>/admin/keys)',
    );
  } else {
    lines.push('WARNING: access layer is OFF (--access off): no API keys, no rate limits. Use only behind another gateway.');
  }
  return lines.join('\n');
}

/** Where a lite network's v3 begins, and whether the index still has blocks to read before it is at the head. */
function indexedFrom(index: { from: number; last: number; head: number }): string {
  const from = `indexed from masterchain block ${index.from}`;
  // A block behind is the normal lag of a live index, not a back-fill.
  return index.from < index.head && index.last < index.head - 1 ? `${from}; back-filling to ${index.head}, progress in the log` : from;
}
