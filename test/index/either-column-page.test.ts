/**
 * `/jetton/transfers?owner_address=` and `/nft/transfers?owner_address=` (either side) read as two ordered index
 * scans merged (src/index/tokens/either-column-page.ts), both stores: every page equals the one the former
 * `source IN (..) OR destination IN (..)` query gave, over rows with interleaved sides, equal lts, transfers to
 * oneself and aborted rows, for several offsets, limits, orders and windows; a self-transfer is listed once; and
 * the plan (not the time) shows the two owner indexes walked and no sort of all the owner's rows.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex, type IndexOptions } from '../../src/index/open-index.js';
import type { SqlDriver, SqlValue } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { eitherColumnPage } from '../../src/index/tokens/either-column-page.js';
import { NftReader } from '../../src/index/tokens/nft-reader.js';
import { TokenReader } from '../../src/index/tokens/reader.js';
import { eventBatch, nftTransferBatch } from '../../src/index/tokens/token-rows.js';
import { Where } from '../../src/index/sql/where.js';
import type { SortOrder } from '../../src/index/types.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';

type StoreName = 'sqlite' | 'postgres';

async function place(t: TestContext, store: StoreName): Promise<{ options: IndexOptions; driver: () => Promise<SqlDriver> } | null> {
  if (store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tongate-either-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return { options: { network: 'testnet', dataDir: dir }, driver: async () => SqliteDriver.open(join(dir, 'testnet', 'index.sqlite')) };
  }
  if (!(await requireService(t, 'postgres'))) return null;
  const schema = uniqueName('tongate_either');
  t.after(() => dropSchema(schema));
  return { options: { network: 'testnet', databaseUrl: POSTGRES_URL, schema }, driver: () => PostgresDriver.open(POSTGRES_URL, schema) };
}

const OWNERS = 200;
const ROWS = 20_000;
const owner = (n: number) => `0:${n.toString(16).padStart(64, '0')}`;
const hash = (i: number) => createHash('sha256').update(`tx ${i}`).digest();
/** Row i: lts in groups of three (equal lts, tx_hash decides), owner 0 on one side of every 10th row, owner 1 a
 * sender to itself every 50th, the rest spread over owners 10..199; every 17th aborted. */
function sides(i: number): [string, string] {
  if (i % 50 === 0) return [owner(1), owner(1)];
  if (i % 10 === 0) return i % 20 === 0 ? [owner(0), owner(2 + (i % 7))] : [owner(3 + (i % 5)), owner(0)];
  return [owner(10 + ((i * 7919) % (OWNERS - 10))), owner(10 + ((i * 104_729 + 13) % (OWNERS - 10)))];
}
const lt = (i: number) => 1_000n + BigInt(Math.floor(i / 3));
const now = (i: number) => 1_700_000_000 + Math.floor(i / 30);

function jettonRow(i: number): SqlValue[] {
  const [source, destination] = sides(i);
  return [
    hash(i),
    lt(i),
    now(i),
    i % 17 === 0 ? 1 : 0,
    1,
    '0',
    '1',
    owner(300 + (i % 3)),
    owner(400),
    null,
    null,
    null,
    source,
    destination,
    '0',
    null,
  ];
}
function nftRow(i: number): SqlValue[] {
  const [from, to] = sides(i);
  return [
    hash(i),
    lt(i),
    now(i),
    i % 17 === 0 ? 1 : 0,
    1,
    '0',
    owner(500 + (i % 11)),
    String(i % 11),
    owner(600),
    from,
    to,
    null,
    null,
    null,
    null,
    null,
  ];
}

interface Case {
  owners: string[];
  sort: SortOrder;
  offset: number;
  limit: number;
  window: { startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number };
}

function cases(): Case[] {
  const out: Case[] = [];
  const owners = [[owner(0)], [owner(1)], [owner(12)], [owner(0), owner(1)]];
  const windows = [{}, { startLt: 2_000n, endLt: 5_000n }, { startUtime: now(3_000), endUtime: now(9_000) }];
  for (const o of owners)
    for (const sort of ['desc', 'asc'] as SortOrder[])
      for (const window of windows)
        for (const [offset, limit] of [
          [0, 1],
          [0, 10],
          [1, 3],
          [9, 10],
          [10, 10],
          [37, 50],
          [500, 7],
        ])
          out.push({ owners: o, sort, offset, limit, window });
  return out;
}

