import type { IndexReader } from '../../../index/reader.js';
import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { transactionsText } from '../format/transactions.js';
import { PAGE_PARAMS, SORT_PARAM, WINDOW_PARAMS, windowOf } from '../params.js';
import { atIndexedHead } from '../../per-block/head-answers.js';

/** The largest first page of unfiltered transactions kept per indexed block (a "latest transactions" feed). */
const KEPT_PAGE_LIMIT = 16;

/** toncenter answers a filter on an unknown masterchain block with 404 rather than an empty list. */
export async function requireMasterchainBlock(reader: IndexReader, seqno: number | undefined): Promise<void> {
  if (seqno !== undefined && !(await reader.masterchainBlockExists(seqno))) throw new ApiError(404, `masterchain block ${seqno} not found`);
}

export const transactions = defineEndpoint({
  path: '/transactions',
  tag: 'blockchain',
  summary: 'Transactions by filters, ordered by lt',
  params: {
    workchain: { type: 'int32', description: 'Block workchain.' },
    shard: { type: 'shard', description: 'Block shard id, hex (e.g. `8000000000000000`).' },
    seqno: { type: 'int32', description: 'Block seqno.' },
    mc_seqno: { type: 'int32', description: 'Masterchain block seqno.' },
    account: { type: 'address[]', maxItems: 1000, description: 'Account addresses (raw or user-friendly); repeat the key for several.' },
    exclude_account: { type: 'address[]', maxItems: 1000, description: 'Leave out transactions of these accounts.' },
    hash: { type: 'hash', description: 'Transaction hash (hex, base64 or base64url).' },
    lt: { type: 'int64', description: 'Transaction lt.' },
    trace_id: {
      type: 'hash[]',
      maxItems: 1000,
      description: 'Transactions of these traces (a trace id is the hash of its root transaction).',
    },
    ...WINDOW_PARAMS,
    ...PAGE_PARAMS,
    ...SORT_PARAM,
  },
  response: ref('TransactionsResponse'),
  async handle(p, network) {
    const reader = indexOf(network);
    // The newest (or oldest) transactions with no filter change only when the index takes a block: built once per
    // indexed block (src/api/per-block), the same text until the next.
    const unfiltered =
      p.offset === 0 &&
      p.limit <= KEPT_PAGE_LIMIT &&
      [p.workchain, p.shard, p.seqno, p.mc_seqno, p.hash, p.lt, p.start_utime, p.end_utime, p.start_lt, p.end_lt].every(
        (v) => v === undefined,
      ) &&
      p.account.length + p.exclude_account.length + p.trace_id.length === 0;
    if (unfiltered) {
      return atIndexedHead(network, `transactions\n${p.sort}\n${p.limit}`, async () =>
        transactionsText(await reader.transactionPage(await reader.transactions({}, p.sort, p)), network.testOnly),
      );
    }
    await requireMasterchainBlock(reader, p.mc_seqno);
    const filter = {
      workchain: p.workchain,
      shard: p.shard,
      seqno: p.seqno,
      mcSeqno: p.mc_seqno,
      accounts: p.account,
      excludeAccounts: p.exclude_account,
      hash: p.hash,
      lt: p.lt,
      traceIds: p.trace_id,
      ...windowOf(p),
    };
    return transactionsText(await reader.transactionPage(await reader.transactions(filter, p.sort, p)), network.testOnly);
  },
});

export const transactionsByMasterchainBlock = defineEndpoint({
  path: '/transactionsByMasterchainBlock',
  tag: 'blockchain',
  summary: 'Transactions of a masterchain block and of the shard blocks it commits',
  params: { seqno: { type: 'int32', required: true, description: 'Masterchain block seqno.' }, ...PAGE_PARAMS, ...SORT_PARAM },
  response: ref('TransactionsResponse'),
  async handle(p, network) {
    const reader = indexOf(network);
    await requireMasterchainBlock(reader, p.seqno);
    return transactionsText(await reader.transactionPage(await reader.transactions({ mcSeqno: p.seqno }, p.sort, p)), network.testOnly);
  },
});

export const transactionsByMessage = defineEndpoint({
  path: '/transactionsByMessage',
  tag: 'blockchain',
  summary: 'Transactions that sent or received a message',
  params: {
    msg_hash: { type: 'hash', description: 'Message hash, or the normalized hash of an external message.' },
    body_hash: { type: 'hash', description: 'Hash of the message body.' },
    opcode: { type: 'opcode', description: 'Opcode of the inbound message, hex or signed 32-bit decimal.' },
    direction: { type: 'direction', description: '`in`: the receiving transaction; `out`: the sending one.' },
    ...PAGE_PARAMS,
  },
  response: ref('TransactionsResponse'),
  async handle(p, network) {
    if (p.msg_hash === undefined && p.body_hash === undefined && p.opcode === undefined) {
      throw new ApiError(422, 'at least one of msg_hash, body_hash, opcode should be specified');
    }
    const reader = indexOf(network);
    const filter = { msgHash: p.msg_hash, bodyHash: p.body_hash, opcode: p.opcode, direction: p.direction };
    return transactionsText(await reader.transactionPage(await reader.transactionsByMessage(filter, p)), network.testOnly);
  },
});

export const adjacentTransactions = defineEndpoint({
  path: '/adjacentTransactions',
  tag: 'blockchain',
  summary: 'The parent and/or children of a transaction',
  params: {
    hash: { type: 'hash', required: true, description: 'Transaction hash.' },
    direction: {
      type: 'direction',
      description: '`in`: the transaction that sent its inbound message; `out`: those that received its outbound messages.',
    },
  },
  response: ref('TransactionsResponse'),
  async handle(p, network) {
    const reader = indexOf(network);
    const found = await reader.adjacentTransactions(p.hash, p.direction);
    if (found.length === 0) throw new ApiError(404, 'adjacent transactions not found');
    return transactionsText(await reader.transactionPage(found), network.testOnly);
  },
});
