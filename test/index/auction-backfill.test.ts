/**
 * The auction back-fill (src/index/tokens/backfill.ts, the 'auctions' pass; migration 18 leaves its cursor) on both
 * stores: an NFT item is put on tongate's own auction (src/contracts/nft-auction, getgems' "AUC" layout) on a local
 * chain and bid on, followed live. The index is then put back to what a tongate before auction detection (migration
 * 17) held: no nft_auctions table, migration 18 not applied; after the upgrade its traces are classified as that
 * index classified them (the bid a `ton_transfer`). A first run is stopped after one group, before the auction's
 * account; the next start resumes after it, and the auction's row is then the live index's, what `/nft/sales` reads
 * answers it, and its traces are a late find: the block committer's next group makes the bid an `auction_bid`
 * again. A start after that has nothing to do.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Address, contractAddress, toNano, type Cell, type StateInit } from '@ton/core';
import { nftTransferBody } from '../../src/contracts/nft/nft.js';
import { nftAuctionInit, type NftAuctionParams } from '../../src/contracts/nft-auction/auction.js';
import { attachIndexToChain } from '../../src/index/attach.js';
import type { Index } from '../../src/index/open-index.js';
import type { SqlDriver, SqlValue } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { AUCTION_BACKFILL } from '../../src/index/tokens/backfill-schema.js';
import { directGetMethods } from '../../src/index/tokens/get-methods.js';
import type { TokenBackfillProgress } from '../../src/index/tokens/backfill.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { tempDir, testWallet } from '../chain/local/support/local-chain.js';
import { nftAuctionCode } from '../contracts/support/code.js';
import { mintItems } from '../api/v3/support/nft-collection.js';
import { sealBlocks, serveIndex } from '../api/v3/support/server.js';
import { transferAndSeal } from '../api/v3/support/wallet-transfer.js';
import { openStore } from './support/stores.js';
import { testAuctionParams } from '../api/v3/support/nft-auction.js';

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

/** What a tongate at migration 17 held: the auction met and refused as no sale, no table for it. */
const toMigration17 = (index: Index) => execute(index, ['DROP TABLE nft_auctions', 'DELETE FROM index_migrations WHERE version >= 18']);

const cursor = async (index: Index): Promise<string | null> => {
  const [row] = await index.reads.all(`SELECT after_key FROM index_backfill_cursors WHERE name = '${AUCTION_BACKFILL}'`);
  return row ? String(row.after_key) : null;
};

