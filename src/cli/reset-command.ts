/**
 * `tongate reset --network NAME`: starts a local network's chain over. Its data directory (`<data-dir>/<network>`:
 * the chain, its snapshots and clock, the SQLite index) is removed, and with `--database-url` the PostgreSQL index
 * schema of the network too; the next `tongate start` makes a new chain from block 0. API keys are kept (they are
 * the deployment's, in `<data-dir>/keys.sqlite` or PostgreSQL). Refused while a tongate runs on the data directory:
 * the reset takes the directory's lock itself (data-dir/lock.ts), so no start can begin halfway through it either.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { ConfigError } from '../config/errors.js';

type Configure = (command: Command, except?: string[]) => Command;

export function registerResetCommand(program: Command, configure: Configure): void {
  configure(
    program
      .command('reset')
      .description(
        "start a local network's chain over: removes its chain, snapshots and index (keys are kept); refused while tongate runs on it",
      )
      .requiredOption('--network <name>', 'which local network (its data is <data-dir>/<name>)'),
    ['network'],
  ).action(async (flags: Record<string, unknown>) => {
    const { network: name, ...rest } = flags;
    const config = loadConfig({ flags: rest, env: process.env });
    const network = config.networks.find((n) => n.name === name);
    if (!network)
      throw new ConfigError('--network', `unknown network ${String(name)} (configured: ${config.networks.map((n) => n.name).join(', ')})`);
    if (network.backend !== 'local')
      throw new ConfigError(
        '--network',
        `${network.name} is served by ${network.backend}, not a local chain: only a local chain can be started over`,
      );
    if (config.ephemeral)
      throw new ConfigError('--ephemeral', 'an ephemeral network keeps nothing on disk: each start is a new chain already');
    // Loaded when the command runs: registering it must not cost every other command SQLite's and pg's import.
    const [{ DataDirInUse, lockDataDir }, { dropPostgresIndex }] = await Promise.all([
      import('../data-dir/lock.js'),
      import('../index/drop-index.js'),
    ]);
    const dir = join(config.dataDir, network.name);
    let lock;
    try {
      lock = lockDataDir(config.dataDir);
    } catch (err) {
      if (!(err instanceof DataDirInUse)) throw err;
      const holder = err.pid === undefined ? 'a running tongate' : `a running tongate (pid ${err.pid})`;
      throw new Error(
        `reset refused: ${holder} uses ${err.dir}; stop it (Ctrl-C, or SIGTERM), then run tongate reset --network ${network.name} again`,
        { cause: err },
      );
    }
    const removed: string[] = [];
    try {
      if (existsSync(dir)) {
        rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      }
      if (config.databaseUrl) removed.push(`PostgreSQL schema ${await dropPostgresIndex(config.databaseUrl, network.name)}`);
    } finally {
      lock.release();
    }
    console.log(
      removed.length > 0
        ? `${network.name}: removed ${removed.join(' and ')}; the next tongate start begins a new chain at block 0 (API keys kept)`
        : `${network.name}: nothing to reset (no data in ${dir})`,
    );
  });
}
