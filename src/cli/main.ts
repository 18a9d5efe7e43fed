/** The `tongate` command line: start, the devnet commands (fund, mine), and the key commands of the access layer. */
import { Command, Option } from 'commander';
import { loadConfig } from '../config/load.js';
import { ConfigError } from '../config/errors.js';
import { OPTIONS, envName } from '../config/options.js';
import { startTongate } from './start.js';
import { VERSION } from '../version.js';
import { registerKeyCommands } from './keys-commands.js';
import { registerDevnetCommands } from './devnet-commands.js';
import { accessOptionsFrom } from './access-options.js';


function addConfigOptions(command: Command, except: string[] = []): Command {
  command.option('--config <file>', 'read options from a YAML or JSON file (env TONGATE_CONFIG)');
  for (const spec of OPTIONS.filter((s) => !except.includes(s.key))) {
    const option = new Option(spec.flag, `${spec.description} (env ${envName(spec.key)})`);
    if (spec.defaultValue !== undefined) option.default(undefined, Array.isArray(spec.defaultValue) ? spec.defaultValue.join(' ') : String(spec.defaultValue));
    if (spec.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    command.addOption(option);
  }
  return command;
}

export function buildProgram(): Command {
  const program = new Command('tongate')
    .description('A self-hostable, toncenter-compatible HTTP API (v2 + v3) for TON, with API keys, rate limits and local chains')
    .version(VERSION);

  addConfigOptions(program.command('start').description('serve the API; with no options: two local chains on 127.0.0.1:8080 (mainnet) and :8081 (testnet)')).action(
    async (flags: Record<string, unknown>) => {
      const config = loadConfig({ flags, env: process.env });
      const running = await startTongate(config);
      // stderr: stdout carries log records only (src/cli/logger.ts).
      console.error(running.banner);
      const shutdown = (signal: string) => {
        console.error(`\n${signal}: sealing the block in progress and closing the stores...`);
        running.stop().then(
          () => process.exit(0),
          (err) => {
            console.error(err);
            process.exit(1);
          },
        );
      };
      process.once('SIGINT', () => shutdown('SIGINT'));
      process.once('SIGTERM', () => shutdown('SIGTERM'));
    },
  );

  registerDevnetCommands(program, addConfigOptions);

  registerKeyCommands(program, (flags) => accessOptionsFrom(loadConfig({ flags, env: process.env })), {
    configure: (command, own) => addConfigOptions(command, own),
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
    throw err;
  }
}
