/**
 * getgems v4 sales of an index written before their detection (migration 19, the token back-fill's 'sales_v4'
 * pass) on both stores: two NFT items are handed to tongate's listing contract, which deploys a v4r1-layout sale
 * for each (src/contracts/nft-sale/listing.fc.ts, sale-v4r1.fc.ts: it answers get_fix_price_data_v4 only, no
 * get_sale_data); one is bought, one left listed; followed live. The index is then put back to what a tongate at
 * migration 18 held, which knew no get_fix_price_data_v4: no nft_sales row for the two sales, no interface name for
 * their code, their traces classified without them (the listing no `nft_put_on_sale`, the purchase no
 * `nft_purchase`), migration 19 not applied. Reopened by this tongate: migration 19 leaves its cursor only; the
 * back-fill's third pass then writes the live index's sale rows (first_lt included) and interfaces, `/nft/sales` and
 * `/nft/items` read as live, each sale is a late find from its first block, and after the block committer's next
 * group every action equals the live index's. A later start has nothing to do.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Address, contractAddress, toNano, type Cell, type StateInit } from '@ton/core';
import { nftTransferBody } from '../../src/contracts/nft/nft.js';
import { listingInit, listingTermsPayload } from '../../src/contracts/nft-sale/listing.js';
import { attachIndexToChain } from '../../src/index/attach.js';
import type { Index } from '../../src/index/open-index.js';
import type { SqlDriver, SqlReads } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { SALE_V4_BACKFILL } from '../../src/index/tokens/backfill-schema.js';
import type { TokenBackfillProgress } from '../../src/index/tokens/backfill.js';
import { directGetMethods } from '../../src/index/tokens/get-methods.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { tempDir, testWallet } from '../chain/local/support/local-chain.js';
import { nftListingCode } from '../contracts/support/code.js';
import { mintItems } from '../api/v3/support/nft-collection.js';
import { sealBlocks, serveIndex } from '../api/v3/support/server.js';
import { transferAndSeal } from '../api/v3/support/wallet-transfer.js';
import { openStore } from './support/stores.js';

const raw = (a: Address) => formatRawUpper(a);

async function rawDriver(index: Index): Promise<SqlDriver> {
  const location = index.location;
  return location.kind === 'sqlite' ? SqliteDriver.open(location.file) : PostgresDriver.open(location.databaseUrl, location.schema);
}

async function execute(index: Index, statements: string[]): Promise<void> {
  const driver = await rawDriver(index);
  try {
    await driver.write([], statements);
  } finally {
    await driver.close();
  }
}

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * What a tongate at migration 18 held: it met the v4 sales and took them for no contract (no row, no interface name
 * for get_fix_price_data_v4), and classified their traces without them (the classifier's version put back, so the
 * actions back-fill classifies them again with what the index holds: the sales unknown).
 */
