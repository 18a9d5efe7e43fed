/**
 * The actions of an emulated trace, by the index's classifier (src/index/actions), as toncenter's emulate API runs
 * its classifier on the emulated trace: the classifier's input built from the transactions as the answer writes
 * them, and the token contracts among the trace's accounts detected on the states the trace left (toncenter's
 * emulator detects interfaces on emulated states too), so a jetton transfer to a wallet the transfer itself deploys
 * is still a `jetton_transfer`, and a multisig order the trace creates makes a `multisig_create_order`. The
 * detection is the one a pending trace's accounts get too (src/index/actions/state-contracts.ts: the index's
 * get-methods and cross-checks, on the emulated states). Sales and auctions are found there too, nominator pools by
 * their emulated code; for the accounts no emulated state shows a contract at, the network's index is asked what a
 * pending trace asks it (DEX pools, JVault stake wallets, a contract the trace reached without changing what it is),
 * so the classifier gets what a sealed trace gets.
 */
import type { EmulatedTrace } from '../chain/types.js';
import { classifyTrace, type ActionRecord } from '../index/actions/classify.js';
import { transactionOf, type KnownContracts, type StoredMessageDoc, type TraceInput } from '../index/actions/trace-input.js';
import { namedContracts, ownContracts, type IndexedContracts } from '../index/actions/unsealed-contracts.js';
import type { V3TransactionJson } from '../ton/transaction-v3-json.js';

/**
 * The contracts the classifier reads for `input`: the trace's own accounts as its emulated states show them, the
 * index's jetton wallets vouched for, then what the index knows of the rest (src/index/actions/unsealed-contracts.ts,
 * the pending layer's rule).
 */
export async function traceContracts(trace: EmulatedTrace, input: TraceInput, indexed: IndexedContracts | null): Promise<KnownContracts> {
  const own = new Set(input.transactions.map((tx) => tx.account));
  return namedContracts(await ownContracts(trace, own, indexed), input, own, indexed);
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
