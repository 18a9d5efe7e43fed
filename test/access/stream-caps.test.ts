/**
 * The streaming caps a key store keeps (stream_connections, stream_addresses), on SQLite and PostgreSQL: a store
 * written before the address cap existed (migrations 1-2) is upgraded in place, its keys keep working with the
 * default; then a key's own cap wins over its account's, and a key that sets none takes its account's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { MIGRATIONS, type KeyStore } from '../../src/access/keys/key-store.js';
import { PostgresKeyStore } from '../../src/access/keys/postgres-key-store.js';
import { KEYS_FILE_NAME, SqliteKeyStore } from '../../src/access/keys/sqlite-key-store.js';
import { POSTGRES_URL, dropSchema, requireService, uniqueName } from '../support/services.js';

const OLD_VERSIONS = 2;
const OLD_KEY = `INSERT INTO tongate_api_keys (id, hash, display, network, rps, account, label, expires_at, created_at, revoked_at, revision, stream_connections)
  VALUES ('old', 'old-hash', 'tg_old', 'testnet', 10, NULL, NULL, NULL, 1, NULL, 1, 3)`;

async function checkCaps(store: KeyStore): Promise<void> {
  const old = await store.findByHash('old-hash');
  assert.equal(old?.streamConnections, 3, 'the older key keeps its connection cap');
  assert.equal(old?.streamAddresses, null, 'and takes the default address cap');
  await store.setAccountLimit({ name: 'acme', network: 'testnet', rps: 100, updatedAt: 2, streamAddresses: 50 });
  const base = { network: 'testnet', rps: 10, account: 'acme', label: null, expiresAt: null, createdAt: 3 };
  const own = await store.insertKey({ ...base, id: 'own', hash: 'own-hash', display: 'tg_own', streamAddresses: 5 });
  assert.equal(own.streamAddresses, 5);
  await store.insertKey({ ...base, id: 'inherits', hash: 'inherits-hash', display: 'tg_inh' });
  assert.equal((await store.findByHash('own-hash'))?.streamAddresses, 5, "the key's own cap first");
  assert.equal((await store.findByHash('inherits-hash'))?.streamAddresses, 50, "else its account's");
  assert.deepEqual(
    (await store.listAccountLimits()).map((a) => [a.name, a.streamAddresses]),
    [['acme', 50]],
  );
}

test('SQLite: an older key store gains the address cap; key first, then account', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-caps-'));
  try {
    const db = new Database(join(dir, KEYS_FILE_NAME));
    db.exec('CREATE TABLE tongate_schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    for (let v = 1; v <= OLD_VERSIONS; v++) {
      db.exec(MIGRATIONS[v - 1]);
      db.prepare('INSERT INTO tongate_schema_migrations (version, applied_at) VALUES (?, 0)').run(v);
    }
    db.exec(OLD_KEY);
    db.close();
    const store = SqliteKeyStore.open(dir);
    try {
      await checkCaps(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL: an older key store gains the address cap; key first, then account', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tg_caps');
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(`SET search_path TO "${schema}"`);
    await client.query('CREATE TABLE tongate_schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    for (let v = 1; v <= OLD_VERSIONS; v++) {
      await client.query(MIGRATIONS[v - 1]);
      await client.query('INSERT INTO tongate_schema_migrations (version, applied_at) VALUES ($1, 0)', [v]);
    }
    await client.query(OLD_KEY);
    const store = await PostgresKeyStore.open({ url: POSTGRES_URL, schema });
    try {
      await checkCaps(store);
    } finally {
      await store.close();
    }
  } finally {
    await client.end();
    await dropSchema(schema);
  }
});
