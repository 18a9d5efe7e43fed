/**
 * Fixed-price sales of an index written before sale detection (migration 8) on both stores: three NFT items are
 * listed on tongate's own fixed-price sale (src/contracts/nft-sale, getgems' "FIXP" layout) on a local chain, one
 * bought, one cancelled, one left listed, followed live. The index is then put back to what a tongate at migration 7
 * held: no nft_sales (nor any table of migrations 8-18), no actions. Opened by this tongate, migrations 12, 13 and 15
 * put the token back-fill's cursor back ('tokens'), migrations 18 and 19 leave the auctions' and the v4 sales'. Its traces
 * are classified before the sales are found, as the actions back-fill does when the token back-fill stopped on an
 * error (it runs after it either way), and as any index at 8..17 that missed a sale classified them: the purchase
 * and the cancel are no `nft_purchase` / `nft_cancel_sale` then. Then live detection meets the cancelled sale first:
 * its row at its current state, first_lt that state's lt, as live writes it when a sale changes after the upgrade.
 * A first token back-fill run is stopped after the group with the first sale, the next start resumes; then every
 * sale's row equals the live index's (first_lt included), `/nft/sales` and `/nft/items` (on sale, its sale
 * contract, the seller) read as live, each sale is a late find from its first block, and after the block
 * committer's next group every action equals the live index's. A later start has nothing to do.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Address, contractAddress, toNano, type Cell, type StateInit } from '@ton/core';
import { nftTransferBody } from '../../src/contracts/nft/nft.js';
import { cancelSaleBody, nftSaleInit, type NftSaleParams } from '../../src/contracts/nft-sale/sale.js';
import { attachIndexToChain } from '../../src/index/attach.js';
import type { Index } from '../../src/index/open-index.js';
import type { InsertBatch, SqlDriver, SqlReads, SqlValue } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { AUCTION_BACKFILL, SALE_V4_BACKFILL, TOKEN_BACKFILL } from '../../src/index/tokens/backfill-schema.js';
import type { TokenBackfillProgress } from '../../src/index/tokens/backfill.js';
import { directGetMethods } from '../../src/index/tokens/get-methods.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { tempDir, testWallet } from '../chain/local/support/local-chain.js';
import { nftSaleCode } from '../contracts/support/code.js';
import { mintItems } from '../api/v3/support/nft-collection.js';
import { sealBlocks, serveIndex } from '../api/v3/support/server.js';
import { transferAndSeal } from '../api/v3/support/wallet-transfer.js';
import { openStore } from './support/stores.js';

const raw = (a: Address) => formatRawUpper(a);

async function rawDriver(index: Index): Promise<SqlDriver> {
  const location = index.location;
  return location.kind === 'sqlite' ? SqliteDriver.open(location.file) : PostgresDriver.open(location.databaseUrl, location.schema);
}

async function execute(index: Index, statements: string[], batches: InsertBatch[] = []): Promise<void> {
  const driver = await rawDriver(index);
  try {
    await driver.write(batches, statements);
  } finally {
    await driver.close();
  }
}

/** The tables migrations 8-18 created: a tongate at migration 7 had none of them. */
const LATER_TABLES = [
  'nft_sales',
  'token_metadata_queue',
  'actions',
  'action_accounts',
  'trace_classifications',
  'multisig_wallets',
  'multisig_members',
  'multisig_orders',
  'vesting_contracts',
  'vesting_whitelist',
  'dex_pools',
  'late_finds',
  'token_detection_failures',
  'nft_auctions',
];

/** What a tongate at migration 7 held: its token back-fill done (no cursor row), the account index of migration 1. */
const toMigration7 = (index: Index) =>
  execute(index, [
    ...LATER_TABLES.map((table) => `DROP TABLE ${table}`),
    'DROP INDEX transactions_account_lt_trace',
    'CREATE INDEX transactions_account_lt ON transactions (account, lt)',
    'DELETE FROM index_backfill_cursors',
    'DELETE FROM index_migrations WHERE version >= 8',
  ]);

const cursors = async (index: Index): Promise<string[]> =>
  (await index.reads.all('SELECT name, after_key FROM index_backfill_cursors ORDER BY name')).map((r) => `${r.name}=${r.after_key}`);

/** Rows of `sql`, bytes as hex (deepEqual of Buffers and Uint8Arrays from two drivers), numbers as strings. */
async function rows(reads: SqlReads, sql: string, params: string[] = []): Promise<Record<string, unknown>[]> {
  return (await reads.all(sql, params)).map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v === null ? null : String(v)]),
    ),
  );
}

const saleRows = (index: Index) => rows(index.reads, 'SELECT * FROM nft_sales ORDER BY address');
/** Every action and its accounts, in a fixed order (the live index's and the upgraded one's are compared). */
const actionRows = async (index: Index) => ({
  actions: await rows(index.reads, 'SELECT * FROM actions ORDER BY trace_id, action_id'),
  accounts: await rows(index.reads, 'SELECT * FROM action_accounts ORDER BY trace_id, action_id, account'),
});

