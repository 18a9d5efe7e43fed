/**
 * Fills a v3 index with synthetic but well-formed blocks, through the real IndexWriter: wallet v4
 * accounts paying each other. Each payment is two transactions, as on a real chain: the sender's
 * (an external-in message, one internal message out with a text comment) and the receiver's (that
 * internal message in). Transactions, messages and account states are real TL-B cells built with
 * @ton/core; state hashes chain from one transaction to the next, so account_state_before/after
 * resolve. Hashes of blocks and signatures are made up.
 *
 *   node --import tsx scripts/seed-index.ts --transactions 1000000 [--data-dir DIR | --database-url URL --schema S]
 *
 * bench/v3.ts uses the generator (syntheticBlocks) and seedIndex directly.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  Address,
  beginCell,
  Dictionary,
  storeAccount,
  storeMessage,
  storeTransaction,
  type Account,
  type Cell,
  type Message,
  type Transaction,
} from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { Block, BlockId } from '../src/chain/types.js';
import { WRITE_WINDOW } from '../src/index/attach.js';
import { feedFromIndexed } from '../src/index/feed.js';
import { openIndex, type Index } from '../src/index/open-index.js';
import { packBlock, type PackedBlock } from '../src/index/worker/transfer.js';
import { WorkerWriter } from '../src/index/worker/worker-writer.js';
import type { IndexedBlock, IndexedTransaction } from '../src/index/types.js';
import { formatRawUpper } from '../src/ton/address.js';
import { MESSAGE_REF } from '../src/ton/transaction-cell.js';

const WHOLE = 0x8000000000000000n;
const WALLET_ID = 698983191;
const GENESIS_UTIME = 1_700_000_000;
const LT_PER_BLOCK = 1_000_000n;

export interface SeedOptions {
  /** Distinct wallets (default 10,000). */
  accounts?: number;
  /** Transactions per block (default 500: 250 payments). */
  transactionsPerBlock?: number;
  /** Masterchain seqno of the first block (default 1). */
  firstSeqno?: number;
}

/** What a benchmark needs to ask about the seeded data. */
export interface SeedSample {
  accounts: string[];
  messageHashes: Buffer[];
}

const sha = (...parts: (string | number)[]): Buffer => createHash('sha256').update(parts.join('/')).digest();
const bigintOf = (bytes: Buffer): bigint => BigInt(`0x${bytes.toString('hex')}`);

interface Wallet {
  address: Address;
  publicKey: Buffer;
  seqno: number;
  balance: bigint;
  stateHash: Buffer;
  lastTxHash: Buffer;
  lastTxLt: bigint;
}

const CODE: Cell = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32) }).init.code;

/** The Account cell of a wallet (its hash is what transactions' state updates name). */
function accountCell(wallet: Wallet, lastTransLt: bigint): Cell {
  const data = beginCell().storeUint(wallet.seqno, 32).storeUint(WALLET_ID, 32).storeBuffer(wallet.publicKey).storeBit(false).endCell();
  const account: Account = {
    addr: wallet.address,
    storageStats: { used: { cells: 25n, bits: 5000n }, storageExtra: null, lastPaid: GENESIS_UTIME },
    storage: { lastTransLt, balance: { coins: wallet.balance }, state: { type: 'active', state: { code: CODE, data } } },
  };
  // account$1 (account_none$0 is a nonexistent account)
  return beginCell().storeBit(true).store(storeAccount(account)).endCell();
}

/** account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 */
function shardAccountCell(account: Cell, lastTxHash: Buffer, lastTxLt: bigint): Cell {
  return beginCell().storeRef(account).storeBuffer(lastTxHash).storeUint(lastTxLt, 64).endCell();
}

