/**
 * Run in a process of its own by start-packages.test.ts: starts tongate as `npm start` does (two local networks,
 * nothing configured but ephemeral data and free ports), waits until it has started (both networks' v3 indexes
 * open), and prints the packages loaded by then (from the module cache) as a JSON line.
 */
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import pino from 'pino';
import { freePort } from '../../support/ports.js';

// Every module this thread loads from here on, as the loader sees it (ES modules are in no cache we can read).
const loaded = new Set<string>();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => loaded.add(url));
port1.unref();
register('./record-loads.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
const { loadConfig } = await import('../../../src/config/load.js');
const { startTongate } = await import('../../../src/cli/start.js');

const config = loadConfig({
  flags: {
    ephemeral: true,
    network: [`mainnet=http://127.0.0.1:${await freePort()}`, `testnet=http://127.0.0.1:${await freePort()}`],
  },
  env: {},
});
let beforeServing: string[] = [];
const running = await startTongate(config, {
  logger: pino({ level: 'silent' }),
  afterServing: async () => {
    beforeServing = [...loaded];
  },
});
const packages = new Set<string>();
for (const file of Object.keys(createRequire(import.meta.url).cache)) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file.slice(file.lastIndexOf('node_modules/')));
  if (match) packages.add(match[1]);
}
const ours = (urls: string[]) =>
  urls
    .filter((url) => url.includes('/src/'))
    .map((url) => url.slice(url.lastIndexOf('/src/') + 1))
    .sort();
console.log(JSON.stringify({ packages: [...packages].sort(), beforeServing: ours(beforeServing), started: ours([...loaded]) }));
await running.stop();
