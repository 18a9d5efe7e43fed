/**
 * The contracts the classifier reads, detected on the states a trace left before any block holds it: an emulated
 * trace's (the Emulate API, src/emulate/actions.ts) and a pending one's (src/pending/actions.ts), with one rule. The
 * detection is the index's own (src/index/tokens/contracts.ts: the same get-methods and cross-checks), run on those
 * states, so a jetton wallet, NFT item, multisig order, sale or auction the trace itself deploys is what the index
 * will find once the trace is sealed (toncenter's emulator detects interfaces on emulated states too); nominator
 * pools by the state's code hash, as the index tells them by their latest state's. And the content of the jetton
 * masters, NFT collections and items among those states (`tokenContentsOnStates`), for the Emulate API's metadata
 * of the tokens a trace deploys (src/emulate/metadata.ts).
 */
import { Address } from '@ton/core';
import { AccountView } from '../../chain/account-view.js';
import type { TraceStates } from '../../chain/types.js';
import { ContractReads } from '../tokens/contracts.js';
import { directGetMethods } from '../tokens/get-methods.js';
import { tokenMethods, type TokenMethod } from '../tokens/method-ids.js';
import { NOMINATOR_POOL_CODE_HASH } from './nominator-pools.js';
import { telemintFlags } from './telemint.js';
import type { KnownContracts, MultisigOrderInfo, NftAuctionInfo, NftItemInfo, NftSaleInfo } from './trace-input.js';

/** The interfaces the classifier reads (jetton wallets, NFT items, multisig orders, sales and auctions): nothing else is asked. */
const CLASSIFIER_METHODS: readonly TokenMethod[] = [
  'get_wallet_data',
  'get_nft_data',
  'get_order_data',
  'get_sale_data',
  'get_auction_data_v4',
  'get_fix_price_data_v4',
];

/**
 * The contracts among the accounts of `trace.states`, as the trace left them: jetton wallets, NFT items, multisig
 * orders, sales and auctions found as the index finds them (an order the trace itself created: its get_order_data,
 * and its wallet's get_order_address vouching for it, both on the trace's states; a sale the trace deploys: its
 * get_sale_data there; an auction's last bid as the trace left it), and nominator pools by their state's code hash.
 * A master or collection a cross-check asks and the trace did not reach answers as the chain has it. `vouched`: the
 * jetton wallets the index already detected (raw uppercase -> owner and master), whose master is not asked again
 * while their state says the same owner and master (a wallet's owner and master never change).
 */
export async function contractsOnStates(
  trace: TraceStates,
  vouched?: ReadonlyMap<string, { owner: string; jetton: string }>,
): Promise<KnownContracts> {
  const reads = new ContractReads(directGetMethods((address, method, stack) => trace.runGetMethod(address, method, stack)));
  for (const [account, { owner, jetton }] of vouched ?? []) reads.vouchWallet(account, owner, jetton);
  const jettonWallets = new Map<string, { owner: string; jetton: string }>();
  const nftItems = new Map<string, NftItemInfo>();
  const multisigOrders = new Map<string, MultisigOrderInfo>();
  const nftSales = new Map<string, NftSaleInfo>();
  const nftAuctions = new Map<string, NftAuctionInfo>();
  const nominatorPools = new Set<string>();
  await Promise.all(
    [...trace.states].map(async ([raw, state]) => {
      const account = raw.toUpperCase();
      const address = Address.parseRaw(raw);
      const view = new AccountView(address, Buffer.from(state, 'base64'));
      if (view.status !== 'active' || !view.code) return;
      const code = view.code.hash();
      if (code.toString('base64') === NOMINATOR_POOL_CODE_HASH) nominatorPools.add(account);
      const methods = tokenMethods(view.code).filter((m) => CLASSIFIER_METHODS.includes(m));
      if (methods.length === 0) return;
      const found = await reads.detect(
        { account, codeHash: code, dataHash: (view.data ?? view.code).hash(), lastTxLt: view.lastTxLt, methods },
        trace.mcSeqno,
      );
      if (found?.wallet) jettonWallets.set(account, { owner: found.wallet.owner, jetton: found.wallet.jetton });
      if (found?.item) {
        const { index, collection, content, codeHash } = found.item;
        // A Telegram or .ton DNS item is told by its content and code, as the index tells a stored one.
        nftItems.set(account, { index: index.toString(), collection, ...telemintFlags(content, codeHash.toString('base64'), collection) });
      }
      if (found?.order) multisigOrders.set(account, { signers: found.order.signers });
      if (found?.sale) {
        const { nft, nftOwner, marketplace, fullPrice, codeHash } = found.sale;
        nftSales.set(account, {
          nft,
          owner: nftOwner,
          marketplace,
          fullPrice: fullPrice.toString(),
          codeHash: codeHash.toString('base64'),
        });
      }
      if (found?.auction) {
        const { nft, nftOwner, marketplace, lastBid, codeHash } = found.auction;
        nftAuctions.set(account, { nft, owner: nftOwner, marketplace, lastBid: lastBid.toString(), codeHash: codeHash.toString('base64') });
      }
    }),
  );
  return { jettonWallets, nftItems, multisigOrders, nftSales, nftAuctions, nominatorPools };
}

/** A token contract's content as a state a trace left shows it: a jetton master's, an NFT collection's or item's. */
export interface TokenContentOnState {
  type: 'jetton_masters' | 'nft_collections' | 'nft_items';
  /** TEP-64 as v3 keeps it (../tokens/content.ts): an offchain content is `{uri}`; an item's as its collection composes it. */
  content: Record<string, string>;
}

const CONTENT_METHODS: readonly TokenMethod[] = ['get_jetton_data', 'get_collection_data', 'get_nft_data'];

/**
 * The jetton masters, NFT collections and NFT items among `accounts` (raw uppercase) that the trace reached, with
 * their content as the trace left them, detected as the index detects them (an item vouched for by its collection,
 * its content composed by it). An item whose collection composes no TEP-64 content has none to show. Costs a
 * get-method per master or collection, two per item (its collection's answers in one); nothing for other codes.
 */
export async function tokenContentsOnStates(trace: TraceStates, accounts: ReadonlySet<string>): Promise<Map<string, TokenContentOnState>> {
  const reads = new ContractReads(directGetMethods((address, method, stack) => trace.runGetMethod(address, method, stack)));
  const found = new Map<string, TokenContentOnState>();
  await Promise.all(
    [...trace.states].map(async ([raw, state]) => {
      const account = raw.toUpperCase();
      if (!accounts.has(account)) return;
      const view = new AccountView(Address.parseRaw(raw), Buffer.from(state, 'base64'));
      if (view.status !== 'active' || !view.code) return;
      const methods = tokenMethods(view.code).filter((m) => CONTENT_METHODS.includes(m));
      if (methods.length === 0) return;
      const code = view.code.hash();
      const detected = await reads.detect(
        { account, codeHash: code, dataHash: (view.data ?? view.code).hash(), lastTxLt: view.lastTxLt, methods },
        trace.mcSeqno,
      );
      if (detected?.master) found.set(account, { type: 'jetton_masters', content: detected.master.content });
      else if (detected?.collection) found.set(account, { type: 'nft_collections', content: detected.collection.content });
      else if (detected?.item?.content) found.set(account, { type: 'nft_items', content: detected.item.content });
    }),
  );
  return found;
}