/** The query each reader ran before: an OR of the two sides, ordered and cut. */
function orQuery(table: string, columns: [string, string], c: Case, extra: string[]): { sql: string; params: SqlValue[] } {
  const where = new Where();
  for (const e of extra) where.add(e);
  const marks = c.owners.map(() => '?').join(', ');
  where.add(`(${columns[0]} IN (${marks}) OR ${columns[1]} IN (${marks}))`, ...c.owners, ...c.owners);
  where
    .add('tx_now >= ?', c.window.startUtime)
    .add('tx_now <= ?', c.window.endUtime)
    .add('tx_lt >= ?', c.window.startLt)
    .add('tx_lt <= ?', c.window.endLt);
  const column = c.window.startUtime !== undefined ? 'tx_now' : 'tx_lt';
  const d = c.sort === 'asc' ? 'ASC' : 'DESC';
  return {
    sql: `SELECT tx_hash FROM ${table} ${where} ORDER BY ${column} ${d}, tx_hash ${d} LIMIT ${c.limit} OFFSET ${c.offset}`,
    params: where.params,
  };
}

const hex = (b: unknown) => Buffer.from(b as Buffer).toString('hex');

function nodes(plan: any): any[] {
  return [plan, ...((plan.Plans ?? []) as unknown[]).flatMap(nodes)];
}

