/**
 * One sealed block as rows of the index's tables. Pure: no I/O, so the writer can hand the rows to
 * either store in one transaction. The JSON documents are rendered here once, by the shared v3
 * codecs of src/ton, and stored in the layout documents.ts fixes, so a read only parses and merges
 * them (rendering a transaction from its BoC costs ~0.5 ms; parsing its document ~20 us).
 *
 * A message is stored once even though two transactions carry it (the one that created it, the one
 * that received it): rows met twice within a block are merged here, rows met again in a later block
 * are merged by the upsert (ON CONFLICT below).
 */
import { beginCell, loadShardAccount, type Address, type Cell, type Transaction } from '@ton/core';
import type { Block } from '../chain/types.js';
import { accountStateInfo, v3AccountState, type AccountStateInfo } from '../ton/account-state-json.js';
import { formatRawUpper } from '../ton/address.js';
import { hashFromBigInt } from '../ton/hash.js';
import { transactionMessageCells } from '../ton/message-cells.js';
import { v3Message, type V3MessageJson } from '../ton/message-json.js';
import { extraCurrenciesMap } from '../ton/tonlib-json.js';
import { transactionAccount } from '../ton/transaction-json.js';
import { v3Transaction } from '../ton/transaction-v3-json.js';
import { detectWallet } from '../ton/wallet-detect.js';
import { messageDoc, transactionDoc } from './documents.js';
import type { InsertBatch, SqlValue } from './sql/driver.js';
import { balanceOrder, signedShard } from './sql/values.js';
import {
  accountCandidate,
  eventCandidate,
  MethodCache,
  type BlockTokens,
  type TokenEventCandidate,
  type TokenAccountCandidate,
} from './tokens/block-tokens.js';
import { interfacesOfMethods } from './tokens/method-ids.js';
import { assembleBlockTraces, type BlockTraces, type TraceTransactionInput } from './traces/block-traces.js';
import type { IndexedBlock, IndexedTransaction, RenderedBlock } from './types.js';

const BLOCK_COLUMNS = [
  'workchain',
  'shard',
  'seqno',
  'root_hash',
  'file_hash',
  'mc_seqno',
  'global_id',
  'version',
  'key_block',
  'gen_utime',
  'start_lt',
  'end_lt',
  'min_ref_mc_seqno',
  'prev_key_block_seqno',
  'master_ref_seqno',
  'rand_seed',
  'state_root_hash',
  'tx_count',
  'prev_blocks',
  'consensus',
] as const;

const TRANSACTION_COLUMNS = [
  'hash',
  'account',
  'lt',
  'now',
  'mc_seqno',
  'block_workchain',
  'block_shard',
  'block_seqno',
  'state_before',
  'state_after',
  'doc',
  'trace_id',
] as const;

const MESSAGE_COLUMNS = [
  'msg_hash',
  'hash_norm',
  'source',
  'destination',
  'opcode',
  'body_hash',
  'created_lt',
  'created_at',
  'sort_lt',
  'in_tx_hash',
  'out_tx_hash',
  'doc',
  'trace_id',
] as const;

const LATEST_COLUMNS = [
  'account',
  'state_hash',
  'status',
  'balance',
  'balance_order',
  'extra_currencies',
  'frozen_hash',
  'code_hash',
  'data_hash',
  'code_boc',
  'data_boc',
  'last_trans_hash',
  'last_trans_lt',
  'wallet',
  'interfaces',
] as const;

/** `^[ in_msg:nothing out_msgs:empty ]`: the message reference of a transaction without messages. */
const NO_MESSAGES = beginCell().storeBit(false).storeBit(false).endCell();

/**
 * The transaction as seen without its messages: its cell with the message reference emptied (every
 * other property, hashes included, is the original's). Two transactions of a block carry each
 * internal message and rendering one costs ~0.1 ms, half of a transaction's row, so the block's
 * messages are rendered once each (blockRows) and the transaction without them. A view, not a new
 * cell: building one would hash it again, which costs as much as the render it saves.
 */
function withoutMessages(tx: Transaction): Transaction {
  const raw: Cell = Object.create(tx.raw, { refs: { value: [NO_MESSAGES, ...tx.raw.refs.slice(1)] } });
  // Inherits the rest from tx (a spread would read, and so parse, the lazily parsed messages).
  return Object.create(tx, { raw: { value: raw } }) as Transaction;
}

/** Code cells repeat across accounts and blocks (every wallet of a kind has the same): BoC them once. */
export class CodeBocCache {
  private readonly bocs = new Map<string, Buffer>();
  /** The token get-methods of each code (tokens/method-ids.ts), kept as long as the BoCs. */
  readonly methods = new MethodCache();
  constructor(private readonly capacity = 512) {}

