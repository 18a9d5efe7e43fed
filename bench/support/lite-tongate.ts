/**
 * A local TON network (test/support/ton-node.ts) and a tongate serving it as a lite network, as the lite benches
 * run them: ephemeral, keys and limits off, logs silent (BENCH_LOG=warn shows the pool's warnings on stderr). The
 * validator is a separate process, so it is stopped even when the bench fails. The tongate may also be started on
 * a global config of its own (`startTongateOn`: a liteserver standing in for the network's, liteConfigVia).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { startTongate } from '../../src/cli/start.js';
import { freePort } from '../../test/support/ports.js';
import { startTonNode, type TonNode } from '../../test/support/ton-node.js';

export async function startLiteTongate(nodeOptions: Parameters<typeof startTonNode>[0] = {}) {
  const node = await startBenchNode(nodeOptions);
  return { node, ...(await startTongateOn(node.globalConfigFile)) };
}

/** The network, stopped when the bench fails. */
export async function startBenchNode(nodeOptions: Parameters<typeof startTonNode>[0] = {}): Promise<TonNode> {
  const node = await startTonNode(nodeOptions);
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (err) => {
      console.error(err);
      void node.stop().finally(() => process.exit(1));
    });
  }
  return node;
}

/** A tongate following the network of `globalConfigFile` as `mainnet` (lite), indexed from `indexFrom` when given. */
export async function startTongateOn(globalConfigFile: string, indexFrom?: number) {
  const port = await freePort();
  const running = await startTongate(
    loadConfig({
      flags: {
        ephemeral: true,
        logLevel: 'silent',
        access: 'off',
        network: [`mainnet=http://127.0.0.1:${port}`],
        backend: ['mainnet=lite'],
        liteConfig: [`mainnet=${globalConfigFile}`],
        ...(indexFrom !== undefined ? { indexFrom: [`mainnet=${indexFrom}`] } : {}),
      },
      env: {},
    }),
    { logger: pino({ level: process.env.BENCH_LOG ?? 'silent' }, pino.destination(2)) },
  );
  return { running, port };
}

/** `from` (a global config file) with its liteservers replaced by one on loopback, written to `to`. */
export function liteConfigVia(from: string, to: string, server: { port: number; publicKey: string }): string {
  const config = JSON.parse(readFileSync(from, 'utf8'));
  config.liteservers = [{ ip: 0x7f000001, port: server.port, id: { '@type': 'pub.ed25519', key: server.publicKey } }];
  writeFileSync(to, JSON.stringify(config, null, 2));
  return to;
}
