/**
 * Runs the same test body on both stores: SQLite in memory and PostgreSQL in a schema of its own
 * (dropped afterwards), so parallel runs never share tables.
 */
import { test, type TestContext } from 'node:test';
import { openIndex, type Index } from '../../../src/index/open-index.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../../support/services.js';

export type StoreName = 'sqlite' | 'postgres';

export interface OpenedStore {
  index: Index;
  /** Options that open the same index again (PostgreSQL: same schema; SQLite: a file path when asked). */
  reopen(): Promise<Index>;
}

/** Opens an index on `store`; null when PostgreSQL is unavailable (the test was skipped). */
export async function openStore(t: TestContext, store: StoreName, network = 'testnet', file?: string): Promise<OpenedStore | null> {
  if (store === 'sqlite') {
    const options = { network, dataDir: file };
    const index = await openIndex(options);
    t.after(() => index.close());
    return { index, reopen: () => openIndex(options) };
  }
  if (!(await requireService(t, 'postgres'))) return null;
  const schema = uniqueName('tongate_test');
  const options = { network, databaseUrl: POSTGRES_URL, schema };
  const index = await openIndex(options);
  t.after(async () => {
    await index.close();
    await dropSchema(schema);
  });
  return { index, reopen: () => openIndex(options) };
}

/** Registers `title [sqlite]` and `title [postgres]`. */
export function eachStore(title: string, body: (t: TestContext, store: OpenedStore, name: StoreName) => Promise<void>): void {
  for (const name of ['sqlite', 'postgres'] as const) {
    test(`${title} [${name}]`, async (t) => {
      const store = await openStore(t, name);
      if (store) await body(t, store, name);
    });
  }
}