  boc(cell: Cell): Buffer {
    const key = cell.hash().toString('base64');
    let boc = this.bocs.get(key);
    if (!boc) {
      boc = cellBoc(cell);
      if (this.bocs.size >= this.capacity) this.bocs.delete(this.bocs.keys().next().value as string);
      this.bocs.set(key, boc);
    }
    return boc;
  }
}

/** BoC bytes as toncenter writes them (CRC32C, no index); stored raw, sent as base64. */
function cellBoc(cell: Cell): Buffer {
  return cell.toBoc({ idx: false, crc32: true });
}

const hashBytes = (base64: string): Buffer => Buffer.from(base64, 'base64');

function blockRow(block: Block, mcSeqno: number): SqlValue[] {
  const { id } = block;
  return [
    id.workchain,
    signedShard(id.shard),
    id.seqno,
    id.rootHash,
    id.fileHash,
    mcSeqno,
    block.globalId,
    block.version,
    block.isKeyBlock ? 1 : 0,
    block.genUtime,
    block.startLt,
    block.endLt,
    block.minRefMcSeqno,
    block.prevKeyBlockSeqno,
    block.masterRef?.seqno ?? null,
    block.randSeed,
    block.stateRootHash,
    block.txCount,
    JSON.stringify(
      block.prevBlocks.map((p) => [p.workchain, p.shard.toString(), p.seqno, p.rootHash.toString('base64'), p.fileHash.toString('base64')]),
    ),
    block.consensus ? JSON.stringify({ ...block.consensus, createdBy: bytesOf(block.consensus.createdBy).toString('base64') }) : null,
  ];
}

/** Bytes that may have crossed a thread as a Uint8Array. */
function bytesOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

interface MessageRow {
  values: SqlValue[];
}

/** A message row; `inTx`/`outTx` say which side of it this transaction is. */
function messageRow(json: V3MessageJson, sortLt: bigint, inTx: Buffer | null, outTx: Buffer | null): MessageRow {
  return {
    values: [
      hashBytes(json.hash),
      json.hash_norm ? hashBytes(json.hash_norm) : null,
      json.source,
      json.destination,
      json.opcode === null ? null : parseInt(json.opcode.slice(2), 16),
      hashBytes(json.message_content.hash),
      json.created_lt === null ? null : BigInt(json.created_lt),
      json.created_at === null ? null : Number(json.created_at),
      sortLt,
      inTx,
      outTx,
      messageDoc(json),
      // The trace: set once the block's traces are assembled (blockRows).
      null,
    ],
  };
}

/** Index of in_tx_hash / out_tx_hash in a message row. */
const IN_TX = MESSAGE_COLUMNS.indexOf('in_tx_hash');
const OUT_TX = MESSAGE_COLUMNS.indexOf('out_tx_hash');
/** Index of trace_id in a transaction row and in a message row. */
export const TX_TRACE_ID = TRANSACTION_COLUMNS.indexOf('trace_id');
export const MSG_TRACE_ID = MESSAGE_COLUMNS.indexOf('trace_id');

interface StateRecord {
  account: string;
  stateHash: Buffer;
  info: AccountStateInfo;
  lastTransHash: Buffer;
  lastTransLt: bigint;
}

/** A ShardAccount cell (account_descr$_ account:^Account last_trans_hash last_trans_lt) as a state record. */
function stateRecord(address: Address | null, shardAccount: Cell): StateRecord | null {
  const parsed = loadShardAccount(shardAccount.beginParse());
  const account = parsed.account ?? null;
  const owner = account?.addr ?? address;
  if (!owner) return null;
  return {
    account: formatRawUpper(owner),
    // state_update hashes are those of the Account cell: the ShardAccount's only reference.
    stateHash: shardAccount.refs[0].hash(),
    info: accountStateInfo(account),
    lastTransHash: hashFromBigInt(parsed.lastTransactionHash),
    lastTransLt: parsed.lastTransactionLt,
  };
}

function latestRow(state: StateRecord, codeBocs: CodeBocCache): SqlValue[] {
  const { info } = state;
  const wallet = info.code ? detectWallet(info.code, info.data) : null;
  // Interfaces by method ids (toncenter's address_book rule for code it has no exact hash for).
  const interfaces = info.code && !wallet ? interfacesOfMethods(codeBocs.methods.of(info.code)) : [];
  const extra = info.extraCurrencies && info.extraCurrencies.size > 0 ? JSON.stringify(extraCurrenciesMap(info.extraCurrencies)) : null;
  return [
    state.account,
    state.stateHash,
    info.status,
    info.balance.toString(),
    balanceOrder(info.balance),
    extra,
    info.frozenHash,
    info.code?.hash() ?? null,
    info.data?.hash() ?? null,
    info.code ? codeBocs.boc(info.code) : null,
    info.data ? cellBoc(info.data) : null,
    state.lastTransHash,
    state.lastTransLt,
    wallet ? JSON.stringify(wallet) : null,
    interfaces.length > 0 ? JSON.stringify(interfaces) : null,
  ];
}

