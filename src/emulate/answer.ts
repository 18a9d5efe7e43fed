/**
 * An emulated trace as toncenter's emulate API answers it (ton-emulate-go `EmulateTraceResponse`):
 *
 *   mc_block_seqno   the masterchain block whose state was emulated on
 *   trace            the tree of transaction hashes (/traces' `trace`)
 *   transactions     hash -> the transaction as /pendingTransactions writes it (`emulated: true`, finality
 *                    `pending`, no block yet), with the account's state before and after
 *   actions          the classifier's actions (`with_actions`; else []), each with `accounts`, finality `pending`,
 *                    filtered by the action types the client understands (X-Actions-Version)
 *   code_cells, data_cells   hash -> BoC of every code and data the trace's accounts had (`include_code_data`)
 *   address_book, metadata   of the trace's accounts and every address its actions name (`include_address_book`,
 *                    `include_metadata`), from what the network's index knows; a token contract it has no
 *                    metadata of (one the trace deploys) from its emulated state (metadata.ts), as toncenter's
 *   rand_seed        the block's random seed the transactions ran with (base64)
 *   is_incomplete    the trace was cut at toncenter's bounds (chain/trace-emulation.ts)
 */
import { Cell, loadShardAccount } from '@ton/core';
import type { EmulatedTrace, EmulatedTransaction } from '../chain/types.js';
import type { NetworkContext } from '../http/network-context.js';
import { actionDoc } from '../index/actions/action-rows.js';
import type { StoredAction } from '../index/actions/reader.js';
import { shownTo } from '../index/actions/versions.js';
import { actionAddresses } from '../api/v3/format/actions.js';
import { traceTree } from '../api/v3/format/trace-tree.js';
import { addressBookFor } from '../pending/endpoints.js';
import { accountStateInfo, type AccountStateInfo } from '../ton/account-state-json.js';
import { normalizedExternalHash } from '../ton/normalized-external-hash.js';
import { loadTransactionCell } from '../ton/transaction-cell.js';
import { v3Transaction, type V3TransactionJson } from '../ton/transaction-v3-json.js';
import { WHOLE_SHARD } from '../ton/workchain.js';
import { classifierInput, emulatedActions } from './actions.js';
import { emulatedTokenMetadata } from './metadata.js';
import type { AnswerOptions } from './request.js';

export interface EmulateAnswerOptions extends AnswerOptions {
  /** The action types the client understands, expanded (index/actions/versions.ts). */
  supportedActionTypes: ReadonlySet<string>;
}

function stateInfo(shardAccount: string): AccountStateInfo {
  return accountStateInfo(loadShardAccount(Cell.fromBase64(shardAccount).beginParse()).account);
}

function transactionJson(tx: EmulatedTransaction, traceId: Buffer): V3TransactionJson {
  return {
    ...v3Transaction(loadTransactionCell(tx.cell), {
      block: { workchain: tx.account.workChain, shard: WHOLE_SHARD, seqno: 0 },
      mcBlockSeqno: 0,
      traceId,
      emulated: true,
      accountStateBefore: stateInfo(tx.shardAccountBefore),
      accountStateAfter: stateInfo(tx.shardAccount),
    }),
    finality: 'pending' as 'finalized',
  };
}

/** Code and data of every state the trace's accounts had, by hash. */
function codeAndData(trace: EmulatedTrace): { code: Record<string, string>; data: Record<string, string> } {
  const code: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (const tx of trace.transactions)
    for (const state of [tx.shardAccountBefore, tx.shardAccount]) {
      const info = stateInfo(state);
      if (info.code) code[info.code.hash().toString('base64')] ??= info.code.toBoc().toString('base64');
      if (info.data) data[info.data.hash().toString('base64')] ??= info.data.toBoc().toString('base64');
    }
  return { code, data };
}

export async function emulateAnswer(trace: EmulatedTrace, options: EmulateAnswerOptions, network: NetworkContext): Promise<object> {
  const root = trace.transactions[0];
  const transactions = trace.transactions.map((tx) => transactionJson(tx, root.hash));
  const ordered = [...transactions].sort((a, b) =>
    a.lt === b.lt ? (a.account < b.account ? -1 : 1) : BigInt(a.lt) < BigInt(b.lt) ? -1 : 1,
  );
  const { root: tree } = traceTree(
    ordered.map((tx) => ({ hash: tx.hash, inMsg: tx.in_msg?.hash ?? null, outMsgs: tx.out_msgs.map((m) => m.hash) })),
  );

  let actions: object[] = [];
  const named = new Set(transactions.map((tx) => tx.account));
  if (options.withActions) {
    const info = root.inMsg?.message.info;
    const norm = info?.type === 'external-in' ? normalizedExternalHash(info.dest, root.inMsg!.message.body).toString('base64') : null;
    const index = network.index;
    const indexed = index ? (accounts: string[], stakeWallets: string[]) => index.actions.knownContracts(accounts, stakeWallets) : null;
    const records = await emulatedActions(trace, classifierInput(root.hash.toString('base64'), norm, transactions), indexed);
    const shown = records.filter((a) => shownTo(options.supportedActionTypes, a.type, a.ancestors));
    const stored: StoredAction[] = shown.map((a) => ({
      traceId: root.hash,
      actionId: Buffer.from(a.actionId, 'base64'),
      doc: actionDoc(a),
      accounts: JSON.stringify(a.accounts),
    }));
    for (const address of actionAddresses(stored)) named.add(address);
    actions = shown.map((a, i) => ({ ...JSON.parse(stored[i].doc), accounts: a.accounts, finality: 'pending' }));
  }

  const answer: Record<string, unknown> = {
    mc_block_seqno: trace.mcSeqno,
    trace: tree,
    transactions: Object.fromEntries(transactions.map((tx) => [tx.hash, tx])),
    actions,
  };
  if (options.includeCodeData) {
    const { code, data } = codeAndData(trace);
    answer.code_cells = code;
    answer.data_cells = data;
  }
  if (options.includeAddressBook) answer.address_book = await addressBookFor(network, [...named]);
  if (options.includeMetadata) {
    const indexed = network.index ? await network.index.metadata(named) : {};
    // The token contracts the index has no entry of (one the trace deploys): their content on the emulated states.
    const unknown = new Set([...named].filter((a) => !(a in indexed)));
    answer.metadata = { ...indexed, ...(await emulatedTokenMetadata(trace, unknown)) };
  }
  answer.rand_seed = trace.randSeed.toString('base64');
  answer.is_incomplete = trace.incomplete;
  return answer;
}
