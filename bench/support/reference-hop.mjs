/**
 * bench:upstream's reference hops, each in a process of its own (as the front is), so the added latency
 * of tongate can be read against what any hop costs on the same machine in the same run:
 *   relay <port> <upstreamPort>    a TCP relay (no HTTP at all): the floor of one more loopback hop;
 *   proxy <port> <upstreamOrigin>  a minimal HTTP proxy made of the same parts as tongate's (fastify, one
 *                                  route awaiting undici's Pool.request, the body read whole and sent):
 *                                  what a Node proxy of any design pays here.
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
  const app = Fastify();
  app.all('/*', async (request, reply) => {
    const { statusCode, headers, body } = await pool.request({
      path: request.url,
      method: request.method,
      headers: { accept: 'application/json' },
    });
    const bytes = Buffer.from(await body.arrayBuffer());
    return reply.code(statusCode).header('content-type', headers['content-type']).send(bytes);
  });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  console.log('ready in');
} else {
  console.error('usage: reference-hop.mjs relay|proxy <port> <target>');
  process.exit(2);
}