async function auctionRows(index: Index): Promise<Record<string, unknown>[]> {
  const rows = await index.reads.all('SELECT * FROM nft_auctions ORDER BY address');
  // Bytes as hex: deepEqual of Buffers and Uint8Arrays from two drivers.
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v])),
  );
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`auction back-fill: an auction an index met before migration 18 is detected after the upgrade, resuming after a stop [${store}]`, async (t: TestContext) => {
    const opened = await openStore(t, store, 'testnet', store === 'sqlite' ? tempDir(t) : undefined);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const [seller, bidder] = [testWallet(171), testWallet(174)];
    const marketplace = testWallet(172).wallet.address;
    const creator = testWallet(173).wallet.address;
    const sendFrom = transferAndSeal(server);
    const send = (to: Address, value: bigint, body?: Cell, init?: StateInit) => sendFrom(seller, to, value, body, init);
    await Promise.all([
      server.chain.fund(seller.wallet.address, toNano(50)),
      server.chain.fund(bidder.wallet.address, toNano(50)),
      sealBlocks(server, 1),
    ]);
    await sealBlocks(server, 2);
    const { item } = await mintItems(send, seller.wallet.address, { site: 'https://auction-backfill.example', creator, count: 1 });
    const params: NftAuctionParams = testAuctionParams({ marketplace, creator, nft: item(0), createdAt: 1_750_000_000 });
    const init = nftAuctionInit(await nftAuctionCode(), params);
    const auction = contractAddress(0, init);
    await send(auction, toNano('0.2'), undefined, init);
    await send(
      item(0),
      toNano('0.1'),
      nftTransferBody({ newOwner: auction, response: seller.wallet.address, forwardAmount: toNano('0.02') }),
    );
    await sendFrom(bidder, auction, toNano(1));
    const A = raw(auction);
    const [{ trace_id: bid }] = (await opened.index.reads.all(
      'SELECT trace_id FROM transactions WHERE account = ? ORDER BY lt DESC LIMIT 1',
      [A],
    )) as {
      trace_id: SqlValue;
    }[];
    const actionsOf = async (index: Index) =>
      // The bidder's wallet is deployed by its first transfer: not the bid's part.
      (await index.reads.all("SELECT type FROM actions WHERE trace_id = ? AND type <> 'contract_deploy' ORDER BY type", [bid])).map((r) =>
        String(r.type),
      );
    assert.deepEqual(await actionsOf(opened.index), ['auction_bid'], 'a bid, live');

    const live = await auctionRows(opened.index);
    assert.deepEqual(
      live.map((r) => [r.address, r.nft_addr, r.nft_owner]),
      [[A, raw(item(0)), raw(seller.wallet.address)]],
      'detected live',
    );
    await server.attachment!.detach();
    await opened.index.close();
    await toMigration17(opened.index);

    // The upgrade: migration 18 leaves the cursor; a run stopped after its first group, before the auction.
    const runner = directGetMethods((a, m, stack, seqno) => server.chain.runGetMethod(a, m, stack, seqno));
    const first = await opened.reopen();
    assert.equal(await cursor(first), '', 'migration 18 marks an index that holds accounts');
    assert.deepEqual(await auctionRows(first), [], 'no auction before the back-fill');
    // Its traces as that index classified them, the auction unknown: the bid a plain transfer.
    await execute(first, ['UPDATE trace_classifications SET classifier_version = 1']);
    assert.equal(await first.writer.backfillActions({ pauseMs: 0 }), 'done');
    assert.deepEqual(await actionsOf(first), ['ton_transfer'], 'the bid as an index without the auction classified it');
    first.writer.useGetMethods(runner);
    let stop = false;
    const groups: TokenBackfillProgress[] = [];
    const onGroup = (p: TokenBackfillProgress) => {
      groups.push(p);
      stop = true;
    };
    assert.equal(await first.writer.backfillTokens({ groupAccounts: 1, pauseMs: 0, stopped: () => stop, onGroup }), 'stopped');
    const stoppedAt = await cursor(first);
    assert.deepEqual(
      groups.map((g) => [g.pass, g.accounts, g.cursor]),
      [[AUCTION_BACKFILL, 1, stoppedAt]],
    );
    assert.ok(stoppedAt! < A, `stopped before the auction's account (${stoppedAt})`);
    assert.deepEqual(await auctionRows(first), [], 'not reached yet');
    const [{ n }] = await first.reads.all('SELECT COUNT(*) AS n FROM latest_account_states WHERE wallet IS NULL');
    await first.close();

    // The next start resumes after the first group, and ends with the live index's row.
    const second = await opened.reopen();
    t.after(() => second.close());
    second.writer.useGetMethods(runner);
    groups.length = 0;
    stop = false;
    assert.equal(await second.writer.backfillTokens({ groupAccounts: 1, pauseMs: 0, onGroup: (p) => groups.push(p) }), 'done');
    // Migration 19 ran too (the index was put back before it): its v4 sales' pass follows, with counts of its own.
    assert.equal(
      groups.filter((g) => g.pass === AUCTION_BACKFILL).at(-1)?.accounts,
      Number(n) - 1,
      'the accounts after the first group, each once',
    );
    assert.ok(groups[0].cursor > stoppedAt!, 'resumed after the stopped run');
    assert.equal(await cursor(second), null, 'the cursor row is deleted at the end');
    assert.deepEqual(await auctionRows(second), live, 'the live index’s row');
    // What /nft/sales reads its auctions with.
    assert.deepEqual(
      (await second.reader.nfts.auctions([A])).map((a) => [a.address, a.nftAddress]),
      [[A, raw(item(0))]],
      '/nft/sales answers it',
    );
    const [{ m }] = await second.reads.all('SELECT MIN(mc_seqno) AS m FROM transactions WHERE account = ?', [A]);
    assert.deepEqual(
      (await second.reads.all('SELECT account, since FROM late_finds')).map((r) => [r.account, Number(r.since)]),
      [[A, Number(m)]],
      'its traces are classified again from its first block',
    );
    assert.equal(await second.writer.backfillTokens({ pauseMs: 0 }), 'none', 'a later start has nothing to do');

    // The block committer's next group classifies the auction's traces again: the bid is one.
    const attachment = await attachIndexToChain(second, server.chain, { thread: 'main' });
    t.after(() => attachment.detach());
    await server.chain.produceBlock();
    await attachment.synced();
    assert.deepEqual(await actionsOf(second), ['auction_bid'], 'the bid, classified again with the auction');
    assert.deepEqual(await second.reads.all('SELECT account FROM late_finds'), [], 'the late find walked');
  });
}
