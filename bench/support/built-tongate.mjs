// A bench's tongate on the built code (dist/, as `npm start` runs it; the bench builds it first), in a child process of
// its own, without tsx: run from the sources through tsx, the request path costs more (its transform wraps functions).
// Arguments: access (on | off), block interval (ms), and optionally a PostgreSQL URL and a Redis URL (scaled out: keys
// and the index in PostgreSQL, limits in Redis). Prints one JSON line once it listens ({port, key, address}: with
// access on, a key with a limit far above any load); answers the parent's 'cpu' message with its CPU time (µs), as
// bench-child.ts's answerCpuOverIpc does for the children that run through tsx.
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import pino from 'pino';

// BENCH_DIST names another build (a directory like dist/ with a node_modules above it) for A/B runs of two commits.
const dist = process.env.BENCH_DIST ? pathToFileURL(`${process.env.BENCH_DIST}/`) : new URL('../../dist/', import.meta.url);
const { loadConfig } = await import(new URL('config/load.js', dist).href);
const { startTongate } = await import(new URL('cli/start.js', dist).href);

const [access, blockInterval, databaseUrl, redisUrl] = process.argv.slice(2);
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const config = loadConfig({
  flags: {
    ephemeral: true,
    logLevel: 'silent',
    blockInterval: String(blockInterval),
    network: [`mainnet=http://127.0.0.1:${port}`],
    access,
    adminToken: 'bench-admin-token',
    ...(databaseUrl ? { databaseUrl, redisUrl } : {}),
  },
  env: {},
});
const running = await startTongate(config, { logger: pino({ level: 'silent' }) });
let key = 'unused';
if (access === 'on') {
  const res = await fetch(`http://127.0.0.1:${port}/admin/keys`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench-admin-token', 'content-type': 'application/json' },
    body: JSON.stringify({ network: 'mainnet', rps: 1_000_000 }),
  });
  key = (await res.json()).result.key;
}
process.on('message', (m) => {
  if (m !== 'cpu') return;
  const u = process.cpuUsage();
  process.send({ cpuUs: u.user + u.system });
});
process.stdout.write(JSON.stringify({ port, key, address: running.networks[0].chain.faucets()[0].address.toString() }) + '\n');
process.once('SIGTERM', async () => {
  await running.stop();
  process.exit(0);
});
