/**
 * The actions of an emulated trace, by the index's classifier (src/index/actions), as toncenter's emulate API runs
 * its classifier on the emulated trace: the classifier's input built from the transactions as the answer writes
 * them, and the token contracts among the trace's accounts detected on the states the trace left (toncenter's
 * emulator detects interfaces on emulated states too), so a jetton transfer to a wallet the transfer itself deploys
 * is still a `jetton_transfer`, and a multisig order the trace creates makes a `multisig_create_order`. The
 * detection is the index's (src/index/tokens/contracts.ts): the same get-methods and cross-checks, run here on the
 * emulated states (a master, collection or multisig wallet the trace did not reach: as the chain has it). Sales and
 * auctions are found there too, nominator pools by their emulated code; for the accounts no emulated state shows a
 * contract at, the network's index is asked what a pending trace asks it (DEX pools, JVault stake wallets, a
 * contract the trace reached without changing what it is), so the classifier gets what a sealed trace gets.
 */
import { Address } from '@ton/core';
import type { EmulatedTrace } from '../chain/types.js';
import { classifyTrace, type ActionRecord } from '../index/actions/classify.js';
import {
  transactionOf,
  type KnownContracts,
  type MultisigOrderInfo,
  type NftAuctionInfo,
  type NftItemInfo,
  type NftSaleInfo,
  type StoredMessageDoc,
  type TraceInput,
} from '../index/actions/trace-input.js';
import { contractAccounts, mergeContracts, namedAccounts } from '../index/actions/contract-accounts.js';
import { NOMINATOR_POOL_CODE_HASH } from '../index/actions/nominator-pools.js';
import { telemintFlags } from '../index/actions/telemint.js';
import { ContractReads } from '../index/tokens/contracts.js';
import { directGetMethods } from '../index/tokens/get-methods.js';
import { tokenMethods, type TokenMethod } from '../index/tokens/method-ids.js';
import { AccountView } from '../chain/account-view.js';
import type { V3TransactionJson } from '../ton/transaction-v3-json.js';

/** The interfaces the classifier reads (jetton wallets, NFT items, multisig orders, sales and auctions): nothing else is asked. */
const CLASSIFIER_METHODS: readonly TokenMethod[] = [
  'get_wallet_data',
  'get_nft_data',
  'get_order_data',
  'get_sale_data',
  'get_auction_data_v4',
];

/** What the network's index knows among accounts (and JVault stake wallets): its reader's `knownContracts`. */
export type IndexedContracts = (accounts: string[], stakeWallets: string[]) => Promise<KnownContracts>;

/**
 * The contracts among the accounts the trace reached, as it left them: jetton wallets, NFT items, multisig orders,
 * sales and auctions found as the index finds them (an order the trace itself created: its get_order_data, and its
 * wallet's get_order_address vouching for it, both on the emulated states; a sale the trace deploys: its
 * get_sale_data there), and nominator pools by their emulated state's code hash, as the index tells them by their
 * latest state's.
 */
export async function emulatedContracts(trace: EmulatedTrace): Promise<KnownContracts> {
  const reads = new ContractReads(directGetMethods((address, method, stack) => trace.runGetMethod(address, method, stack)));
  const jettonWallets = new Map<string, { owner: string; jetton: string }>();
  const nftItems = new Map<string, NftItemInfo>();
  const multisigOrders = new Map<string, MultisigOrderInfo>();
  const nftSales = new Map<string, NftSaleInfo>();
  const nftAuctions = new Map<string, NftAuctionInfo>();
  const nominatorPools = new Set<string>();
  await Promise.all(
    [...trace.states].map(async ([raw, state]) => {
      const address = Address.parseRaw(raw);
      const view = new AccountView(address, Buffer.from(state, 'base64'));
      if (view.status !== 'active' || !view.code) return;
      const account = raw.toUpperCase();
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

/**
 * The contracts the classifier reads for `input`: those the emulated states show, then, for the accounts they show
 * none at, what the network's index knows (`indexed`; none without an index): a sale, pool or stake wallet the trace
 * reaches without deploying or changing what it is, an auction's NFT item the trace does not touch, the wallets
 * a swap names. The emulated state's word stands where both speak (it is the account as the trace left it).
 */
export async function traceContracts(trace: EmulatedTrace, input: TraceInput, indexed: IndexedContracts | null): Promise<KnownContracts> {
  const emulated = await emulatedContracts(trace);
  if (!indexed) return emulated;
  const found = namedAccounts(emulated);
  const { accounts, stakeWallets } = contractAccounts(input);
  const auctionItems = [...(emulated.nftAuctions?.values() ?? [])].map((a) => a.nft);
  const asked = [...new Set([...accounts, ...auctionItems])].filter((a) => !found.has(a));
  return mergeContracts(emulated, await indexed(asked, stakeWallets));
}

/** The trace as the classifier reads it, from its transactions as the answer writes them (in the order they ran). */
export function classifierInput(traceId: string, externalHashNorm: string | null, transactions: readonly V3TransactionJson[]): TraceInput {
  const messages = new Map<string, StoredMessageDoc>();
  for (const tx of transactions) for (const m of [tx.in_msg, ...tx.out_msgs]) if (m) messages.set(m.hash, m);
  const inputs = transactions.map((tx) =>
    transactionOf({ ...tx, in_msg: tx.in_msg?.hash ?? null, out_msgs: tx.out_msgs.map((m) => m.hash) }, (hash) => messages.get(hash)),
  );
  const root = inputs[0];
  const last = inputs.reduce((a, b) => (b.lt > a.lt ? b : a), root);
  return {
    traceId,
    externalHash: root.inMsg?.hash ?? null,
    externalHashNorm,
    startLt: root.lt,
    startUtime: root.now,
    endLt: last.lt,
    endUtime: last.now,
    mcSeqnoEnd: 0,
    transactions: inputs,
  };
}

/** The trace's actions: classified as the index classifies a complete trace. */
export async function emulatedActions(trace: EmulatedTrace, input: TraceInput, indexed: IndexedContracts | null): Promise<ActionRecord[]> {
  return classifyTrace(input, await traceContracts(trace, input, indexed)).actions;
}
