/**
 * `npm run bench:access-split`: what a key costs beyond `--access off`, split into the bytes the rules make travel
 * and the hook's own decision, on a minimal fastify app answering a constant (nothing else of tongate around it).
 *
 * Variants, each in a process of its own with a pipelining raw-socket client inside it (4 connections, 16 requests
 * at a time; the client only counts status lines, so it costs next to nothing), run in alternating blocks; the
 * median CPU µs per request of each:
 *   off            the network hook alone (as bench:access's minimal app with access off)
 *   noop           plus an onRequest hook that only calls done()
 *   key            off, the requests carrying an X-API-Key header
 *   headers        a hook setting RateLimit-Policy and a changing RateLimit, deciding nothing
 *   headers+key    both: every byte a request with a key moves, without the access layer
 *   on             the access hook (SQLite key, memory limiter) with a valid key, on the built code (dist/)
 * on minus headers+key is the decision; headers+key minus off is what the headers cost Node.
 * Flags: --blocks B (8), --block-requests N (8000), --variants a,b (default all).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { numberArg, stringArg } from './support/args.js';
import { pipelined } from './support/pipelined-client.js';

const VARIANTS = ['off', 'noop', 'key', 'headers', 'headers+key', 'on'] as const;
type Variant = (typeof VARIANTS)[number];
const ANY_KEY = `tg_${'1'.repeat(44)}`;

async function serve(variant: Variant): Promise<void> {
  const Fastify = (await import('fastify')).default;
  const app = Fastify({ logger: false });
  app.decorateRequest('network', null as never);
  const mainnet = { name: 'mainnet' };
  app.addHook('onRequest', (request, _reply, done) => {
    (request as unknown as { network: unknown }).network = mainnet;
    done();
  });
  let key = variant === 'key' || variant === 'headers+key' ? ANY_KEY : '';
  if (variant === 'on') {
    // The built code (dist/, which the npm script builds first), as `npm start` runs it: through tsx the layer's
    // functions cost more (its transform wraps them), which this split would count as the decision's.
    const dist = new URL('../dist/', import.meta.url).href;
    const { createAccessLayer } = (await import(`${dist}access/index.js`)) as typeof import('../src/access/index.js');
    const { accessHook } = (await import(`${dist}http/access-hook.js`)) as typeof import('../src/http/access-hook.js');
    const access = await createAccessLayer({
      enabled: true,
      networks: ['mainnet'],
      ephemeral: true,
      limiterFailure: 'local',
      storeTimeoutMs: 100,
      anonymousRps: 1,
      defaultKeyRps: 10,
    });
    key = (await access.admin!.createKey({ network: 'mainnet', rps: 1_000_000 })).key;
    app.addHook('onRequest', accessHook(access));
  } else if (variant === 'headers' || variant === 'headers+key') {
    // The values the access layer sends for such a key: the policy constant, the remaining count changing.
    let remaining = 999_999;
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('ratelimit-policy', '"key";q=1000000;w=1');
      reply.header('ratelimit', '"key";r=' + remaining-- + ';t=1');
      done();
    });
  } else if (variant === 'noop') {
    app.addHook('onRequest', (_request, _reply, done) => done());
  }
  const body = {
    last: { workchain: -1, shard: '8000000000000000', seqno: 1 },
    first: { workchain: -1, shard: '8000000000000000', seqno: 0 },
  };
  app.get('/api/v3/masterchainInfo', async () => body);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const run = pipelined(port, '/api/v3/masterchainInfo', key);
  process.on('message', (m) => {
    void (async () => {
      const { n } = m as { n: number };
      const t0 = process.cpuUsage();
      await run(n);
      const t = process.cpuUsage(t0);
      process.send!({ cpuPerRequest: (t.user + t.system) / n });
    })();
  });
  process.send!({ ready: true });
}

async function child(variant: Variant): Promise<{ variant: Variant; run(n: number): Promise<number>; stop(): void }> {
  const c = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve', variant], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    c.once('message', () => resolve());
    c.once('exit', (code) => reject(new Error(`variant ${variant} exited (${code})`)));
  });
  return {
    variant,
    run: (n) =>
      new Promise<number>((resolve) => {
        c.once('message', (m) => resolve((m as { cpuPerRequest: number }).cpuPerRequest));
        c.send({ n });
      }),
    stop: () => c.kill('SIGTERM'),
  };
}

async function main(): Promise<void> {
  const blocks = numberArg('blocks', 8);
  const perBlock = numberArg('block-requests', 8000);
  const chosen = (stringArg('variants')?.split(',') ?? [...VARIANTS]) as Variant[];
  console.log(
    `access cost split on a minimal fastify app (node ${process.version}, ${new Date().toISOString()}; load average ${loadavg()[0].toFixed(1)})`,
  );
  const kids = await Promise.all(chosen.map(child));
  try {
    for (const k of kids) await k.run(perBlock * 2); // warm-up
    const cpu = new Map<Variant, number[]>(chosen.map((v) => [v, []]));
    // The order rotates each block, so a trend in the machine's load falls on every variant.
    for (let b = 0; b < blocks; b++)
      for (let i = 0; i < kids.length; i++) {
        const k = kids[(i + b) % kids.length];
        cpu.get(k.variant)!.push(await k.run(perBlock));
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const [v, xs] of cpu)
      console.log(
        `   ${v.padEnd(12)} ${median(xs).toFixed(2)} µs CPU/request (blocks ${Math.min(...xs).toFixed(2)} to ${Math.max(...xs).toFixed(2)})`,
      );
    const m = (v: Variant) => (cpu.has(v) ? median(cpu.get(v)!) : NaN);
    console.log(
      `   on minus off ${(m('on') - m('off')).toFixed(2)} µs: the headers (headers+key minus off) ${(m('headers+key') - m('off')).toFixed(2)}, the decision (on minus headers+key) ${(m('on') - m('headers+key')).toFixed(2)}; load average at the end ${loadavg()[0].toFixed(1)}`,
    );
  } finally {
    for (const k of kids) k.stop();
  }
}

const argv = process.argv.slice(2);
if (argv[0] === '--serve') await serve(argv[1] as Variant);
else {
  await main();
  process.exit(0);
}
