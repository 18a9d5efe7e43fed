/**
 * The `tongate` command line: start, the devnet commands (fund, mine), and the key commands of the access layer.
 * Each command imports what it runs when it runs (`await import` in its action): building the program loads
 * commander and the option table only, so `tongate keys create` never loads fastify, @ton/core or the chain.
 */
import { Command, Option } from 'commander';
import { loadConfig } from '../config/load.js';
import { ConfigError } from '../config/errors.js';
import { OPTIONS } from '../config/options.js';
import { envName, type OptionSpec } from '../config/option-spec.js';
import { VERSION } from '../version.js';
import { registerKeyCommands } from './keys-commands.js';
import { registerDevnetCommands } from './devnet-commands.js';
import { registerResetCommand } from './reset-command.js';
import { keyAdminOptionsFrom } from './access-options.js';

/**
 * What the key commands read of a deployment: where its key store is, the Redis that tells the servers, and
 * whether the server keeps its keys in memory (then these commands refuse, keys-commands.ts).
 */
const KEY_STORE_OPTIONS = ['dataDir', 'databaseUrl', 'redisUrl', 'ephemeral'];
/** What the devnet commands read of a deployment besides the base URLs (--config or TONGATE_NETWORK): the token. */
const DEVNET_OPTIONS = ['adminToken'];
/** What `tongate reset` reads: which networks are local, and where their data is. */
const RESET_OPTIONS = ['backend', 'dataDir', 'databaseUrl', 'ephemeral'];

/**
 * Adds the deployment's options to a command: every one to `start`, and to each other command only those it
 * reads (`only`), so its --help lists its own options rather than all of start's. `except`: keys the command
 * uses for options of its own (e.g. `--network <name>`).
 */
function addConfigOptions(command: Command, except: string[] = [], only?: string[]): Command {
  command.option('--config <file>', 'read options from a YAML or JSON file (env TONGATE_CONFIG)');
  for (const spec of OPTIONS.filter((s) => !except.includes(s.key) && (only === undefined || only.includes(s.key)))) {
    // The default is told, not set: an unset flag must stay undefined so the file and the environment can win.
    const option = new Option(spec.flag, `${spec.description} (${defaultHelp(spec)}env ${envName(spec.key)})`);
    if (spec.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    command.addOption(option);
  }
  return command;
}

function defaultHelp(spec: OptionSpec): string {
  const value = spec.defaultValue;
  if (value === undefined) return '';
  const shown = spec.defaultHelp ?? (Array.isArray(value) ? (value.length === 0 ? 'none' : value.join(',')) : String(value));
  return `default: ${shown}; `;
}

export function buildProgram(): Command {
  const program = new Command('tongate')
    .description('A self-hostable, toncenter-compatible HTTP API (v2 + v3) for TON, with API keys, rate limits and local chains')
    .version(VERSION);

  addConfigOptions(
    program
      .command('start')
      .description('serve the API; with no options: two local chains on 127.0.0.1:8080 (mainnet) and :8081 (testnet)'),
  ).action(async (flags: Record<string, unknown>) => {
    const config = loadConfig({ flags, env: process.env });
    // Start-up waits on timers that do not hold the process open (a liteserver pool's are unref'd, so a closed pool
    // never keeps a process alive): without this, a start whose sockets all closed would end with exit 0 and no word.
    const holdOpen = setInterval(() => {}, 60_000);
    // The sockets serve before the start is over (a local chain's index opens after them): a signal from then on
    // is answered by a clean stop once the start is over, never by the default exit mid-start.
    const starting = import('./start.js').then(({ startTongate }) => startTongate(config));
    const shutdown = (signal: string) => {
      console.error(`\n${signal}: sealing the block in progress and closing the stores...`);
      starting.then(
        (running) =>
          running.stop().then(
            () => process.exit(0),
            (err) => {
              console.error(err);
              process.exit(1);
            },
          ),
        () => undefined, // a failed start is reported by main()
      );
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    let running;
    try {
      running = await starting;
    } finally {
      clearInterval(holdOpen);
    }
    // Whoever reads the banner may stop the process at once, and is answered by a clean stop.
    // stderr: stdout carries log records only (src/cli/logger.ts).
    console.error(running.banner);
  });

  registerDevnetCommands(program, (command, except) => addConfigOptions(command, except, DEVNET_OPTIONS));
  registerResetCommand(program, (command, except) => addConfigOptions(command, except, RESET_OPTIONS));

  registerKeyCommands(program, (flags) => keyAdminOptionsFrom(loadConfig({ flags, env: process.env })), {
    configure: (command, own) => addConfigOptions(command, own, KEY_STORE_OPTIONS),
  });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`tongate: bad configuration: ${err.message}`);
      process.exit(2);
    }
    // By name: the lock's module (and SQLite) is loaded only by the commands that take the lock.
    if (err instanceof Error && err.name === 'DataDirInUse') {
      console.error(`tongate: data directory ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}
