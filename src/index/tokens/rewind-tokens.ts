/**
 * The token tables put back with the rest of the index (rewind.ts, a devnet snapshot restore), so they hold what
 * an index built from the restored chain would hold:
 *   jetton_transfers, jetton_burns, nft_transfers   events: rows of transactions after the snapshot deleted (by lt)
 *   jetton_masters, jetton_wallets, nft_collections, nft_items, nft_sales, nft_auctions, multisig_*, vesting_contracts, dex_pools   latest state: the rows of every account changed
 *       after the snapshot deleted; those detected by the snapshot (first_lt before it) detected again at the
 *       restored state (the same get-methods at the restored masterchain seqno, on the account's code and data as
 *       of it) and written back with their first_lt. One detected after the snapshot does not come back: an index
 *       built from the restored chain never saw it change into a token contract.
 * Why detect again rather than delete and wait: a deleted wallet would stay missing until its next transaction,
 * while an index built from scratch has it from its last change before the snapshot, with the values of the state
 * the restore brought back; detection at that state gives exactly those. Without get-methods (a feed that has
 * none, as for block detection) the rows of changed accounts are deleted: nothing could say what they were.
 * multisig_members and vesting_whitelist (TOKEN_CHILD_TABLES) follow their wallet: deleted with it, written back with it.
 * dns_entries (src/index/dns) follow nft_items: a changed item's row deleted, read again (get_domain, dnsresolve)
 * when the item comes back and is a domain of one of the network's DNS roots.
 * token_detection_failures (detection-retry.ts): the failed states after the snapshot deleted.
 * token_metadata (by uri, not chain data) stays.
 */
import { loadShardAccount, type Cell } from '@ton/core';
import { Cell as CellClass } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import type { InsertBatch, SqlDriver, SqlValue } from '../sql/driver.js';
import { bigint } from '../sql/values.js';
import { accountCandidate, MethodCache, type TokenAccountCandidate } from './block-tokens.js';
import { TokenDetector } from './detector.js';
import { DETECTION_FAILURES_TABLE } from './detection-retry-schema.js';
import type { GetMethodRunner } from './get-methods.js';
import type { IndexRewind } from '../types.js';

export const TOKEN_EVENT_TABLES = ['jetton_transfers', 'jetton_burns', 'nft_transfers'] as const;
export const TOKEN_STATE_TABLES = [
  'jetton_masters',
  'jetton_wallets',
  'nft_collections',
  'nft_items',
  'nft_sales',
  'nft_auctions',
  'multisig_wallets',
  'multisig_orders',
  'vesting_contracts',
  'dex_pools',
] as const;
/** Rows that belong to a contract of a state table: (table, column naming the contract, its state table). */
export const TOKEN_CHILD_TABLES = [
  ['multisig_members', 'multisig_address', 'multisig_wallets'],
  ['vesting_whitelist', 'vesting_address', 'vesting_contracts'],
] as const;

export interface TokenRewind {
  /** Statements run first in the rewind's transaction: the changed accounts' rows deleted. */
  before: string[];
  /** The contracts detected again, as they were at the snapshot (first_lt as stored). */
  batches: InsertBatch[];
  /** Statements run last: later events deleted. */
  after: string[];
}

const LOOKUP_CHUNK = 500;
const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;

/** What the restored state of one account offers detection (null: no account, or no token get-method). */
function candidateOf(address: string, shardAccount: Buffer | Cell | null, methods: MethodCache): TokenAccountCandidate | null {
  if (shardAccount === null) return null;
  const cell = Buffer.isBuffer(shardAccount) ? CellClass.fromBoc(shardAccount)[0] : shardAccount;
  const loaded = loadShardAccount(cell.beginParse());
  const state = loaded.account?.storage.state;
  if (state?.type !== 'active') return null;
  return accountCandidate(address, state.state.code ?? undefined, state.state.data ?? undefined, loaded.lastTransactionLt, methods);
}

