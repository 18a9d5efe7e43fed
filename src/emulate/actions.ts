/**
 * The actions of an emulated trace, by the index's classifier (src/index/actions), as toncenter's emulate API runs
 * its classifier on the emulated trace: the classifier's input built from the transactions as the answer writes
 * them, and the token contracts among the trace's accounts detected on the states the trace left (toncenter's
 * emulator detects interfaces on emulated states too), so a jetton transfer to a wallet the transfer itself deploys
 * is still a `jetton_transfer`, and a multisig order the trace creates makes a `multisig_create_order`. The
 * detection is the index's (src/index/tokens/contracts.ts): the same get-methods and cross-checks, run here on the
 * emulated states (a master, collection or multisig wallet the trace did not reach: as the chain has it).
 */
import { Address } from '@ton/core';
import type { EmulatedTrace } from '../chain/types.js';
import { classifyTrace, type ActionRecord } from '../index/actions/classify.js';
import {
  NO_CONTRACTS,
  transactionOf,
  type KnownContracts,
  type MultisigOrderInfo,
  type NftItemInfo,
  type StoredMessageDoc,
  type TraceInput,
} from '../index/actions/trace-input.js';
import { telemintFlags } from '../index/actions/telemint.js';
import { ContractReads } from '../index/tokens/contracts.js';
import { directGetMethods } from '../index/tokens/get-methods.js';
import { tokenMethods, type TokenMethod } from '../index/tokens/method-ids.js';
import { AccountView } from '../chain/account-view.js';
import type { V3TransactionJson } from '../ton/transaction-v3-json.js';

/** The interfaces the classifier reads (jetton wallets, NFT items, multisig orders): nothing else is asked. */
const CLASSIFIER_METHODS: readonly TokenMethod[] = ['get_wallet_data', 'get_nft_data', 'get_order_data'];

/**
 * The jetton wallets, NFT items and multisig orders among the accounts the trace reached, as it left them: an order
 * the trace itself created is found as the index finds a sealed one (its get_order_data, and its wallet's
 * get_order_address vouching for it, both on the emulated states).
 */
export async function emulatedContracts(trace: EmulatedTrace): Promise<KnownContracts> {
  const reads = new ContractReads(directGetMethods((address, method, stack) => trace.runGetMethod(address, method, stack)));
  const jettonWallets = new Map<string, { owner: string; jetton: string }>();
  const nftItems = new Map<string, NftItemInfo>();
  const multisigOrders = new Map<string, MultisigOrderInfo>();
  await Promise.all(
    [...trace.states].map(async ([raw, state]) => {
      const address = Address.parseRaw(raw);
      const view = new AccountView(address, Buffer.from(state, 'base64'));
      if (view.status !== 'active' || !view.code) return;
      const methods = tokenMethods(view.code).filter((m) => CLASSIFIER_METHODS.includes(m));
      if (methods.length === 0) return;
      const account = raw.toUpperCase();
      const found = await reads.detect(
        { account, codeHash: view.code.hash(), dataHash: (view.data ?? view.code).hash(), lastTxLt: view.lastTxLt, methods },
        trace.mcSeqno,
      );
      if (found?.wallet) jettonWallets.set(account, { owner: found.wallet.owner, jetton: found.wallet.jetton });
      if (found?.item) {
        const { index, collection, content, codeHash } = found.item;
        // A Telegram or .ton DNS item is told by its content and code, as the index tells a stored one.
        nftItems.set(account, { index: index.toString(), collection, ...telemintFlags(content, codeHash.toString('base64'), collection) });
      }
      if (found?.order) multisigOrders.set(account, { signers: found.order.signers });
    }),
  );
  return jettonWallets.size + nftItems.size + multisigOrders.size === 0 ? NO_CONTRACTS : { jettonWallets, nftItems, multisigOrders };
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
export async function emulatedActions(trace: EmulatedTrace, input: TraceInput): Promise<ActionRecord[]> {
  return classifyTrace(input, await emulatedContracts(trace)).actions;
}
