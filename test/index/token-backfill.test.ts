/**
 * The token back-fill (src/index/tokens/backfill.ts) on both stores: a jetton (master, wallets, a transfer, a burn,
 * a bounced transfer), an NFT collection with items (one transferred) and a DNS root with a domain are deployed on a
 * local chain (test/contracts/support/scenario.ts); an index is written the way a tongate before token detection wrote it
 * (migrations 1-3, rows without `interfaces`), then upgraded. A first run is stopped after its first group with
 * contracts (a restart in the middle), the upgrade's own run (the store thread's, started by runIndex) resumes it,
 * and every token, DNS and interfaces row then equals, row for row, the rows of an index that followed the chain
 * live. A second start finds nothing to do.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalChain } from '../../src/chain/local/index.js';
import { BlockCommitter } from '../../src/index/block-committer.js';
import { CodeBocCache, renderBlock } from '../../src/index/block-rows.js';
import { feedFromChain, indexedFromFeed } from '../../src/index/feed.js';
import { openIndex, type IndexOptions, type ServedIndex } from '../../src/index/open-index.js';
import { runIndex, type RunningIndex } from '../../src/index/run-index.js';
import { MIGRATIONS, migrate } from '../../src/index/schema.js';
import type { SqlDriver, SqlReads, SqlValue } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { directGetMethods } from '../../src/index/tokens/get-methods.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { tempDir } from '../chain/local/support/local-chain.js';
import { startContractsChain } from '../contracts/support/contracts-chain.js';
import { deployTokenScenario, scenarioDnsRoot } from '../contracts/support/scenario.js';
import { until } from '../devnet/support/manual-tongate.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { dumpTables, TOKEN_TABLES, type TableOrder } from '../support/table-dump.js';

type Store = 'sqlite' | 'postgres';
type Location = Pick<IndexOptions, 'dataDir' | 'databaseUrl' | 'schema'>;

function place(t: TestContext, store: Store): Location {
  if (store === 'sqlite') return { dataDir: tempDir(t) };
  const schema = uniqueName('tongate_tokbf');
  t.after(() => dropSchema(schema));
  return { databaseUrl: POSTGRES_URL, schema };
}

async function driverAt(location: Location): Promise<SqlDriver> {
  if (location.databaseUrl) return PostgresDriver.open(location.databaseUrl, location.schema!);
  const dir = join(location.dataDir!, 'testnet');
  mkdirSync(dir, { recursive: true });
  return SqliteDriver.open(join(dir, 'index.sqlite'));
}

/** What a tongate before token detection wrote: migrations 1-3, and rows without the `interfaces` column. */
async function writeOldIndex(location: Location, chain: LocalChain): Promise<void> {
  const driver = await driverAt(location);
  await migrate(
    driver,
    MIGRATIONS.filter((m) => m.version <= 3),
  );
  const committer = new BlockCommitter(driver);
  const codeBocs = new CodeBocCache();
  for (let seqno = 0; seqno <= chain.masterchainInfo().last.id.seqno; seqno++) {
    const rendered = renderBlock(indexedFromFeed(await feedFromChain(chain, seqno)), codeBocs);
    const rows = (rendered.rows as Exclude<typeof rendered.rows, Error>).map((batch) => {
      const keep = batch.columns.map((c, i) => (c === 'interfaces' ? -1 : i)).filter((i) => i >= 0);
      return {
        ...batch,
        columns: keep.map((i) => batch.columns[i]),
        rows: batch.rows.map((row) => keep.map((i) => row[i])),
        conflict: batch.conflict?.replace(', interfaces = excluded.interfaces', ''),
      };
    });
    await committer.commit({ ...rendered, rows, tokens: undefined });
  }
  await driver.close();
}

const TABLES: readonly TableOrder[] = [...TOKEN_TABLES, ['dns_entries', 'nft_item_address']];
const dump = (reads: SqlReads) => dumpTables(reads, TABLES);

/** Equal row for row; on a difference, the rows each side lacks (not the whole dump). */
function sameRows(actual: Record<string, string[]>, expected: Record<string, string[]>): void {
  for (const [table] of TABLES) {
    const missing = expected[table].filter((row) => !actual[table].includes(row));
    const extra = actual[table].filter((row) => !expected[table].includes(row));
    assert.deepEqual({ table, missing, extra }, { table, missing: [], extra: [] });
    assert.deepEqual(actual[table], expected[table], `${table}: same rows in the same order`);
  }
}

// The token back-fill's own row (the actions back-fill keeps one in the same table).
const cursorRows = async (index: ServedIndex) =>
  (await index.reads.all("SELECT after_key FROM index_backfill_cursors WHERE name = 'tokens'")).length;

