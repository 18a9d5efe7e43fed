/**
 * Starts a real tongate in this process (real chains, real sockets) on free ports, for HTTP-level tests.
 * Block production is left to the test (a long block interval + produceBlock()) so no time rule is timed.
 */
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { startTongate, type RunningTongate } from '../../src/cli/start.js';
import type { LocalChain } from '../../src/chain/local/index.js';
import { freePort } from './ports.js';
import type { Clock } from '../../src/util/clock.js';

export interface TestTongate extends RunningTongate {
  url(network: string): string;
  chain(network: string): LocalChain;
}

export async function startTestTongate(
  flags: Record<string, unknown> = {},
  env: Record<string, string> = {},
  deps: { clock?: Clock } = {},
): Promise<TestTongate> {
  const network = (flags.network as string[] | undefined) ?? [
    `mainnet=http://127.0.0.1:${await freePort()}`,
    `testnet=http://127.0.0.1:${await freePort()}`,
  ];
  const config = loadConfig({
    flags: { ephemeral: true, blockInterval: '3600000', logLevel: 'silent', access: 'off', ...flags, network },
    env,
  });
  const running = await startTongate(config, { logger: pino({ level: 'silent' }), clock: deps.clock });
  return {
    ...running,
    url: (name) => running.networks.find((n) => n.name === name)!.baseUrl.origin,
    chain: (name) => running.networks.find((n) => n.name === name)!.chain as unknown as LocalChain,
  };
}

export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the test will see the text */
  }
  return { status: response.status, body, headers: response.headers };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return getJson(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
