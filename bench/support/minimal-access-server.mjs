// bench:access's minimal server on the built code (dist/, which `npm run bench:access` builds first), in a child
// process of its own, without tsx: a fastify app answering GET /api/v3/masterchainInfo with a constant, the access
// layer's hook in front (the hook's worst case: nearly all the work is the access layer's). Arguments: mode (off |
// embedded | shared), and for shared a PostgreSQL URL and a Redis URL. Prints one JSON line once it listens
// ({port, key}: a key with a limit far above any load, or 'unused' when off); answers the parent's 'cpu' message
// with its CPU time (µs), as bench-child.ts's answerCpuOverIpc does.
import Fastify from 'fastify';
import { createAccessLayer } from '../../dist/access/index.js';
import { accessHook } from '../../dist/http/access-hook.js';

const [mode, databaseUrl, redisUrl] = process.argv.slice(2);
let access;
let key = 'unused';
if (mode === 'embedded' || mode === 'shared') {
  access = await createAccessLayer({
    enabled: true,
    networks: ['mainnet'],
    ephemeral: true,
    limiterFailure: 'local',
    storeTimeoutMs: 100,
    anonymousRps: 1,
    defaultKeyRps: 10,
    ...(mode === 'shared' ? { databaseUrl, redisUrl } : {}),
  });
  key = (await access.admin.createKey({ network: 'mainnet', rps: 1_000_000 })).key;
}
const app = Fastify({ logger: false });
app.decorateRequest('network', null);
const mainnet = { name: 'mainnet' };
app.addHook('onRequest', (request, _reply, done) => {
  request.network = mainnet;
  done();
});
if (access) app.addHook('onRequest', accessHook(access));
const body = {
  last: { workchain: -1, shard: '8000000000000000', seqno: 1 },
  first: { workchain: -1, shard: '8000000000000000', seqno: 0 },
};
app.get('/api/v3/masterchainInfo', async () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', (m) => {
  if (m !== 'cpu') return;
  const u = process.cpuUsage();
  process.send({ cpuUs: u.user + u.system });
});
process.stdout.write(JSON.stringify({ port: app.server.address().port, key }) + '\n');
process.once('SIGTERM', async () => {
  await app.close();
  await access?.close();
  process.exit(0);
});