for (const store of ['sqlite', 'postgres'] as const) {
  test(`token back-fill: an index written before token detection gets the live index's token, DNS and interfaces rows, resuming after a stop [${store}]`, async (t) => {
    if (store === 'postgres' && !(await requireService(t, 'postgres'))) return;
    const root = await scenarioDnsRoot();
    const dnsRoots = [formatRawUpper(root)];
    const env = await startContractsChain(t, { dnsRoot: [`testnet=${root.toString()}`] });
    const chain = env.gate.chain('testnet');
    const s = await deployTokenScenario(env);

    const run = async (location: Location, logger?: { info(o: object, m: string): void; error(): void }): Promise<RunningIndex> => {
      const running = await runIndex({ network: 'testnet', chain, dnsRoots, ...location, logger });
      t.after(() => running.close());
      await running.attachment.synced();
      return running;
    };
    const live = await run(place(t, store));
    const expected = await dump(live.index.reads);
    assert.equal(expected.jetton_wallets.length, s.jetton.wallets.length, 'the live index found the wallets');
    assert.ok(
      expected.jetton_transfers.length > 0 &&
        expected.jetton_burns.length > 0 &&
        expected.nft_transfers.length > 0 &&
        expected.dns_entries.length === 1,
    );

    const old = place(t, store);
    await writeOldIndex(old, chain);

    // The upgrade, stopped after its first group that wrote a contract (a restart in the middle).
    const first = await openIndex({ network: 'testnet', ...old });
    assert.equal(await cursorRows(first), 1, 'migration 7 marks an index that holds accounts');
    first.writer.useGetMethods(
      directGetMethods((a, m, stack, seqno) => chain.runGetMethod(a, m, stack, seqno)),
      dnsRoots,
    );
    let stop = false;
    const outcome = await first.writer.backfillTokens({
      dnsRoots,
      groupAccounts: 3,
      pauseMs: 0,
      stopped: () => stop,
      onGroup: (p) => (stop ||= p.contracts > 0),
    });
    assert.equal(outcome, 'stopped');
    const partial = await dump(first.reads);
    const contracts = (d: Record<string, string[]>) =>
      ['jetton_masters', 'jetton_wallets', 'nft_collections', 'nft_items'].reduce((n, table) => n + d[table].length, 0);
    assert.ok(
      contracts(partial) > 0 && contracts(partial) < contracts(expected),
      `part of the contracts: ${contracts(partial)} of ${contracts(expected)}`,
    );
    assert.equal(await cursorRows(first), 1, 'the cursor is kept');
    // A contract the back-fill has not come to yet changes after the upgrade: live detection meets it first, and
    // writes its row with that state's lt as first_lt. The back-fill puts first_lt back to a live index's.
    const [{ after_key: cursor }] = await first.reads.all("SELECT after_key FROM index_backfill_cursors WHERE name = 'tokens'");
    const [metLive] = await live.index.reads.all(
      'SELECT * FROM jetton_wallets WHERE first_lt <> last_transaction_lt AND address > ? ORDER BY address LIMIT 1',
      [cursor as SqlValue],
    );
    assert.ok(metLive, 'a wallet the stopped run did not reach, whose first state is not its last');
    const columns = Object.keys(metLive);
    await first.writer.writeRows([
      {
        table: 'jetton_wallets',
        columns,
        rows: [columns.map((c): SqlValue => (c === 'first_lt' ? metLive.last_transaction_lt : metLive[c]) as SqlValue)],
      },
    ]);
    await first.close();

    // The next start resumes in its store thread, beside the indexing, and ends where a live index is.
    const lines: string[] = [];
    const upgraded = await run(old, {
      info: (object, message) => {
        lines.push(message);
        if (/back-fill done/.test(message)) t.diagnostic(`${message}: ${JSON.stringify(object)}`);
      },
      error: () => {},
    });
    // The done line crosses from the store thread to this logger after the cursor row is gone: wait for it, and for
    // the passes that follow (migrations 18 and 19 left their cursors too; the scenario has no auction or v4 sale).
    await until(
      async () => ['token', 'auction', 'v4 sale'].every((pass) => lines.some((l) => l.includes(`${pass} back-fill done`))),
      (done) => done,
    );
    assert.equal(await cursorRows(upgraded.index), 0, 'the back-fill ended');
    assert.ok(
      lines.some((l) => /detecting the token contracts/.test(l)),
      `progress in the log: ${lines.join(' | ')}`,
    );
    sameRows(await dump(upgraded.index.reads), expected);
    await upgraded.close();

    // A second start does nothing.
    const again = await openIndex({ network: 'testnet', ...old });
    t.after(() => again.close());
    assert.equal(await again.writer.backfillTokens({ dnsRoots }), 'none');
    sameRows(await dump(again.reads), expected);
  });
}
