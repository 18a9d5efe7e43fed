/**
 * The accounts a trace's contracts are looked up for (its own, and the JVault stake wallets its unstakes ask), and
 * two lookups merged as the Emulate API and pending traces merge theirs: the first one's word stands for every
 * account it names, of whatever kind; the second fills the others; kinds neither looked for stay absent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contractAccounts, mergeContracts, namedAccounts } from '../../../src/index/actions/contract-accounts.js';
import { JVAULT_OP } from '../../../src/index/actions/jvault.js';
import { NO_CONTRACTS, type KnownContracts, type NftAuctionInfo, type NftSaleInfo } from '../../../src/index/actions/trace-input.js';
import { account, buildTrace, op } from './support.js';

const [USER, STAKE_WALLET, SALE, AUCTION, ITEM, OTHER_ITEM, POOL, WALLET, MASTER, COLLECTION] = [
  0xa11ce, 0x5e, 0x5a1e, 0xa0c, 0x17e, 0x17f, 0x9001, 0x3a1, 0x7e7, 0xc01,
].map(account);

const sale = (fullPrice: string): NftSaleInfo => ({ nft: ITEM, owner: USER, marketplace: null, fullPrice, codeHash: 'c2FsZQ==' });
const auction = (lastBid: string): NftAuctionInfo => ({ nft: ITEM, owner: USER, marketplace: USER, lastBid, codeHash: 'YXVj' });

test('contractAccounts: the trace’s accounts once each, and the stake wallets its unstakes ask', () => {
  const { trace } = buildTrace(USER, [
    { to: STAKE_WALLET, body: op(JVAULT_OP.unstakeJettons).storeCoins(5n).endCell() },
    { to: STAKE_WALLET, body: op(JVAULT_OP.unstakeRequest).storeCoins(5n).endCell() },
    { to: POOL, body: op(0x12345678).endCell() },
  ]);
  const { accounts, stakeWallets } = contractAccounts(trace);
  assert.deepEqual([...accounts].sort(), [USER, STAKE_WALLET, POOL].sort());
  assert.deepEqual(stakeWallets, [STAKE_WALLET]);
});

test('mergeContracts: the first lookup’s word stands for each account it names; the second fills the others', () => {
  // As the emulated states show the trace's accounts: a sale at its new price, an auction, a nominator pool.
  const emulated: KnownContracts = {
    ...NO_CONTRACTS,
    nftSales: new Map([[SALE, sale('2000')]]),
    nftAuctions: new Map([[AUCTION, auction('10')]]),
    nominatorPools: new Set([POOL]),
  };
  // As the index knows them before the trace: the sale at its old price, the auction's item (the trace never
  // reached it), the pool also a stake wallet (the index's other facts about an account the first names are not
  // taken), a jetton wallet and an auction the emulated states do not show.
  const indexed: KnownContracts = {
    jettonWallets: new Map([[WALLET, { owner: USER, jetton: MASTER }]]),
    nftItems: new Map([[ITEM, { index: '1', collection: COLLECTION, teleitem: false, dns: false }]]),
    multisigOrders: new Map(),
    nftSales: new Map([[SALE, sale('1000')]]),
    nftAuctions: new Map([[OTHER_ITEM, auction('3')]]),
    nominatorPools: new Set([USER]),
    jvaultStakeWallets: new Map([
      [POOL, { pool: POOL, asset: null, stakingAsset: null }],
      [STAKE_WALLET, { pool: POOL, asset: MASTER, stakingAsset: null }],
    ]),
  };
  const merged = mergeContracts(emulated, indexed);
  assert.deepEqual(merged.nftSales, new Map([[SALE, sale('2000')]]), 'the emulated price, not the stored one');
  assert.deepEqual(
    merged.nftAuctions,
    new Map([
      [AUCTION, auction('10')],
      [OTHER_ITEM, auction('3')],
    ]),
  );
  assert.deepEqual(merged.nftItems, indexed.nftItems);
  assert.deepEqual(merged.jettonWallets, indexed.jettonWallets);
  assert.deepEqual(merged.nominatorPools, new Set([POOL, USER]));
  assert.deepEqual(merged.jvaultStakeWallets, new Map([[STAKE_WALLET, { pool: POOL, asset: MASTER, stakingAsset: null }]]));
  assert.deepEqual(namedAccounts(merged), new Set([SALE, AUCTION, OTHER_ITEM, ITEM, WALLET, POOL, USER, STAKE_WALLET]));

  // A kind neither lookup looked for stays absent (the classifier reads absent as "not looked for").
  const bare = mergeContracts(NO_CONTRACTS, NO_CONTRACTS);
  assert.deepEqual(Object.keys(bare).sort(), ['jettonWallets', 'multisigOrders', 'nftItems']);
});
