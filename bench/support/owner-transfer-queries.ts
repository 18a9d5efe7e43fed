/**
 * The query of `/jetton/transfers?owner_address=X&limit=10` alone, warm, for owners of a given rank: the former
 * `source = X OR destination = X` form against the reader's two merged index scans (src/index/tokens/
 * either-column-page.ts), through the index's own reads (SQLite's reader threads, the PostgreSQL pool),
 * alternated query by query so the machine's load falls on both alike.
 */
import type { Index } from '../../src/index/open-index.js';
import { eitherColumnPage } from '../../src/index/tokens/either-column-page.js';
import { Where } from '../../src/index/sql/where.js';

export interface FormTimes {
  rank: number;
  rows: number;
  or: { p50: number; p99: number };
  merged: { p50: number; p99: number };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export async function ownerTransferForms(
  index: Index,
  owners: readonly string[],
  ranks: readonly number[],
  rounds: number,
): Promise<FormTimes[]> {
  const out: FormTimes[] = [];
  for (const rank of ranks) {
    const owner = owners[rank];
    const orderBy = 'tx_lt DESC, tx_hash DESC';
    const or = {
      sql: `SELECT * FROM jetton_transfers WHERE tx_aborted = 0 AND (source IN (?) OR destination IN (?)) ORDER BY ${orderBy} LIMIT 10 OFFSET 0`,
      params: [owner, owner],
    };
    const merged = eitherColumnPage({
      table: 'jetton_transfers',
      columns: ['source', 'destination'],
      values: [owner],
      shared: new Where().add('tx_aborted = 0'),
      orderBy,
      page: { offset: 0, limit: 10 },
    });
    const [{ n }] = await index.reads.all(
      'SELECT COUNT(*) AS n FROM jetton_transfers WHERE tx_aborted = 0 AND (source = ? OR destination = ?)',
      [owner, owner],
    );
    const times = { or: [] as number[], merged: [] as number[] };
    for (let i = 0; i < rounds * 1.2; i++) {
      for (const [name, q] of [
        ['or', or],
        ['merged', merged],
      ] as const) {
        const started = performance.now();
        const rows = await index.reads.all(q.sql, q.params);
        const took = performance.now() - started;
        if (rows.length !== Math.min(10, Number(n))) throw new Error(`${name}: ${rows.length} rows`);
        if (i >= rounds * 0.2) times[name].push(took); // the first fifth warms the caches
      }
    }
    const stats = (t: number[]) => {
      const sorted = [...t].sort((a, b) => a - b);
      return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
    };
    out.push({ rank, rows: Number(n), or: stats(times.or), merged: stats(times.merged) });
  }
  return out;
}