/**
 * An account's rows as of a ShardAccount, put back whole (a snapshot restore: the upsert does not compare
 * last_trans_lt, which goes back): its latest_account_states row and its account_states document.
 */
export function restoredStateRows(address: Address, shardAccount: Cell, codeBocs: CodeBocCache): InsertBatch[] {
  const state = stateRecord(address, shardAccount);
  if (!state) return [];
  return [
    {
      table: 'account_states',
      columns: ['hash', 'account', 'doc'],
      rows: [[state.stateHash, state.account, JSON.stringify(v3AccountState(state.stateHash, state.info))]],
      conflict: 'ON CONFLICT (hash) DO NOTHING',
    },
    {
      table: 'latest_account_states',
      columns: LATEST_COLUMNS,
      rows: [latestRow(state, codeBocs)],
      conflict: `ON CONFLICT (account) DO UPDATE SET ${LATEST_COLUMNS.slice(1)
        .map((c) => `${c} = excluded.${c}`)
        .join(', ')}`,
    },
  ];
}

/** The rows of one masterchain block and everything it committed. */
export function blockRows(block: IndexedBlock, codeBocs: CodeBocCache): { rows: InsertBatch[]; traces: BlockTraces; tokens: BlockTokens } {
  const mcSeqno = block.masterchain.id.seqno;
  const blocks = [blockRow(block.masterchain, mcSeqno), ...block.shards.map((shard) => blockRow(shard, mcSeqno))];
  const shardState = (block.masterchain.shardBlocks ?? block.shards.map((s) => s.id)).map((id) => [
    mcSeqno,
    id.workchain,
    signedShard(id.shard),
    id.seqno,
  ]);

  const transactions: SqlValue[][] = [];
  const messages = new Map<string, MessageRow>();
  const states = new Map<string, StateRecord>();
  const latest = new Map<string, StateRecord>();
  const keepLatest = (state: StateRecord) => {
    const known = latest.get(state.account);
    if (!known || state.lastTransLt >= known.lastTransLt) latest.set(state.account, state);
  };
  const addMessage = (row: MessageRow, key: string): void => {
    const known = messages.get(key);
    if (!known) {
      messages.set(key, row);
      return;
    }
    known.values[IN_TX] ??= row.values[IN_TX];
    known.values[OUT_TX] ??= row.values[OUT_TX];
  };

  const rendered = new Map<string, V3MessageJson>();
  const render = (cell: Cell): V3MessageJson => {
    const key = cell.hash().toString('base64');
    let json = rendered.get(key);
    if (!json) rendered.set(key, (json = v3Message(cell)));
    return json;
  };
  const traceInputs: TraceTransactionInput[] = [];
  const tokenEvents: TokenEventCandidate[] = [];
  for (const item of block.transactions) {
    const { row, trace, tokenEvent } = transactionRow(item, mcSeqno, render, addMessage);
    transactions.push(row);
    traceInputs.push(trace);
    if (tokenEvent) tokenEvents.push(tokenEvent);
    if (item.shardAccountAfter) {
      const state = stateRecord(transactionAccount(item.transaction, item.block.workchain), item.shardAccountAfter);
      if (state) {
        states.set(state.stateHash.toString('base64'), state);
        keepLatest(state);
      }
    }
  }
  for (const { address, shardAccount } of block.accounts) {
    const state = stateRecord(address, shardAccount);
    if (!state) continue;
    states.set(state.stateHash.toString('base64'), state);
    keepLatest(state);
  }

  // Every row carries its local trace's root; the store thread replaces the roots that continue an
  // earlier trace (traces/trace-linker.ts).
  const traces = assembleBlockTraces(mcSeqno, traceInputs);
  const roots = traces.traces.map((t) => Buffer.from(t.root, 'base64'));
  for (const [i, input] of traceInputs.entries()) {
    const root = roots[traces.traceOf[i]];
    transactions[i][TX_TRACE_ID] = root;
    for (const hash of [...(input.inMsg ? [input.inMsg.hash] : []), ...input.outMsgs.map((m) => m.hash)]) {
      const message = messages.get(hash)!;
      // An internal message belongs to the trace of the transaction that sent it (met first, by lt).
      message.values[MSG_TRACE_ID] ??= root;
    }
  }

  const rows: InsertBatch[] = [
    { table: 'blocks', columns: BLOCK_COLUMNS, rows: blocks, conflict: 'ON CONFLICT (workchain, shard, seqno) DO NOTHING' },
    {
      table: 'shard_state',
      columns: ['mc_seqno', 'workchain', 'shard', 'seqno'],
      rows: shardState,
      conflict: 'ON CONFLICT (mc_seqno, workchain, shard) DO NOTHING',
    },
    { table: 'transactions', columns: TRANSACTION_COLUMNS, rows: transactions, conflict: 'ON CONFLICT (hash) DO NOTHING' },
    {
      table: 'messages',
      columns: MESSAGE_COLUMNS,
      rows: [...messages.values()].map((m) => m.values),
      // The side of a message a later block discovers (its receipt) is added to the row.
      conflict:
        'ON CONFLICT (msg_hash) DO UPDATE SET in_tx_hash = COALESCE(messages.in_tx_hash, excluded.in_tx_hash), out_tx_hash = COALESCE(messages.out_tx_hash, excluded.out_tx_hash), trace_id = COALESCE(messages.trace_id, excluded.trace_id)',
    },
    {
      table: 'account_states',
      columns: ['hash', 'account', 'doc'],
      rows: [...states.values()].map((s) => [s.stateHash, s.account, JSON.stringify(v3AccountState(s.stateHash, s.info))]),
      conflict: 'ON CONFLICT (hash) DO NOTHING',
    },
    {
      table: 'latest_account_states',
      columns: LATEST_COLUMNS,
      rows: [...latest.values()].map((s) => latestRow(s, codeBocs)),
      conflict: `ON CONFLICT (account) DO UPDATE SET ${LATEST_COLUMNS.slice(1)
        .map((c) => `${c} = excluded.${c}`)
        .join(', ')} WHERE excluded.last_trans_lt >= latest_account_states.last_trans_lt`,
    },
  ];
  const candidates: TokenAccountCandidate[] = [];
  for (const state of latest.values()) {
    const candidate = accountCandidate(
      state.account,
      state.info.code ?? undefined,
      state.info.data ?? undefined,
      state.lastTransLt,
      codeBocs.methods,
    );
    if (candidate) candidates.push(candidate);
  }
  return { rows, traces, tokens: { seqno: mcSeqno, accounts: candidates, events: tokenEvents } };
}

