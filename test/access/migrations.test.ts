/** The key store's versioned migrations: safe when several instances start at once on a fresh schema. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresKeyStore } from '../../src/access/keys/postgres-key-store.js';
import { MIGRATIONS } from '../../src/access/keys/key-store.js';
import { POSTGRES_URL, dropSchema, requireService, uniqueName } from '../support/services.js';

test('PostgreSQL: four instances migrating one fresh schema at once apply each version once', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tg_migr');
  try {
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresKeyStore.open({ url: POSTGRES_URL, schema })));
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT version FROM "${schema}".tongate_schema_migrations ORDER BY version`);
      assert.deepEqual(
        rows.map((r) => r.version),
        MIGRATIONS.map((_, i) => i + 1),
      );
      const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [
        schema,
      ]);
      assert.deepEqual(
        tables.rows.map((r) => r.table_name),
        ['tongate_accounts', 'tongate_api_keys', 'tongate_meta', 'tongate_schema_migrations'],
      );
    } finally {
      await client.end();
    }
    // Every instance works on the result.
    assert.equal(await stores[3].revision(), 0);
    for (const s of stores) await s.close();
  } finally {
    await dropSchema(schema);
  }
});