function comment(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

interface TxInput {
  wallet: Wallet;
  lt: bigint;
  now: number;
  inMessage: Message;
  outMessages: Message[];
  fee: bigint;
  credit?: bigint;
}

/** A well-formed ordinary transaction (storage, credit, compute, action phases) and its cell. */
function transaction(input: TxInput, newStateHash: Buffer): Transaction {
  const { wallet } = input;
  const out = Dictionary.empty(Dictionary.Keys.Uint(15), MESSAGE_REF);
  input.outMessages.forEach((m, i) => out.set(i, m));
  const tx: Omit<Transaction, 'raw' | 'hash'> = {
    address: bigintOf(wallet.address.hash),
    lt: input.lt,
    prevTransactionHash: bigintOf(wallet.lastTxHash),
    prevTransactionLt: wallet.lastTxLt,
    now: input.now,
    outMessagesCount: input.outMessages.length,
    oldStatus: 'active',
    endStatus: 'active',
    inMessage: input.inMessage,
    outMessages: out,
    totalFees: { coins: input.fee },
    stateUpdate: { oldHash: wallet.stateHash, newHash: newStateHash },
    description: {
      type: 'generic',
      creditFirst: input.credit === undefined,
      storagePhase: { storageFeesCollected: 3n, statusChange: 'unchanged' },
      creditPhase: input.credit === undefined ? undefined : { credit: { coins: input.credit } },
      computePhase: {
        type: 'vm',
        success: true,
        messageStateUsed: false,
        accountActivated: false,
        gasFees: input.fee - 3n,
        gasUsed: 2994n,
        gasLimit: input.credit === undefined ? 0n : 1_000_000n,
        gasCredit: input.credit === undefined ? 10_000n : undefined,
        mode: 0,
        exitCode: 0,
        vmSteps: 68,
        vmInitStateHash: 0n,
        vmFinalStateHash: 0n,
      },
      actionPhase: {
        success: true,
        valid: true,
        noFunds: false,
        statusChange: 'unchanged',
        totalFwdFees: input.outMessages.length > 0 ? 266669n : undefined,
        totalActionFees: input.outMessages.length > 0 ? 88889n : undefined,
        resultCode: 0,
        totalActions: input.outMessages.length,
        specActions: 0,
        skippedActions: 0,
        messagesCreated: input.outMessages.length,
        actionListHash: bigintOf(sha('actions', input.lt.toString())),
        totalMessageSize: { cells: BigInt(input.outMessages.length), bits: BigInt(input.outMessages.length * 700) },
      },
      aborted: false,
      destroyed: false,
    },
  };
  const raw = beginCell()
    .store(storeTransaction(tx as Transaction))
    .endCell();
  return { ...tx, raw, hash: () => raw.hash() };
}

function header(id: BlockId, genUtime: number, startLt: bigint, endLt: bigint, txCount: number, previous: BlockId | null): Block {
  return {
    id,
    globalId: -239,
    version: 0,
    genUtime,
    startLt,
    endLt,
    prevBlocks: previous ? [previous] : [],
    stateRootHash: sha('state', id.workchain, id.seqno),
    randSeed: sha('seed', id.workchain, id.seqno),
    txCount,
    isKeyBlock: false,
    prevKeyBlockSeqno: 0,
    minRefMcSeqno: id.seqno,
  };
}

/** The address of synthetic wallet `i` (the same in every run). */
export function syntheticAccount(i: number): Address {
  return new Address(0, sha('account', i));
}

const blockId = (workchain: number, seqno: number): BlockId => ({
  workchain,
  shard: WHOLE,
  seqno,
  rootHash: sha('root', workchain, seqno),
  fileHash: sha('file', workchain, seqno),
});

/**
 * Yields `blocks` blocks of `transactionsPerBlock` transactions each. `sample` collects the accounts
 * and some message hashes for the queries of a benchmark.
 */
export function* syntheticBlocks(blocks: number, options: SeedOptions = {}, sample?: SeedSample): Generator<IndexedBlock> {
  const accounts = options.accounts ?? 10_000;
  const perBlock = Math.max(2, options.transactionsPerBlock ?? 500);
  const firstSeqno = options.firstSeqno ?? 1;
  const wallets: Wallet[] = Array.from({ length: accounts }, (_, i) => {
    const publicKey = sha('key', i);
    return {
      address: syntheticAccount(i),
      publicKey,
      seqno: 0,
      balance: 1_000_000_000_000n + BigInt(i) * 1000n,
      stateHash: sha('genesis state', i),
      lastTxHash: Buffer.alloc(32),
      lastTxLt: 0n,
    };
  });
  if (sample) sample.accounts.push(...wallets.map((w) => formatRawUpper(w.address)));
  let previousMc: BlockId | null = null;
  let previousShard: BlockId | null = null;
  // Payments are numbered from the first block on, so a seed continued later never repeats one.
  let payment = (firstSeqno - 1) * Math.floor(perBlock / 2);

  for (let b = 0; b < blocks; b++) {
    const seqno = firstSeqno + b;
    const now = GENESIS_UTIME + seqno * 5;
    const startLt = BigInt(seqno) * LT_PER_BLOCK;
    let lt = startLt;
    const shardId = blockId(0, seqno);
    const transactions: IndexedTransaction[] = [];
    /** The state each wallet ends the block in (that of its last transaction here). */
    const finalStates = new Map<Wallet, Cell>();
    const pending: { wallet: Wallet; tx: TxInput }[] = [];

    for (let p = 0; p < perBlock / 2; p++, payment++) {
      const sender = wallets[payment % accounts];
      const receiver = wallets[(payment * 7919 + 1) % accounts];
      if (sender === receiver) continue;
      const value = 1_000_000n + BigInt(payment % 1000);
      const external: Message = {
        info: { type: 'external-in', dest: sender.address, importFee: 0n },
        body: beginCell()
          .storeBuffer(sha('signature', payment))
          .storeBuffer(sha('signature2', payment))
          .storeUint(WALLET_ID, 32)
          .storeUint(now + 60, 32)
          .storeUint(sender.seqno, 32)
          .storeUint(0, 8)
          .endCell(),
      };
      lt += 1n;
      const sentLt = lt;
      const internalMessage: Message = {
        info: {
          type: 'internal',
          ihrDisabled: true,
          bounce: true,
          bounced: false,
          src: sender.address,
          dest: receiver.address,
          value: { coins: value },
          ihrFee: 0n,
          forwardFee: 266669n,
          createdLt: sentLt + 1n,
          createdAt: now,
        },
        body: comment(`payment ${payment}`),
      };
      sender.seqno += 1;
      sender.balance -= value + 3_000_000n;
      pending.push({
        wallet: sender,
        tx: { wallet: sender, lt: sentLt, now, inMessage: external, outMessages: [internalMessage], fee: 2_989_000n },
      });
      lt += 2n;
      pending.push({
        wallet: receiver,
        tx: { wallet: receiver, lt, now, inMessage: internalMessage, outMessages: [], fee: 30_000n, credit: value },
      });
      receiver.balance += value - 30_000n;
      lt += 1n;
      if (sample && payment % 97 === 0) sample.messageHashes.push(beginCell().store(storeMessage(internalMessage)).endCell().hash());
    }

    for (const { wallet, tx } of pending) {
      // The state after this transaction: its hash is what the transaction's state update names.
      const account = accountCell(wallet, tx.lt + BigInt(tx.outMessages.length) + 1n);
      const built = transaction(tx, account.hash());
      transactions.push({ transaction: built, block: shardId });
      wallet.stateHash = account.hash();
      wallet.lastTxHash = built.hash();
      wallet.lastTxLt = tx.lt;
      finalStates.set(wallet, shardAccountCell(account, wallet.lastTxHash, wallet.lastTxLt));
    }
    const endLt = lt + 1n;
    const accountsAfter = [...finalStates].map(([wallet, shardAccount]) => ({ address: wallet.address, shardAccount }));
    const shard = {
      ...header(shardId, now, startLt, endLt, transactions.length, previousShard),
      masterRef: { workchain: -1, shard: WHOLE, seqno },
    };
    const mcId = blockId(-1, seqno);
    const masterchain = { ...header(mcId, now, startLt, endLt, 0, previousMc), shardBlocks: [shardId] };
    previousMc = mcId;
    previousShard = shardId;
    yield { masterchain, shards: [shard], transactions, accounts: accountsAfter };
  }
}

export interface SeedResult {
  transactions: number;
  blocks: number;
  /** Wall time from the first block sent to the last committed (generation included: it overlaps the writing). */
  wallMs: number;
  /** Time this thread spent generating and packing blocks. */
  generateMs: number;
}

/**
 * Sends packed blocks to the writers as the chain's attachment does: up to WRITE_WINDOW in flight,
 * each written by every writer. `blocks` may take its time to yield each one (generation).
 */
export async function writeWindowed(
  writers: WorkerWriter[],
  blocks: Iterable<PackedBlock>,
  onCommitted?: (block: PackedBlock) => void,
): Promise<void> {
  const inFlight: Promise<void>[] = [];
  for (const block of blocks) {
    if (inFlight.length >= WRITE_WINDOW) await inFlight.shift();
    const committed = Promise.all(writers.map((w) => w.writePacked(block))).then(() => onCommitted?.(block));
    committed.catch(() => {}); // observed in order below; a later failure met while an earlier block is awaited is not unhandled
    inFlight.push(committed);
  }
  await Promise.all(inFlight);
}

/**
 * Writes `transactions` synthetic transactions into each of `indexes` (the same blocks into every one:
 * generating them costs more than writing them), after what the first one already holds, through the
 * index's own render and store threads (the path a chain's blocks take).
 */
export async function seedIndexes(
  indexes: Index[],
  transactions: number,
  options: SeedOptions = {},
  sample?: SeedSample,
  progress?: (done: number) => void,
): Promise<SeedResult> {
  const perBlock = options.transactionsPerBlock ?? 500;
  const blocks = Math.ceil(transactions / perBlock);
  // An empty index answers -1: the synthetic chain starts at seqno 1 (its payments are numbered from there).
  const firstSeqno = options.firstSeqno ?? Math.max(1, (await indexes[0].reader.lastMasterchainSeqno()) + 1);
  const writers = indexes.map((index) => new WorkerWriter(index.location));
  let generateMs = 0;
  let written = 0;
  const generator = syntheticBlocks(blocks, { ...options, firstSeqno }, sample);
  function* packed(): Generator<PackedBlock> {
    for (;;) {
      const t0 = performance.now();
      const next = generator.next();
      const block = next.done ? undefined : packBlock(feedFromIndexed(next.value));
      generateMs += performance.now() - t0;
      if (!block) return;
      yield block;
    }
  }
  const started = performance.now();
  try {
    await writeWindowed(writers, packed(), (block) => {
      written += block.transactions.length;
      progress?.(written);
    });
  } finally {
    await Promise.all(writers.map((w) => w.close()));
  }
  return { transactions: written, blocks, wallMs: performance.now() - started, generateMs };
}

/** seedIndexes for one index. */
export async function seedIndex(
  index: Index,
  transactions: number,
  options: SeedOptions = {},
  sample?: SeedSample,
  progress?: (done: number) => void,
): Promise<SeedResult> {
  return seedIndexes([index], transactions, options, sample, progress);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transactions: { type: 'string', default: '1000000' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      schema: { type: 'string' },
      network: { type: 'string', default: 'bench' },
    },
  });
  const index = await openIndex({
    network: values.network!,
    dataDir: values['data-dir'],
    databaseUrl: values['database-url'],
    schema: values.schema,
  });
  const total = Number(values.transactions);
  const started = performance.now();
  const result = await seedIndex(index, total, {}, undefined, (done) => {
    if (done % 50_000 < 500) process.stdout.write(`\r${done} transactions, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  });
  console.log(
    `\n${result.transactions} transactions in ${result.blocks} blocks: ${(result.transactions / (result.wallMs / 1000)).toFixed(0)} tx/s (${(result.wallMs / 1000).toFixed(1)} s, of which generation ${(result.generateMs / 1000).toFixed(1)} s)`,
  );
  await index.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
