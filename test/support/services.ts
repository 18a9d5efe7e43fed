/**
 * Real PostgreSQL and Redis for tests (127.0.0.1:5432 user postgres db test; 127.0.0.1:6379).
 * requireService probes the service: reachable -> true; unreachable -> with CI=true the test FAILS,
 * otherwise it is skipped with the reason printed.
 */
import { createConnection } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export type ServiceKind = 'postgres' | 'redis';

const probes = new Map<ServiceKind, Promise<string | undefined>>();

export async function requireService(t: TestContext, kind: ServiceKind): Promise<boolean> {
  let probe = probes.get(kind);
  if (probe === undefined) {
    probe = kind === 'postgres' ? probePostgres() : probeRedis();
    probes.set(kind, probe);
  }
  const problem = await probe;
  if (problem === undefined) return true;
  const message = `${kind} unreachable: ${problem}`;
  if (process.env.CI === 'true') throw new Error(`${message} (CI=true: services are required)`);
  console.log(`# skipping: ${message}`);
  t.skip(message);
  return false;
}

async function probePostgres(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function probeRedis(): Promise<string | undefined> {
  const url = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port || 6379) });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(2000, () => done('timeout'));
    socket.once('error', (error) => done(error.message));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG') ? undefined : `unexpected reply ${data.toString().trim()}`));
  });
}

/** A name unique to this test run, for PostgreSQL schemas and Redis key prefixes. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Drops a schema created by a test (CASCADE: its tongate_* tables). */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test (several tongates sharing a `--database-url` with nothing else in it), dropped
 * when the test ends; its URL.
 */
export async function privateDatabase(t: TestContext, prefix: string): Promise<URL> {
  const database = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  t.after(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  return url;
}