export async function rewoundTokens(
  driver: SqlDriver,
  rewind: IndexRewind,
  firstLt: bigint,
  runner: GetMethodRunner | undefined,
  dnsRoots: readonly string[] = [],
): Promise<TokenRewind> {
  const changed = new Map(rewind.accounts.map((a) => [formatRawUpper(a.address), a.shardAccount]));
  // Raw addresses we formatted ourselves; checked anyway, since they are written into the statements.
  const addresses = [...changed.keys()].filter((a) => RAW_ADDRESS.test(a));
  // first_lt of the changed accounts' rows detected by the snapshot, per table: only those come back.
  const stored = new Map<string, Map<string, SqlValue>>(TOKEN_STATE_TABLES.map((table) => [table, new Map()]));
  for (const table of TOKEN_STATE_TABLES) {
    for (let i = 0; i < addresses.length; i += LOOKUP_CHUNK) {
      const chunk = addresses.slice(i, i + LOOKUP_CHUNK);
      const rows = await driver.all(
        `SELECT address, first_lt FROM ${table} WHERE first_lt < ? AND address IN (${chunk.map(() => '?').join(', ')})`,
        [firstLt, ...chunk],
      );
      for (const row of rows) stored.get(table)!.set(String(row.address), bigint(row.first_lt));
    }
  }
  const methods = new MethodCache();
  const wanted = new Set(TOKEN_STATE_TABLES.flatMap((table) => [...stored.get(table)!.keys()]));
  const candidates = runner ? [...wanted].flatMap((address) => candidateOf(address, changed.get(address) ?? null, methods) ?? []) : [];
  const detected =
    candidates.length > 0
      ? await new TokenDetector(driver, runner, dnsRoots).rows([{ seqno: rewind.seqno, accounts: candidates, events: [] }], () => null)
      : [];
  const batches = detected.flatMap((batch): InsertBatch[] => {
    if (batch.table === 'dns_entries') {
      // A domain comes back with its item.
      const items = stored.get('nft_items')!;
      const rows = batch.rows.filter((row) => items.has(String(row[0])));
      return rows.length > 0 ? [{ ...batch, rows }] : [];
    }
    const child = TOKEN_CHILD_TABLES.find(([table]) => table === batch.table);
    if (child) {
      // A wallet's members or whitelist come back with it.
      const parents = stored.get(child[2])!;
      const column = batch.columns.indexOf(child[1]);
      const rows = batch.rows.filter((row) => parents.has(String(row[column])));
      return rows.length > 0 ? [{ ...batch, rows }] : [];
    }
    const before = stored.get(batch.table);
    if (!before) return [];
    const address = batch.columns.indexOf('address');
    const first = batch.columns.indexOf('first_lt');
    const rows = batch.rows
      .filter((row) => before.has(String(row[address])))
      .map((row) => row.map((value, i) => (i === first ? before.get(String(row[address]))! : value)));
    return rows.length > 0 ? [{ ...batch, rows }] : [];
  });
  const lt = firstLt.toString();
  const before: string[] = [];
  for (let i = 0; i < addresses.length; i += LOOKUP_CHUNK) {
    const list = addresses
      .slice(i, i + LOOKUP_CHUNK)
      .map((a) => `'${a}'`)
      .join(', ');
    for (const table of TOKEN_STATE_TABLES) before.push(`DELETE FROM ${table} WHERE address IN (${list})`);
    before.push(`DELETE FROM dns_entries WHERE nft_item_address IN (${list})`);
    for (const [table, column] of TOKEN_CHILD_TABLES) before.push(`DELETE FROM ${table} WHERE ${column} IN (${list})`);
  }
  return {
    before,
    batches,
    after: [
      ...TOKEN_EVENT_TABLES.map((table) => `DELETE FROM ${table} WHERE tx_lt >= ${lt}`),
      ...TOKEN_STATE_TABLES.map((table) => `DELETE FROM ${table} WHERE first_lt >= ${lt}`),
      // Members and whitelists of the contracts deleted just above.
      ...TOKEN_CHILD_TABLES.map(([table, column, parent]) => `DELETE FROM ${table} WHERE ${column} NOT IN (SELECT address FROM ${parent})`),
      // A failed detection of a state the restore took away has nothing left to retry (detection-retry.ts).
      `DELETE FROM ${DETECTION_FAILURES_TABLE} WHERE seqno > ${Math.trunc(rewind.seqno)}`,
    ],
  };
}
