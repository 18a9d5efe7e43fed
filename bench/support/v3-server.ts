/**
 * What the v3 benches share: a real gateway serving an index (with a local chain beside it, access off),
 * and latency measured one request at a time over one keep-alive connection from a worker thread.
 */
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { createAccessLayer } from '../../src/access/index.js';
import { LocalChain } from '../../src/chain/local/index.js';
import { accessOptionsFrom } from '../../src/cli/access-options.js';
import { loadConfig } from '../../src/config/load.js';
import { createGateway } from '../../src/gateway/gateway.js';
import type { Index } from '../../src/index/open-index.js';
import { systemClock } from '../../src/util/clock.js';

export const FAUCET_MNEMONIC =
  'region sniff brass cake cave thank still hero chronic father maze leader eagle need surface orchard earn excite gravity forest seed auto polar hurt'.split(
    ' ',
  );

export interface Latency {
  p50: number;
  p99: number;
  max: number;
}

/**
 * One request at a time over one keep-alive connection, from a worker thread (its own event loop and
 * garbage collector, so the client's pauses are not counted as the server's). ms per request.
 */
export async function latency(port: number, paths: string[], count: number): Promise<Latency> {
  const client = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Agent, request } = require('node:http');
    const { port, paths, count } = workerData;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const once = (path) => new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(path + ': HTTP ' + res.statusCode))));
      });
      req.on('error', reject);
      req.end();
    });
    (async () => {
      // Warm-up: as many requests as measured (the pages a running server keeps hot).
      for (let i = 0; i < count; i++) await once(paths[(i * 104729 + 7) % paths.length]);
      const times = [];
      for (let i = 0; i < count; i++) times.push(await once(paths[(i * 7919) % paths.length]));
      agent.destroy();
      parentPort.postMessage(times);
    })().catch((error) => parentPort.postMessage({ error: error.message }));
  `;
  const worker = new Worker(client, { eval: true, workerData: { port, paths, count } });
  const reply = await new Promise<number[] | { error: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  if (!Array.isArray(reply)) throw new Error(reply.error);
  const times = reply.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)], p99: times[Math.floor(times.length * 0.99)], max: times[times.length - 1] };
}

export async function serve(index: Index, work: (port: number) => Promise<void>): Promise<void> {
  const { freePort } = await import('../../test/support/ports.js');
  const port = await freePort();
  const config = loadConfig({
    flags: { ephemeral: true, blockInterval: '3600000', logLevel: 'silent', access: 'off', network: [`mainnet=http://127.0.0.1:${port}`] },
    env: {},
  });
  const chain = await LocalChain.open({ network: 'mainnet', globalId: -239, faucetMnemonic: FAUCET_MNEMONIC });
  const logger = pino({ level: 'silent' });
  const access = await createAccessLayer(accessOptionsFrom(config), { logger });
  const gateway = createGateway({
    config,
    networks: [{ ...config.networks[0], testOnly: false, chain, index: index.reader }],
    clock: systemClock,
    logger,
    access,
  });
  await gateway.listen();
  try {
    await work(port);
  } finally {
    await gateway.close();
    await access.close();
    await chain.stop();
  }
}
