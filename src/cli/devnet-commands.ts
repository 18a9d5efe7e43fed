/**
 * The CLI side of the devnet controls: `tongate fund`, `tongate mine`, `tongate deploy-jetton`,
 * `tongate fund-jetton` and `tongate snapshot ...`, each an HTTP call to a running tongate
 * (through the `tongate/devnet` client), found by the network's base URL in the same config `start` reads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { ConfigError } from '../config/errors.js';
import type { NetworkConfig, TongateConfig } from '../config/types.js';
import type { DevnetTarget } from './devnet-target.js';

type Configure = (command: Command, except?: string[]) => Command;

export function registerDevnetCommands(program: Command, configure: Configure): void {
  configure(
    program
      .command('fund')
      .description("send TON from a local network's faucet to an address (calls POST /devnet/fund)")
      .argument('<address>', 'the address to fund')
      .argument('<amount>', 'amount in TON, e.g. 1.5')
      .requiredOption('--network <name>', 'which network (its base URL comes from --config, TONGATE_NETWORK or the defaults)'),
    ['network'],
  ).action(async (address: string, amountTon: string, flags: Record<string, unknown>) => {
    const { config, networks } = target(flags);
    let amount: bigint;
    try {
      amount = (await import('@ton/core')).toNano(amountTon);
    } catch {
      throw new ConfigError('<amount>', `not an amount of TON: ${amountTon}`);
    }
    const reach = await devnetTarget(config, networks[0]);
    const funded = await refusedAs('fund', reach, networks[0], reach.client.fund(address, amount));
    console.log(`funded ${address} with ${amountTon} TON on ${networks[0].name}: transaction ${funded.hash} in block ${funded.blockSeqno}`);
  });

  configure(
    program
      .command('mine')
      .description('seal blocks now on local networks (calls POST /devnet/mine); with --mining manual, the only way blocks come')
      .option('--network <name>', 'which network (default: every local network of the configuration)')
      .option('--blocks <n>', 'how many blocks', '1'),
    ['network'],
  ).action(async (flags: Record<string, unknown>) => {
    const blocks = Number(flags.blocks);
    if (!Number.isInteger(blocks) || blocks < 1)
      throw new ConfigError('--blocks', `expected a positive integer, got ${String(flags.blocks)}`);
    const { config, networks } = target(flags, { all: true });
    for (const network of networks) {
      const reach = await devnetTarget(config, network);
      const mined = await refusedAs('mine', reach, network, reach.client.mine(blocks));
      console.log(`${network.name}: mined ${blocks} block${blocks === 1 ? '' : 's'}, last seqno ${mined.seqno}`);
    }
  });

  const metadataOptions = ['name', 'symbol', 'decimals', 'description', 'image', 'uri'];
  configure(
    program
      .command('deploy-jetton')
      .description(
        "deploy a jetton master whose admin is a local network's faucet wallet (calls POST /devnet/deploy-jetton); then tongate fund-jetton mints from it",
      )
      .requiredOption('--network <name>', 'which network (its base URL comes from --config, TONGATE_NETWORK or the defaults)')
      .option('--name <name>', 'metadata: name')
      .option('--symbol <symbol>', 'metadata: symbol')
      .option('--decimals <n>', 'metadata: decimals (default 9)')
      .option('--description <text>', 'metadata: description')
      .option('--image <url>', 'metadata: image URL')
      .option('--uri <url>', 'offchain metadata (a TEP-64 JSON document) instead of the options above'),
    ['network'],
  ).action(async (flags: Record<string, unknown>) => {
    const { config, networks } = target(flags, { own: metadataOptions });
    const metadata: Record<string, unknown> = {};
    for (const key of metadataOptions) if (flags[key] !== undefined) metadata[key] = flags[key];
    if (metadata.decimals !== undefined) {
      const decimals = Number(metadata.decimals);
      if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
        throw new ConfigError('--decimals', `expected an integer from 0 to 255, got ${String(metadata.decimals)}`);
      metadata.decimals = decimals;
    }
    const reach = await devnetTarget(config, networks[0]);
    const deployed = await refusedAs('deploy-jetton', reach, networks[0], reach.client.deployJetton(metadata));
    const how = deployed.alreadyDeployed ? 'already deployed' : `deployed in block ${deployed.blockSeqno}`;
    console.log(
      `jetton master ${deployed.master.toRawString()} on ${networks[0].name} (${how}), admin: the faucet ${deployed.admin.toRawString()}`,
    );
  });

  configure(
    program
      .command('fund-jetton')
      .description('mint jettons of a master the faucet administers to an owner (calls POST /devnet/fund-jetton)')
      .argument('<master>', 'the jetton master (tongate deploy-jetton prints it)')
      .argument('<to>', 'the owner who gets the jettons')
      .argument('<amount>', 'jetton units (the smallest unit: 1000000000 is 1 token of 9 decimals)')
      .requiredOption('--network <name>', 'which network (its base URL comes from --config, TONGATE_NETWORK or the defaults)'),
    ['network'],
  ).action(async (master: string, to: string, amount: string, flags: Record<string, unknown>) => {
    const { config, networks } = target(flags);
    if (!/^\d+$/.test(amount)) throw new ConfigError('<amount>', `expected jetton units as a whole number, got ${amount}`);
    const reach = await devnetTarget(config, networks[0]);
    const funded = await refusedAs('fund-jetton', reach, networks[0], reach.client.fundJetton(master, to, BigInt(amount)));
    console.log(
      `minted ${amount} to ${to} on ${networks[0].name}: jetton wallet ${funded.wallet.toRawString()} holds ${funded.balance} (transaction ${funded.hash} in block ${funded.blockSeqno})`,
    );
  });

  registerSnapshotCommands(program, configure);
}

/**
 * `tongate snapshot save|restore|list|delete NAME` and `tongate snapshot export|import NAME FILE`: the snapshot
 * controls of one local network (POST/GET/DELETE /devnet/snapshots...).
 */
