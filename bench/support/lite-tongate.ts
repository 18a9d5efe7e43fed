/**
 * A local TON network (test/support/ton-node.ts) and a tongate serving it as a lite network, as the lite benches
 * run them: ephemeral, keys and limits off, logs silent (BENCH_LOG=warn shows the pool's warnings on stderr). The
 * validator is a separate process, so it is stopped even when the bench fails.
 */
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { startTongate } from '../../src/cli/start.js';
import { freePort } from '../../test/support/ports.js';
import { startTonNode } from '../../test/support/ton-node.js';

export async function startLiteTongate(nodeOptions: Parameters<typeof startTonNode>[0] = {}) {
  const node = await startTonNode(nodeOptions);
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (err) => {
      console.error(err);
      void node.stop().finally(() => process.exit(1));
    });
  }
  const port = await freePort();
  const running = await startTongate(
    loadConfig({
      flags: {
        ephemeral: true,
        logLevel: 'silent',
        access: 'off',
        network: [`mainnet=http://127.0.0.1:${port}`],
        backend: ['mainnet=lite'],
        liteConfig: [`mainnet=${node.globalConfigFile}`],
      },
      env: {},
    }),
    { logger: pino({ level: process.env.BENCH_LOG ?? 'silent' }, pino.destination(2)) },
  );
  return { node, running, port };
}