for (const store of ['sqlite', 'postgres'] as const) {
  test(`sale back-fill: the fixed-price sales of an index written at migration 7 are found after the upgrade and their traces classified again, resuming after a stop [${store}]`, async (t: TestContext) => {
    const opened = await openStore(t, store, 'testnet', store === 'sqlite' ? tempDir(t) : undefined);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const [seller, buyer] = [testWallet(181), testWallet(182)];
    const marketplace = testWallet(183).wallet.address;
    const creator = testWallet(184).wallet.address;
    const sendFrom = transferAndSeal(server);
    const send = (to: Address, value: bigint, body?: Cell, init?: StateInit) => sendFrom(seller, to, value, body, init);
    await Promise.all([
      server.chain.fund(seller.wallet.address, toNano(50)),
      server.chain.fund(buyer.wallet.address, toNano(50)),
      sealBlocks(server, 1),
    ]);
    await sealBlocks(server, 2);
    const { item } = await mintItems(send, seller.wallet.address, { site: 'https://sale-backfill.example', creator, count: 3 });
    const saleCode = await nftSaleCode();
    const saleOf = (index: number): NftSaleParams => ({
      marketplace,
      nft: item(index),
      fullPrice: toNano(1),
      marketplaceFeeAddress: marketplace,
      marketplaceFee: toNano('0.05'),
      royaltyAddress: creator,
      royaltyAmount: toNano('0.02'),
      createdAt: 1_750_000_000 + index,
    });
    const sale = (index: number) => contractAddress(0, nftSaleInit(saleCode, saleOf(index)));
    for (const index of [0, 1, 2]) {
      await send(sale(index), toNano('0.1'), undefined, nftSaleInit(saleCode, saleOf(index)));
      await send(
        item(index),
        toNano('0.1'),
        nftTransferBody({ newOwner: sale(index), response: seller.wallet.address, forwardAmount: toNano('0.02') }),
      );
    }
    // Sale 0 bought with a plain transfer (getgems' buy), sale 1 cancelled by the seller, sale 2 left listed.
    await sendFrom(buyer, sale(0), toNano('1.2'));
    await send(sale(1), toNano('0.1'), cancelSaleBody(5n));
    const sales = [0, 1, 2].map((i) => raw(sale(i)));
    const items = [0, 1, 2].map((i) => raw(item(i)));

    /** The action types of the traces each sale took part in, in the sales' order. */
    const saleActions = async (index: Index) => {
      const out: string[][] = [];
      for (const address of sales)
        out.push(
          (
            await index.reads.all(
              `SELECT a.type FROM actions a WHERE a.trace_id IN (SELECT trace_id FROM transactions WHERE account = ?) ORDER BY a.type`,
              [address],
            )
          ).map((r) => String(r.type)),
        );
      return out;
    };
    const liveActions = await saleActions(opened.index);
    assert.ok(liveActions[0].includes('nft_purchase'), `a purchase, live (${liveActions[0]})`);
    assert.ok(liveActions[1].includes('nft_cancel_sale'), `a cancel, live (${liveActions[1]})`);
    const live = {
      sales: await saleRows(opened.index),
      actions: await actionRows(opened.index),
      items: (await opened.index.reader.nfts.itemsByAddress(items)).sort((a, b) => (a.address < b.address ? -1 : 1)),
      read: await opened.index.reader.nfts.sales(sales),
    };
    assert.deepEqual(
      live.sales.map((r) => [r.address, r.nft_address, r.is_complete]),
      sales.map((s, i) => [s, items[i], i === 2 ? '0' : '1']).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      'the three sales detected live',
    );
    assert.deepEqual(
      live.items.map((i) => [i.address, i.saleAddress, i.saleOwner]).sort(),
      [
        [items[0], null, null],
        [items[1], null, null],
        [items[2], sales[2], raw(seller.wallet.address)],
      ].sort(),
      'the listed item is on sale, live',
    );
    // Sale 1 as live detection writes it when it meets the sale first at its cancel: first_lt that state's lt.
    const [cancelled] = await opened.index.reads.all('SELECT * FROM nft_sales WHERE address = ?', [sales[1]]);
    assert.ok(BigInt(String(cancelled.first_lt)) < BigInt(String(cancelled.last_transaction_lt)), 'listed before its cancel');
    const metLive: InsertBatch = {
      table: 'nft_sales',
      columns: Object.keys(cancelled),
      rows: [
        Object.entries(cancelled).map(([k, v]) =>
          k === 'first_lt' ? (cancelled.last_transaction_lt as SqlValue) : v instanceof Uint8Array ? Buffer.from(v) : (v as SqlValue),
        ),
      ],
    };
    await server.attachment!.detach();
    await opened.index.close();
    await toMigration7(opened.index);

    // The upgrade: the token back-fill's cursor is back (migrations 12, 13, 15), the auctions' (18) and the v4
    // sales' (19) are left.
    const runner = directGetMethods((a, m, stack, seqno) => server.chain.runGetMethod(a, m, stack, seqno));
    const first = await opened.reopen();
    assert.deepEqual(
      await cursors(first),
      ['actions=', `${AUCTION_BACKFILL}=`, `${SALE_V4_BACKFILL}=`, `${TOKEN_BACKFILL}=`],
      'the cursors the upgrade leaves',
    );
    assert.deepEqual(await saleRows(first), [], 'no sale before the back-fill');
    // Its traces classified before the sales are found: the purchase and the cancel are not theirs.
    assert.equal(await first.writer.backfillActions({ pauseMs: 0 }), 'done');
    const without = await saleActions(first);
    assert.ok(!without[0].includes('nft_purchase') && !without[1].includes('nft_cancel_sale'), `classified without the sales (${without})`);
    // Then live detection met sale 1 at its current state (it changed after the upgrade), before the back-fill.
    await execute(first, [], [metLive]);

    // A first run, stopped after the group that found the first sale (in account order).
    first.writer.useGetMethods(runner);
    const firstSale = [...sales].sort()[0];
    let stop = false;
    const groups: TokenBackfillProgress[] = [];
    const onGroup = (p: TokenBackfillProgress) => {
      groups.push(p);
      stop ||= p.cursor >= firstSale;
    };
    assert.equal(await first.writer.backfillTokens({ groupAccounts: 1, pauseMs: 0, stopped: () => stop, onGroup }), 'stopped');
    assert.deepEqual(
      groups.map((g) => g.pass),
      groups.map(() => TOKEN_BACKFILL),
      'stopped in the first pass',
    );
    assert.equal(groups.at(-1)?.cursor, firstSale, 'stopped right after the first sale');
    assert.deepEqual(
      (await saleRows(first)).map((r) => r.address),
      [...new Set([firstSale, sales[1]])].sort(),
      'the first sale written with its group (and the one live detection met)',
    );
    const sinceOf = async (index: Index, account: string) =>
      Number((await index.reads.all('SELECT MIN(mc_seqno) AS m FROM transactions WHERE account = ?', [account]))[0].m);
    assert.deepEqual(
      (await first.reads.all('SELECT account, since FROM late_finds')).map((r) => [r.account, Number(r.since)]),
      [[firstSale, await sinceOf(first, firstSale)]],
      'its late find written with the group',
    );
    await first.close();

    // The next start resumes after the stopped group and ends with the live index's rows.
    const second = await opened.reopen();
    t.after(() => second.close());
    second.writer.useGetMethods(runner);
    groups.length = 0;
    assert.equal(await second.writer.backfillTokens({ groupAccounts: 1, pauseMs: 0, onGroup: (p) => groups.push(p) }), 'done');
    assert.ok(groups[0].pass === TOKEN_BACKFILL && groups[0].cursor > firstSale, 'resumed after the stopped group');
    assert.deepEqual(await cursors(second), [], 'every pass done, their rows deleted');
    assert.deepEqual(await saleRows(second), live.sales, 'the live index’s sale rows, first_lt included (sale 1’s put back)');
    assert.deepEqual(await second.reader.nfts.sales(sales), live.read, '/nft/sales reads as live');
    assert.deepEqual(
      (await second.reader.nfts.itemsByAddress(items)).sort((a, b) => (a.address < b.address ? -1 : 1)),
      live.items,
      '/nft/items reads as live',
    );
    const finds = (await second.reads.all('SELECT account, since FROM late_finds ORDER BY account')).map((r) => [
      r.account,
      Number(r.since),
    ]);
    const expected: [string, number][] = [];
    for (const s of [...sales].sort()) expected.push([s, await sinceOf(second, s)]);
    assert.deepEqual(finds, expected, 'each sale is a late find from its first block, the one live detection met too');
    assert.equal(await second.writer.backfillTokens({ pauseMs: 0 }), 'none', 'a later start has nothing to do');

    // The block committer's next group classifies the sales' traces again: the live index's actions.
    const attachment = await attachIndexToChain(second, server.chain, { thread: 'main' });
    t.after(() => attachment.detach());
    await server.chain.produceBlock();
    await attachment.synced();
    assert.deepEqual(await second.reads.all('SELECT account FROM late_finds'), [], 'the late finds walked');
    assert.deepEqual(await saleActions(second), liveActions, 'the sales’ traces, classified again with the sales');
    const after = await actionRows(second);
    // The block just produced is the upgraded index's own: the live index never saw it.
    const lastSeqno = (await second.reads.all('SELECT MAX(trace_mc_seqno_end) AS m FROM actions'))[0].m;
    const upTo = <T extends Record<string, unknown>>(list: T[], traces: Set<unknown>) => list.filter((r) => traces.has(r.trace_id));
    const liveTraces = new Set(live.actions.actions.map((a) => a.trace_id));
    assert.ok(
      after.actions.every((a) => liveTraces.has(a.trace_id) || String(a.trace_mc_seqno_end) === String(lastSeqno)),
      'no other trace',
    );
    assert.deepEqual(upTo(after.actions, liveTraces), live.actions.actions, 'every action as the live index’s');
    assert.deepEqual(upTo(after.accounts, liveTraces), live.actions.accounts, 'and their accounts');
  });
}
