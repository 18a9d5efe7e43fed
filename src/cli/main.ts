/** The `tongate` command line: start, fund, and the key commands of the access layer. */
import { Command, Option } from 'commander';
import { toNano } from '@ton/core';
import { loadConfig } from '../config/load.js';
import { ConfigError } from '../config/errors.js';
import { OPTIONS, envName } from '../config/options.js';
import { startTongate } from './start.js';
import { VERSION } from '../version.js';
import { registerKeyCommands } from './keys-commands.js';
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
      console.log(running.banner);
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

  addConfigOptions(
    program
      .command('fund')
      .description('send TON from a local network\'s faucet to an address (calls POST /devnet/fund)')
      .argument('<address>', 'the address to fund')
      .argument('<amount>', 'amount in TON, e.g. 1.5')
      .requiredOption('--network <name>', 'which network (its base URL comes from --config, TONGATE_NETWORK or the defaults)'),
    ['network'],
  ).action(async (address: string, amountTon: string, flags: Record<string, unknown>) => {
    const { network: name, ...rest } = flags;
    const config = loadConfig({ flags: rest, env: process.env });
    const network = config.networks.find((n) => n.name === name);
    if (!network) throw new ConfigError('--network', `unknown network ${String(name)} (configured: ${config.networks.map((n) => n.name).join(', ')})`);
    let amount: bigint;
    try {
      amount = toNano(amountTon);
    } catch {
      throw new ConfigError('<amount>', `not an amount of TON: ${amountTon}`);
    }
    const response = await fetch(`${network.baseUrl.origin}/devnet/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.adminToken ? { authorization: `Bearer ${config.adminToken}` } : {}) },
      body: JSON.stringify({ address, amount: amount.toString() }),
    });
    const body = (await response.json()) as { ok: boolean; result?: { hash: string; block_seqno: number }; error?: string };
    if (!body.ok) throw new Error(`fund failed (${response.status}): ${body.error}`);
    console.log(`funded ${address} with ${amountTon} TON on ${network.name}: transaction ${body.result!.hash} in block ${body.result!.block_seqno}`);
  });

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