/** The block as the committer takes it: its rows, or the error that rendering them raised. */
export function renderBlock(block: IndexedBlock, codeBocs: CodeBocCache): RenderedBlock {
  const seqno = block.masterchain.id.seqno;
  try {
    return { seqno, transactions: block.transactions.length, ...blockRows(block, codeBocs) };
  } catch (error) {
    return { seqno, transactions: block.transactions.length, rows: asError(error) };
  }
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function transactionRow(
  item: IndexedTransaction,
  mcSeqno: number,
  render: (cell: Cell) => V3MessageJson,
  addMessage: (row: MessageRow, key: string) => void,
): { row: SqlValue[]; trace: TraceTransactionInput; tokenEvent: TokenEventCandidate | null } {
  const tx = item.transaction;
  const hash = tx.hash();
  const cells = transactionMessageCells(tx);
  const inMsg = cells.inMessage ? render(cells.inMessage) : null;
  const outMsgs = cells.outMessages.map(render);
  if (inMsg) {
    // An external-in message has no created_lt: it sorts by the lt of the transaction it started.
    const sortLt = inMsg.created_lt === null ? tx.lt : BigInt(inMsg.created_lt);
    addMessage(messageRow(inMsg, sortLt, hash, null), inMsg.hash);
  }
  for (const out of outMsgs) addMessage(messageRow(out, BigInt(out.created_lt!), null, hash), out.hash);
  const json = v3Transaction(withoutMessages(tx), { block: item.block, mcBlockSeqno: mcSeqno });
  const row = [
    hash,
    json.account,
    tx.lt,
    tx.now,
    mcSeqno,
    item.block.workchain,
    signedShard(item.block.shard),
    item.block.seqno,
    tx.stateUpdate.oldHash,
    tx.stateUpdate.newHash,
    // Messages are stored once, in `messages`; the transaction's document keeps their hashes.
    transactionDoc(
      json,
      inMsg?.hash ?? null,
      outMsgs.map((m) => m.hash),
    ),
    null,
  ];
  const trace: TraceTransactionInput = {
    hash: json.hash,
    lt: tx.lt,
    now: tx.now,
    account: json.account,
    inMsg: inMsg ? { hash: inMsg.hash, hashNorm: inMsg.hash_norm ?? null, source: inMsg.source } : null,
    outMsgs: outMsgs.map((m) => ({ hash: m.hash, internal: m.destination !== null })),
  };
  const tokenEvent = eventCandidate(tx, json.account, cells.inMessage, inMsg?.opcode ? parseInt(inMsg.opcode.slice(2), 16) : null);
  return { row, trace, tokenEvent };
}
