/**
 * bench:upstream's reference hops, each in a process of its own (as the front is), so the added latency
 * of tongate can be read against what any hop costs on the same machine in the same run:
 *   relay <port> <upstreamPort>    a TCP relay (no HTTP at all): the floor of one more loopback hop;
 *   proxy <port> <upstreamOrigin> <key>
 *                                  a minimal HTTP proxy made of the same parts as tongate's (fastify, one
 *                                  route awaiting undici's Pool.request, the body read whole and sent):
 *                                  what a Node proxy of any design pays here. With keys and limits on, as
 *                                  the front runs in the bench, in their least form: the client's X-API-Key
 *                                  looked up in a Map (401 without a known one), a one-second fixed window
 *                                  per key (429 past its quota), the two RateLimit headers tongate sends, and
 *                                  an upstream key of its own sent as X-API-Key.
 * Plain JavaScript, run by node itself (no tsx wrapper in the measured process). Prints `ready in` when listening.
 */
import { createServer, connect } from 'node:net';

const [mode, port, target] = process.argv.slice(2);
if (mode === 'relay') {
  createServer((client) => {
    client.setNoDelay(true);
    const server = connect(Number(target), '127.0.0.1');
    server.setNoDelay(true);
    client.pipe(server);
    server.pipe(client);
    const close = () => {
      client.destroy();
      server.destroy();
    };
    client.on('error', close).on('close', close);
    server.on('error', close).on('close', close);
  }).listen(Number(port), '127.0.0.1', () => console.log('ready in'));
} else if (mode === 'proxy') {
  const { default: Fastify } = await import('fastify');
  const { Pool } = await import('undici');
  const pool = new Pool(target, { connections: 16 });
  const QUOTA = 1_000_000;
  /** key -> its window: the second it started and the requests counted in it. */
  const keys = new Map([[process.argv[5], { second: 0, used: 0 }]]);
  const policy = `"key";q=${QUOTA};w=1`;
  const upstreamHeaders = { accept: 'application/json', 'x-api-key': 'reference-upstream-key' };
  const app = Fastify();
  app.all('/*', async (request, reply) => {
    const window = keys.get(request.headers['x-api-key']);
    if (window === undefined) return reply.code(401).send({ ok: false, error: 'API key does not exist', code: 401 });
    const second = Math.floor(Date.now() / 1000);
    if (window.second !== second) {
      window.second = second;
      window.used = 0;
    }
    if (window.used >= QUOTA) return reply.code(429).header('retry-after', '1').send({ ok: false, error: 'Ratelimit exceed', code: 429 });
    window.used++;
    reply.header('ratelimit-policy', policy).header('ratelimit', `"key";r=${QUOTA - window.used};t=1`);
    const { statusCode, headers, body } = await pool.request({
      path: request.url,
      method: request.method,
      headers: upstreamHeaders,
    });
    const bytes = Buffer.from(await body.arrayBuffer());
    return reply.code(statusCode).header('content-type', headers['content-type']).send(bytes);
  });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  // An exit of its own on the bench's SIGTERM, so a --cpu-prof given to this node is written.
  process.once('SIGTERM', () => process.exit(0));
  console.log('ready in');
} else {
  console.error('usage: reference-hop.mjs relay <port> <upstreamPort> | proxy <port> <upstreamOrigin> <key>');
  process.exit(2);
}