for (const store of ['sqlite', 'postgres'] as StoreName[]) {
  test(
    `owner transfers as two merged index scans: the OR query's pages, a self-transfer once, the owner indexes in the plan [${store}]`,
    { timeout: 240_000 },
    async (t) => {
      const where = await place(t, store);
      if (!where) return;
      const index = await openIndex(where.options);
      t.after(() => index.close());
      for (let start = 0; start < ROWS; start += 5_000) {
        const ids = Array.from({ length: 5_000 }, (_, k) => start + k);
        await index.writer.writeRows([eventBatch('jetton_transfers', ids.map(jettonRow)), nftTransferBatch(ids.map(nftRow))]);
      }
      const driver = await where.driver();
      t.after(() => driver.close());
      if (store === 'postgres') await driver.exec('ANALYZE jetton_transfers; ANALYZE nft_transfers');
      const jettons = new TokenReader(index.reads);
      const nfts = new NftReader(index.reads);

      // Pages equal the OR query's, row for row.
      let compared = 0;
      for (const c of cases()) {
        const page = { offset: c.offset, limit: c.limit };
        const old = orQuery('jetton_transfers', ['source', 'destination'], c, ['tx_aborted = 0']);
        const expected = (await driver.all(old.sql, old.params)).map((r) => hex(r.tx_hash));
        const got = (await jettons.jettonTransfers({ owners: c.owners, ...c.window }, c.sort, page)).map((r) => r.txHash.toString('hex'));
        assert.deepEqual(got, expected, `jetton ${JSON.stringify({ ...c, window: String(Object.keys(c.window)) })}`);
        const oldNft = orQuery('nft_transfers', ['old_owner', 'new_owner'], c, []);
        const expectedNft = (await driver.all(oldNft.sql, oldNft.params)).map((r) => hex(r.tx_hash));
        const gotNft = (await nfts.transfers({ owners: c.owners, ...c.window }, c.sort, page)).map((r) => r.txHash.toString('hex'));
        assert.deepEqual(gotNft, expectedNft, `nft ${JSON.stringify({ ...c, window: String(Object.keys(c.window)) })}`);
        if (expected.length > 0) compared++;
      }
      assert.ok(compared > 100, `${compared} non-empty pages compared`);

      // A transfer to oneself (row 100: owner 1 to owner 1) is listed once, at its place.
      const all = (await jettons.jettonTransfers({ owners: [owner(1)] }, 'asc', { offset: 0, limit: 1_000 })).map((r) =>
        r.txHash.toString('hex'),
      );
      assert.equal(all.filter((h) => h === hash(100).toString('hex')).length, 1);
      assert.equal(new Set(all).size, all.length);
      assert.equal(all.length, Math.ceil(ROWS / 50) - Math.ceil(ROWS / (50 * 17)), 'owner 1: its self-transfers, aborted ones left out');
      const allNft = (await nfts.transfers({ owners: [owner(1)] }, 'asc', { offset: 0, limit: 1_000 })).map((r) =>
        r.txHash.toString('hex'),
      );
      assert.equal(allNft.length, Math.ceil(ROWS / 50), 'nft: each self-transfer once, aborted ones kept');

      // The plan, for an owner of 1% of the rows: each side walks its owner index and stops at the page; the OR form
      // sorted every row of the owner. (For owner 0, a tenth of the rows, PostgreSQL rightly walks tx_lt instead.)
      const q = eitherColumnPage({
        table: 'jetton_transfers',
        columns: ['source', 'destination'],
        values: [owner(12)],
        shared: new Where().add('tx_aborted = 0'),
        orderBy: 'tx_lt DESC, tx_hash DESC',
        page: { offset: 10, limit: 10 },
      });
      const old = orQuery(
        'jetton_transfers',
        ['source', 'destination'],
        { owners: [owner(12)], sort: 'desc', offset: 10, limit: 10, window: {} },
        ['tx_aborted = 0'],
      );
      if (store === 'sqlite') {
        const plan = (await driver.all(`EXPLAIN QUERY PLAN ${q.sql}`, q.params)).map((r) => String(r.detail));
        const text = plan.join(' | ');
        assert.ok(
          plan.some((d) => d.includes('USING INDEX jetton_transfers_source_lt (source=?)')),
          text,
        );
        assert.ok(
          plan.some((d) => d.includes('USING INDEX jetton_transfers_destination_lt (destination=?)')),
          text,
        );
        assert.ok(!plan.some((d) => d.includes('MULTI-INDEX OR')), text);
        // The scans come in tx_lt order: only rows of equal lt are sorted by hash (LAST TERM); a full sort is only
        // of a side's output (SCAN a / SCAN b: at most offset+limit = 20 rows), never of the owner's rows.
        assert.ok(plan.filter((d) => d.includes('LAST TERM OF ORDER BY')).length === 2, text);
        plan.forEach((d, i) => d === 'USE TEMP B-TREE FOR ORDER BY' && assert.match(plan[i - 1], /^SCAN [ab]$/, text));
        const before = (await driver.all(`EXPLAIN QUERY PLAN ${old.sql}`, old.params)).map((r) => String(r.detail));
        assert.ok(before.some((d) => d.includes('MULTI-INDEX OR')) && before.includes('USE TEMP B-TREE FOR ORDER BY'), before.join(' | '));
        console.log(`# sqlite plan: ${text}`);
      } else {
        const plan = (await driver.all(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.sql}`, q.params))[0]['QUERY PLAN'] as any;
        const scans = nodes(plan[0].Plan).filter((n) => n['Relation Name'] === 'jetton_transfers');
        assert.deepEqual(
          scans.map((n) => n['Index Name']).sort(),
          ['jetton_transfers_destination_lt', 'jetton_transfers_source_lt'],
          JSON.stringify(scans.map((n) => [n['Node Type'], n['Index Name']])),
        );
        const read = scans.reduce((sum, n) => sum + Number(n['Actual Rows']) * Number(n['Actual Loops'] ?? 1), 0);
        const owned = Number(
          (await driver.all(`SELECT COUNT(*) AS n FROM jetton_transfers WHERE source = ? OR destination = ?`, [owner(12), owner(12)]))[0].n,
        );
        console.log(`# postgres: rows read for a page of 10 at offset 10 of an owner with ${owned} transfers: ${read}`);
        assert.ok(read <= 2 * (20 + 4), `${read} rows read`);
        assert.ok(owned > 100, `owner 12 has ${owned} transfers`);
      }
    },
  );
}
