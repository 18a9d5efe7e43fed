/**
 * What a default start loads on its main thread: neither the PostgreSQL driver (`pg`, for `--database-url` only),
 * fastify's schema compilers (Ajv and the fast-json-stringify compiler; no route declares a schema) nor prom-client
 * (nobody can read /metrics without the admin API), and before it serves, not the action classifier (the index's and
 * the pending layer's threads classify) nor the Emulate API's answer (loaded at the first emulation). Each costs the
 * main thread tens of milliseconds before the API serves. Nor, by the time its v3 indexes are open, the index's
 * main-thread writer (the index's threads write a server's blocks), the classifier it brings, the trace back-fill (an
 * index from before traces) or the rewind (a snapshot restore): ~75 modules the main thread read before v3 answered.
 * Checked in a process of its own, whose loader reports every module it loads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { lazySchemaCompilers } from '../../src/http/lazy-schema-compilers.js';

const SCRIPT = new URL('./support/start-and-list-packages.ts', import.meta.url).pathname;

interface Loads {
  packages: string[];
  beforeServing: string[];
  started: string[];
}
let loading: Promise<Loads> | undefined;
/** One start, read by both tests below. */
function defaultStartLoads(): Promise<Loads> {
  loading ??= promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], { timeout: 240_000 }).then(
    ({ stdout }) => JSON.parse(stdout.trim().split('\n').pop()!) as Loads,
  );
  return loading;
}

test('a default start loads neither pg, the schema compilers nor prom-client, and serves before loading the classifier', async () => {
  const loads = await defaultStartLoads();
  assert.ok(loads.packages.includes('fastify') && loads.packages.includes('better-sqlite3'), `packages read: ${loads.packages.join(', ')}`);
  for (const absent of ['pg', 'ajv', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'prom-client']) {
    assert.ok(!loads.packages.includes(absent), `${absent} was loaded by a default start`);
  }
  assert.ok(loads.beforeServing.includes('src/gateway/gateway.ts'), `modules read: ${loads.beforeServing.length}`);
  for (const later of ['src/index/actions/classify.ts', 'src/emulate/answer.ts']) {
    assert.ok(!loads.beforeServing.includes(later), `${later} was loaded before serving`);
  }
});

test('a default start opens its v3 indexes without the main-thread writer, the classifier, the trace back-fill or the rewind', async () => {
  const loads = await defaultStartLoads();
  assert.ok(loads.started.includes('src/index/run-index.ts'), `modules read: ${loads.started.length}`);
  for (const absent of ['src/index/writer.ts', 'src/index/actions/classify.ts', 'src/index/traces/backfill.ts', 'src/index/rewind.ts']) {
    assert.ok(!loads.started.includes(absent), `${absent} was loaded by the time the indexes were open`);
  }
});

test('the lazy compilers still validate and serialize a route that declares schemas', async (t) => {
  const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers } });
  t.after(() => app.close());
  app.get(
    '/sum',
    {
      schema: {
        querystring: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
        response: { 200: { type: 'object', properties: { sum: { type: 'integer' } } } },
      },
    },
    async (request) => ({ sum: (request.query as { a: number }).a + 1, secret: 'not in the schema' }),
  );
  const bad = await app.inject('/sum?a=x');
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /querystring\/a must be integer/);
  const good = await app.inject('/sum?a=41');
  assert.equal(good.statusCode, 200);
  assert.deepEqual(good.json(), { sum: 42 });
});