function registerSnapshotCommands(program: Command, configure: Configure): void {
  const snapshot = program
    .command('snapshot')
    .description(
      "save and restore a local network's state (chain, index, pending messages, clock), list, delete, export and import them as files",
    );
  // Save, restore, list and delete act on every local network unless one is named, as `tongate mine` does;
  // export and import move one network's file, so they need it named when there are several.
  const everyOrOne = (command: Command) =>
    configure(command.option('--network <name>', 'which network (default: every local network of the configuration)'), ['network']);
  const one = (command: Command) =>
    configure(command.option('--network <name>', 'which network (default: the only local network of the configuration)'), ['network']);
  /** A network's devnet client, and its calls' failures told in words that name the URL (devnet-target.ts). */
  const reachOf = async (config: TongateConfig, network: NetworkConfig) => {
    const reach = await devnetTarget(config, network);
    return {
      devnet: reach.client,
      network: network.name,
      ask: <T>(what: string, call: Promise<T>) => refusedAs(what, reach, network, call),
    };
  };
  const devnetsOf = (flags: Record<string, unknown>) => {
    const { config, networks } = target(flags, { all: true });
    return Promise.all(networks.map((network) => reachOf(config, network)));
  };
  const devnetOf = (flags: Record<string, unknown>) => {
    const { config, networks } = target(flags, { all: true, single: true });
    return reachOf(config, networks[0]);
  };
  everyOrOne(
    snapshot
      .command('save')
      .description('save the network as snapshot NAME (POST /devnet/snapshots)')
      .argument('<name>', 'letters, digits, ".", "_", "-"'),
  ).action(async (name: string, flags: Record<string, unknown>) => {
    for (const { devnet, network, ask } of await devnetsOf(flags)) {
      const saved = await ask('snapshot save', devnet.snapshot(name));
      console.log(`${network}: saved snapshot ${saved.name} at seqno ${saved.seqno} (${saved.pendingMessages} pending messages)`);
    }
  });
  everyOrOne(
    snapshot
      .command('restore')
      .description('put the network back to snapshot NAME; later blocks and snapshots are dropped')
      .argument('<name>'),
  ).action(async (name: string, flags: Record<string, unknown>) => {
    for (const { devnet, network, ask } of await devnetsOf(flags)) {
      const restored = await ask('snapshot restore', devnet.restoreSnapshot(name));
      const dropped = restored.droppedSnapshots.length > 0 ? `; dropped the later snapshots ${restored.droppedSnapshots.join(', ')}` : '';
      console.log(`${network}: restored snapshot ${restored.name}, back at seqno ${restored.seqno}${dropped}`);
    }
  });
  everyOrOne(
    snapshot
      .command('list')
      .description("the snapshots of the network; times are the chain's clock (moved by /devnet/time), not the wall clock"),
  ).action(async (flags: Record<string, unknown>) => {
    const devnets = await devnetsOf(flags);
    for (const { devnet, network, ask } of devnets) {
      const all = await ask('snapshot list', devnet.snapshots());
      if (all.length === 0) console.log(`${network}: no snapshots`);
      else if (devnets.length > 1) console.log(`${network}:`);
      for (const s of all)
        console.log(
          `${s.name}	seqno ${s.seqno}	chain time ${new Date(s.createdAt * 1000).toISOString()}	${s.pendingMessages} pending messages`,
        );
    }
  });
  everyOrOne(snapshot.command('delete').description('forget snapshot NAME (the chain is unchanged)').argument('<name>')).action(
    async (name: string, flags: Record<string, unknown>) => {
      for (const { devnet, network, ask } of await devnetsOf(flags)) {
        const deleted = await ask('snapshot delete', devnet.deleteSnapshot(name));
        console.log(`${network}: deleted snapshot ${deleted.name} (seqno ${deleted.seqno})`);
      }
    },
  );
  one(
    snapshot.command('export').description('write snapshot NAME to FILE (a chain store as of it)').argument('<name>').argument('<file>'),
  ).action(async (name: string, file: string, flags: Record<string, unknown>) => {
    const { devnet, network, ask } = await devnetOf(flags);
    const bytes = await ask('snapshot export', devnet.exportSnapshot(name));
    writeFileSync(file, bytes);
    console.log(`${network}: exported snapshot ${name} to ${file} (${bytes.length} bytes)`);
  });
  one(
    snapshot
      .command('import')
      .description('replace the network by FILE (an export of the same network) and save it as snapshot NAME; other snapshots are dropped')
      .argument('<name>')
      .argument('<file>'),
  ).action(async (name: string, file: string, flags: Record<string, unknown>) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      throw new ConfigError('<file>', `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const { devnet, network, ask } = await devnetOf(flags);
    const imported = await ask('snapshot import', devnet.importSnapshot(name, bytes));
    console.log(`${network}: imported ${file} as snapshot ${imported.name}, now at seqno ${imported.seqno}`);
  });
}

/**
 * The networks a command acts on: the one named by --network, or (with `all`) every local one; `single`: the
 * command takes one network, so without --network the configuration must have exactly one local network.
 */
function target(
  flags: Record<string, unknown>,
  { all = false, single = false, own = [] as string[] } = {},
): { config: TongateConfig; networks: NetworkConfig[] } {
  const { network: name, blocks: _blocks, ...configFlags } = flags;
  // The command's own options are not configuration.
  const rest = Object.fromEntries(Object.entries(configFlags).filter(([key]) => !own.includes(key)));
  const config = loadConfig({ flags: rest, env: process.env });
  if (name === undefined && all) {
    const local = config.networks.filter((n) => n.backend === 'local');
    if (local.length === 0) throw new ConfigError('--network', 'the configuration has no local network');
    if (single && local.length > 1)
      throw new ConfigError('--network', `name one of the local networks: ${local.map((n) => n.name).join(', ')}`);
    return { config, networks: local };
  }
  const network = config.networks.find((n) => n.name === name);
  if (!network)
    throw new ConfigError('--network', `unknown network ${String(name)} (configured: ${config.networks.map((n) => n.name).join(', ')})`);
  return { config, networks: [network] };
}

/**
 * Where a running tongate's devnet controls are, and its client: loaded when a command runs (undici and the client
 * are not what building the program, or another command, should pay to import).
 */
async function devnetTarget(config: TongateConfig, network: NetworkConfig): Promise<DevnetTarget> {
  return (await import('./devnet-target.js')).devnetTarget(config, network);
}

/**
 * A refusal from the server, in the words `tongate fund` always used: "<what> failed (<status>): <error>"; no
 * answer at all, with the address called and what to check.
 */
async function refusedAs<T>(what: string, target: DevnetTarget, network: NetworkConfig, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const [{ DevnetError }, { unreachable }] = await Promise.all([import('../devnet/client.js'), import('./devnet-target.js')]);
    if (error instanceof DevnetError) throw new Error(`${what} failed (${error.status}): ${error.message}`, { cause: error });
    throw new Error(unreachable(what, target, network.name, error), { cause: error });
  }
}