const toMigration18 = (index: Index, sales: readonly string[]) =>
  execute(index, [
    `DELETE FROM nft_sales WHERE address IN (${list(sales)})`,
    `UPDATE latest_account_states SET interfaces = NULL WHERE account IN (${list(sales)})`,
    'DELETE FROM late_finds',
    'UPDATE trace_classifications SET classifier_version = 1',
    'DELETE FROM index_migrations WHERE version >= 19',
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
const actionRows = async (index: Index) => ({
  actions: await rows(index.reads, 'SELECT * FROM actions ORDER BY trace_id, action_id'),
  accounts: await rows(index.reads, 'SELECT * FROM action_accounts ORDER BY trace_id, action_id, account'),
});
const byAddress = <T extends { address: string }>(list: T[]) => [...list].sort((a, b) => (a.address < b.address ? -1 : 1));

for (const store of ['sqlite', 'postgres'] as const) {
  test(`v4 sale back-fill: the getgems v4 sales an index met at migration 18 are found after the upgrade and their traces classified again [${store}]`, async (t: TestContext) => {
    const opened = await openStore(t, store, 'testnet', store === 'sqlite' ? tempDir(t) : undefined);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const [seller, buyer, market] = [testWallet(191), testWallet(192), testWallet(193)];
    const creator = testWallet(194).wallet.address;
    const sendFrom = transferAndSeal(server);
    const send = (to: Address, value: bigint, body?: Cell, init?: StateInit) => sendFrom(seller, to, value, body, init);
    await Promise.all([
      server.chain.fund(seller.wallet.address, toNano(50)),
      server.chain.fund(buyer.wallet.address, toNano(50)),
      server.chain.fund(market.wallet.address, toNano(50)),
      sealBlocks(server, 1),
    ]);
    await sealBlocks(server, 2);
    const { item } = await mintItems(send, seller.wallet.address, { site: 'https://sale-v4-backfill.example', creator, count: 2 });
    const { listing: listingCode, sale: saleCode } = await nftListingCode();
    const init = listingInit(listingCode, {
      marketplace: market.wallet.address,
      feeAddress: market.wallet.address,
      feeShare: 5000,
      saleCode,
    });
    const listing = contractAddress(0, init);
    await sendFrom(market, listing, toNano('0.1'), undefined, init);
    const terms = listingTermsPayload({ fullPrice: toNano(1), royaltyAddress: creator, royaltyShare: 2000 });
    for (const index of [0, 1])
      await send(
        item(index),
        toNano('0.3'),
        nftTransferBody({ newOwner: listing, response: seller.wallet.address, forwardAmount: toNano('0.2'), forwardPayload: terms }),
      );
    const items = [0, 1].map((i) => raw(item(i)));
    // Each item now belongs to the sale its listing deployed.
    const sales: string[] = [];
    for (const address of items) {
      const [row] = await opened.index.reads.all('SELECT owner_address FROM nft_items WHERE address = ?', [address]);
      sales.push(String(row.owner_address));
    }
    assert.ok(sales.every((s) => s !== raw(listing)) && sales[0] !== sales[1], `two sales deployed (${sales})`);
    // Sale 0 bought with a plain transfer, sale 1 left listed.
    await sendFrom(buyer, Address.parseRaw(sales[0]), toNano('1.2'));

    /** The action types of the traces each sale took part in, in the sales' order. */
    const saleActions = async (index: Index) => {
      const out: string[][] = [];
      for (const address of sales)
        out.push(
          (
            await index.reads.all(
              'SELECT a.type FROM actions a WHERE a.trace_id IN (SELECT trace_id FROM transactions WHERE account = ?) ORDER BY a.type',
              [address],
            )
          ).map((r) => String(r.type)),
        );
      return out;
    };
    const interfaces = async (index: Index) =>
      rows(index.reads, `SELECT account, interfaces FROM latest_account_states WHERE account IN (${list(sales)}) ORDER BY account`);
    const liveActions = await saleActions(opened.index);
    assert.ok(
      liveActions[0].includes('nft_purchase') && liveActions[0].includes('nft_put_on_sale'),
      `listed and bought, live (${liveActions[0]})`,
    );
    assert.ok(liveActions[1].includes('nft_put_on_sale'), `listed, live (${liveActions[1]})`);
    const live = {
      sales: await saleRows(opened.index),
      actions: await actionRows(opened.index),
      interfaces: await interfaces(opened.index),
      items: byAddress(await opened.index.reader.nfts.itemsByAddress(items)),
      read: await opened.index.reader.nfts.sales(sales),
    };
    assert.deepEqual(
      live.sales.map((r) => [r.address, r.nft_address, r.is_complete]),
      [
        [sales[0], items[0], '1'],
        [sales[1], items[1], '0'],
      ].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      'both v4 sales detected live',
    );
    assert.deepEqual(
      live.interfaces.map((r) => r.interfaces),
      ['["nft_sale_getgems_v4"]', '["nft_sale_getgems_v4"]'],
      'named live',
    );
    assert.deepEqual(
      live.items.map((i) => [i.address, i.saleAddress]),
      byAddress([
        { address: items[0], sale: null },
        { address: items[1], sale: sales[1] },
      ]).map((i) => [i.address, i.sale]),
      'the listed item is on sale, live',
    );
    await server.attachment!.detach();
    await opened.index.close();
    await toMigration18(opened.index, sales);

    // The upgrade: migration 19 leaves its cursor, and nothing else is to do.
    const first = await opened.reopen();
    t.after(() => first.close());
    assert.deepEqual(await cursors(first), [`${SALE_V4_BACKFILL}=`], 'the cursor migration 19 leaves');
    assert.deepEqual(await saleRows(first), [], 'no v4 sale before the back-fill');
    // Its traces as that index classified them, the sales unknown.
    assert.equal(await first.writer.backfillActions({ pauseMs: 0 }), 'done');
    const without = await saleActions(first);
    assert.ok(
      !without[0].includes('nft_purchase') && !without.some((types) => types.includes('nft_put_on_sale')),
      `classified without the sales (${without})`,
    );
    assert.notDeepEqual(byAddress(await first.reader.nfts.itemsByAddress(items)), live.items, 'the listed item not on sale before');

    first.writer.useGetMethods(directGetMethods((a, m, stack, seqno) => server.chain.runGetMethod(a, m, stack, seqno)));
    const groups: TokenBackfillProgress[] = [];
    assert.equal(await first.writer.backfillTokens({ groupAccounts: 2, pauseMs: 0, onGroup: (p) => groups.push(p) }), 'done');
    assert.ok(groups.length > 0 && groups.every((g) => g.pass === SALE_V4_BACKFILL), 'the v4 sales’ pass alone');
    assert.deepEqual(await cursors(first), [], 'its row deleted at the end');
    assert.deepEqual(await saleRows(first), live.sales, 'the live index’s sale rows, first_lt included');
    assert.deepEqual(await interfaces(first), live.interfaces, 'their interfaces named as live');
    assert.deepEqual(await first.reader.nfts.sales(sales), live.read, '/nft/sales reads as live');
    assert.deepEqual(byAddress(await first.reader.nfts.itemsByAddress(items)), live.items, '/nft/items reads as live');
    const sinceOf = async (account: string) =>
      Number((await first.reads.all('SELECT MIN(mc_seqno) AS m FROM transactions WHERE account = ?', [account]))[0].m);
    const expected: [string, number][] = [];
    for (const s of [...sales].sort()) expected.push([s, await sinceOf(s)]);
    assert.deepEqual(
      (await first.reads.all('SELECT account, since FROM late_finds ORDER BY account')).map((r) => [r.account, Number(r.since)]),
      expected,
      'each sale is a late find from its first block',
    );
    assert.equal(await first.writer.backfillTokens({ pauseMs: 0 }), 'none', 'a later start has nothing to do');

    // The block committer's next group classifies the sales' traces again: the live index's actions.
    const attachment = await attachIndexToChain(first, server.chain, { thread: 'main' });
    t.after(() => attachment.detach());
    await server.chain.produceBlock();
    await attachment.synced();
    assert.deepEqual(await first.reads.all('SELECT account FROM late_finds'), [], 'the late finds walked');
    assert.deepEqual(await saleActions(first), liveActions, 'the sales’ traces, classified again with the sales');
    const after = await actionRows(first);
    // The block just produced is the upgraded index's own: the live index never saw it.
    const lastSeqno = (await first.reads.all('SELECT MAX(trace_mc_seqno_end) AS m FROM actions'))[0].m;
    const liveTraces = new Set(live.actions.actions.map((a) => a.trace_id));
    const upTo = <T extends Record<string, unknown>>(list: T[]) => list.filter((r) => liveTraces.has(r.trace_id));
    assert.ok(
      after.actions.every((a) => liveTraces.has(a.trace_id) || String(a.trace_mc_seqno_end) === String(lastSeqno)),
      'no other trace',
    );
    assert.deepEqual(upTo(after.actions), live.actions.actions, 'every action as the live index’s');
    assert.deepEqual(upTo(after.accounts), live.actions.accounts, 'and their accounts');
  });
}
