/**
 * The Chain of one network, as the API layers see it. Implementations: chain/local (the embedded
 * chain) and chain/lite (TON liteservers). Nothing here knows about HTTP or wire formats: values are
 * @ton/core objects, bigints and Buffers; api/ and ton/ turn them into toncenter's JSON.
 *
 * Reads return `MaybePromise`: the local chain answers store reads synchronously (SQLite) and
 * emulator reads (runGetMethod, emulateExternal) with promises (the emulator runs in worker threads);
 * a network backend will answer everything with promises. Callers `await` either.
 */
import type { Address, Cell, Message, Transaction, TupleItem } from '@ton/core';
import type { ExecutedTx } from './executed-tx.js';

export type MaybePromise<T> = T | Promise<T>;

/** A block's place: workchain, shard (unsigned 64-bit prefix, 0x8000000000000000n for the whole chain), seqno. */
export interface BlockRef {
  workchain: number;
  shard: bigint;
  seqno: number;
}

export interface BlockId extends BlockRef {
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface Block {
  id: BlockId;
  globalId: number;
  version: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  /** The block(s) this one follows in its own chain (empty for the zero state). */
  prevBlocks: BlockId[];
  /** Shard blocks: the masterchain block that commits this one. */
  masterRef?: BlockRef;
  /** Masterchain blocks: the shard blocks they commit. */
  shardBlocks?: BlockId[];
  /** Hash of the state after this block (chain/local/block-cell.ts says what is hashed). */
  stateRootHash: Buffer;
  randSeed: Buffer;
  txCount: number;
  isKeyBlock: boolean;
  prevKeyBlockSeqno: number;
  minRefMcSeqno: number;
  /** What a validator network's header says and a local chain does not have (chain/lite fills it). */
  consensus?: BlockConsensus;
}

export interface BlockConsensus {
  flags: number;
  afterMerge: boolean;
  afterSplit: boolean;
  beforeSplit: boolean;
  wantMerge: boolean;
  wantSplit: boolean;
  validatorListHashShort: number;
  catchainSeqno: number;
  vertSeqno: number;
  vertSeqnoIncr: boolean;
  /** The collating validator's public key, as the block extra records it. */
  createdBy: Buffer;
}

export interface MasterchainInfo {
  /** The newest sealed masterchain block: everything it reports is on disk. */
  last: Block;
  /** The first masterchain block (the zero state, seqno 0). */
  first: Block;
  stateRootHash: Buffer;
}

/** Network identity: global_id -239 on mainnet, -3 on testnet (config param 19 agrees). */
export interface NetworkIdentity {
  name: string;
  globalId: number;
}

export type AccountStatus = 'active' | 'uninit' | 'frozen' | 'nonexist';

export interface ExtraCurrency {
  id: number;
  amount: bigint;
}

/** An account as of one masterchain block. */
export interface AccountState {
  address: Address;
  balance: bigint;
  extraCurrencies: ExtraCurrency[];
  state: AccountStatus;
  code?: Cell;
  data?: Cell;
  frozenHash?: Buffer;
  /** lt and hash of the account's last transaction (0 and 32 zero bytes when it has none). */
  lastTxLt: bigint;
  lastTxHash: Buffer;
  /** The raw ShardAccount cell (account_none for 'nonexist'). */
  shardAccount: Cell;
  /** The masterchain block the state is read at. */
  block: BlockId;
  /** That block's gen_utime. */
  syncUtime: number;
}

/** A transaction with its place in the chain. `tx` is parsed on first access. */
export interface ChainTransaction {
  readonly tx: Transaction;
  cell: Cell;
  hash: Buffer;
  account: Address;
  lt: bigint;
  now: number;
  /** The (shard) block that holds it. */
  block: BlockRef;
  /** The masterchain block that commits that block. */
  mcSeqno: number;
}

export type MessageKind = 'int' | 'ext_in' | 'ext_out';

export interface ChainMessage {
  hash: Buffer;
  /** TEP-467 normalized hash (external-in messages only). */
  hashNorm?: Buffer;
  kind: MessageKind;
  cell: Cell;
  source: Address | null;
  destination: Address | null;
  createdLt: bigint | null;
  createdAt: number | null;
  /** First 32 bits of the body, when it has that many. */
  opcode: number | null;
  bodyHash: Buffer;
  /** The transaction that sent it (none for external-in). */
  outTxHash?: Buffer;
  mcSeqno: number;
}

/** Pages an account's transactions, newest first. */
export interface TransactionQuery {
  /** Start at this transaction (inclusive); the account's last one when omitted. */
  lt?: bigint;
  /** When given with lt, the transaction at lt must have this hash. */
  hash?: Buffer;
  /** Stop before reaching this lt (exclusive: transactions with lt <= toLt are not returned). */
  toLt?: bigint;
  limit: number;
}

/** Pages a block's transactions in (account, lt) order, as a liteserver lists them. */
export interface BlockTransactionQuery {
  /** Continue after this (account, lt). */
  afterAccount?: Buffer;
  afterLt?: bigint;
  count: number;
}

export interface BlockTransactions {
  transactions: ChainTransaction[];
  /** More transactions follow in this block. */
  incomplete: boolean;
}

/** Block lookup by exactly one of seqno, lt (the block whose lt range reaches lt) or utime (the newest block at or before it). */
export interface BlockLookup {
  workchain: number;
  shard: bigint;
  seqno?: number;
  lt?: bigint;
  utime?: number;
}

export interface GetMethodResult {
  /** TVM exit code: 0/1 success; anything else is still a result (-13: account not active). */
  exitCode: number;
  gasUsed: bigint;
  /** The raw VmStack cell: the API layer parses it (it may hold continuations @ton/core cannot read). */
  stackBoc: Cell;
  /**
   * The same stack as the chain got it (a local chain: the emulator's BoC, base64), when it has it: a relay that only
   * passes the stack on (the index's get-method relay) sends this instead of serializing `stackBoc` again, and a
   * local chain then parses `stackBoc` only when it is read.
   */
  stackBase64?: string;
  block: BlockId;
  lastTxLt: bigint;
  lastTxHash: Buffer;
}

export interface SentMessage {
  hash: Buffer;
  hashNorm: Buffer;
}

export type ExternalToEmulate = Buffer | { address: Address; body: Cell; initCode?: Cell; initData?: Cell };

export interface EmulationFees {
  /** Import fee of the external message. */
  inFwdFee: bigint;
  storageFee: bigint;
  gasFee: bigint;
  /** Forwarding fees of the messages it sends. */
  fwdFee: bigint;
  total: bigint;
}

export interface EmulationResult {
  /** Whether the contract accepted the message. When false, `error` (and `exitCode`) say why. */
  accepted: boolean;
  error?: string;
  exitCode?: number;
  fees: EmulationFees;
  /** The emulated transaction (accepted only). */
  tx?: Transaction;
}

/** A whole trace emulated from one external message (Chain.emulateTrace, chain/trace-emulation.ts). */
export interface TraceBounds {
  maxTransactions?: number;
  maxDepth?: number;
}

export interface EmulatedTransaction extends ExecutedTx {
  /** The account's ShardAccount (BoC, base64) before this transaction. */
  shardAccountBefore: string;
  /** 0 for the root (the external's transaction), its parent's depth + 1 below. */
  depth: number;
}

/**
 * The accounts a trace reached as it left them, and get-methods run on those states: what token contracts are
 * detected on before a block holds the trace (src/index/actions/state-contracts.ts: an emulated trace, a pending one).
 */
export interface TraceStates {
  /** The masterchain block the states stand on. */
  mcSeqno: number;
  /** A get-method on an account as the trace left it (one it did not reach: as the chain has it), e.g. to detect token contracts. */
  runGetMethod(address: Address, method: string, stack: TupleItem[]): Promise<GetMethodResult>;
  /** The ShardAccount (BoC, base64) of each account the trace reached, as it left it, by raw address. */
  states: ReadonlyMap<string, string>;
}

export interface EmulatedTrace extends TraceStates {
  randSeed: Buffer;
  /** In the order they ran; the first is the root. */
  transactions: EmulatedTransaction[];
  /** Cut at the bounds: some messages were left undelivered (toncenter's `is_incomplete`). */
  incomplete: boolean;
}

/** How a trace is emulated (Chain.emulateTrace). */
export interface TraceEmulationOptions extends TraceBounds {
  /** Run the external's transaction without checking its signature (an unsigned preview). */
  ignoreChksig?: boolean;
  /** On the state of this masterchain block; the last one when omitted. */
  mcSeqno?: number;
}

export interface Library {
  hash: Buffer;
  cell: Cell;
}

/**
 * A transaction applied to a block not yet sealed (a local chain executes an external message when it accepts it,
 * and the internal messages that follow as the open block is built): what the pending layer (src/pending) follows.
 */
export interface OpenBlockTransaction {
  cell: Cell;
  /** The cell's BoC when the chain has it (the emulator's): passed to another thread without serializing again. */
  boc?: Buffer;
  hash: Buffer;
  account: Address;
  lt: bigint;
  now: number;
  inMsg: { cell: Cell; hash: Buffer; message: Message } | null;
  outMsgs: { cell: Cell; hash: Buffer; message: Message }[];
  /**
   * The account's ShardAccount after it (BoC, base64), as the emulator returned it: what the pending layer detects
   * a token contract the trace deploys on (the chain holds it anyway: no copy is made for it).
   */
  shardAccount: string;
}

/** Everything one production step sealed: what an indexer consumes. */
export interface SealedBlock {
  masterchain: Block;
  shard: Block;
  transactions: ChainTransaction[];
  messages: ChainMessage[];
  accountStates: Array<{ address: Address; shardAccount: Cell }>;
}

/** Validator signatures of a masterchain block (chain/lite: checked against the validator set before relayed). */
export interface BlockSignatures {
  block: BlockId;
  signatures: { nodeIdShort: Buffer; signature: Buffer }[];
  /** Signed by the Simplex consensus: what the signatures cover besides the block (tonlib's blocks.blockSignatures.simplex). */
  simplex?: { sessionId: Buffer; slot: number; candidate: Buffer };
}

/** How a shard block is tied to the masterchain, as a liteserver proves it (BoCs of Merkle proofs). */
export interface ShardBlockProof {
  /** The masterchain block the proof starts from. */
  from: BlockId;
  /** The masterchain block that first records the shard block. */
  mcId: BlockId;
  /** From mcId down to the shard block: each link names the next block and proves it from the one before. */
  links: { id: BlockId; proof: Buffer }[];
  /** When mcId is not `from`: the backward link from `from` to mcId. */
  mcProof: { toKeyBlock: boolean; from: BlockId; to: BlockId; destProof: Buffer; proof: Buffer; stateProof: Buffer }[];
}

/** How a get-method is to be run (what a chain cannot honour, it ignores). */
export interface GetMethodOptions {
  /**
   * The thread priority (a nice value) of work nobody waits on, such as the index's token detection: it yields
   * to the chain's own work and to answers somebody waits for. A chain that emulates get-methods (local, lite)
   * runs them on an emulator worker of that priority; one that asks a server ignores it.
   */
  nice?: number;
}

export interface Chain extends NetworkIdentity {
  masterchainInfo(): MasterchainInfo;
  getBlock(ref: BlockRef): MaybePromise<Block | undefined>;
  lookupBlock(query: BlockLookup): MaybePromise<Block | undefined>;
  /** The shard blocks committed by a masterchain block. */
  shardsAt(mcSeqno: number): MaybePromise<BlockId[]>;
  /** As of the last sealed block, or of masterchain block `mcSeqno`. */
  getAccount(address: Address, mcSeqno?: number): MaybePromise<AccountState>;
  getTransactions(address: Address, query: TransactionQuery): MaybePromise<ChainTransaction[]>;
  getTransaction(hash: Buffer): MaybePromise<ChainTransaction | undefined>;
  /** Transactions that received the message, then the one that sent it. */
  getTransactionsByMessage(msgHash: Buffer): MaybePromise<ChainTransaction[]>;
  /** By hash, or by TEP-467 normalized hash. */
  getMessage(hash: Buffer): MaybePromise<ChainMessage | undefined>;
  blockTransactions(ref: BlockRef, query: BlockTransactionQuery): MaybePromise<BlockTransactions>;
  runGetMethod(
    address: Address,
    method: string | number,
    stack: TupleItem[],
    mcSeqno?: number,
    options?: GetMethodOptions,
  ): MaybePromise<GetMethodResult>;
  /**
   * Chains that emulate get-methods (local, lite): a get-method on an account state the caller holds (a ShardAccount
   * BoC, base64: an account as a pending trace left it), at the last block, as runGetMethod runs it on the chain's.
   */
  runGetMethodOnState?(address: Address, shardAccount: string, method: string, stack: TupleItem[]): Promise<GetMethodResult>;
  /** Parses, pre-checks and accepts an external message (throws when refused). */
  sendExternal(boc: Buffer): Promise<SentMessage>;
  /** Emulates an external message on the visible state without changing anything (estimateFee). */
  emulateExternal(message: ExternalToEmulate, options?: { ignoreChksig?: boolean }): MaybePromise<EmulationResult>;
  /**
   * Emulates the whole trace of an external message (BoC) on the current state, changing nothing: the external's
   * transaction and every one its messages cause (trace-emulation.ts). Throws BadMessage for a BoC that is no
   * external message, ExternalNotAccepted when its contract refuses it.
   */
  emulateTrace(boc: Buffer, options?: TraceEmulationOptions): Promise<EmulatedTrace>;
  /**
   * The blockchain config cell (the dictionary root): the last block's, or as of masterchain block `mcSeqno` where
   * the chain keeps its history (a local chain reads it from its config contract's state then; others answer the
   * last one).
   */
  config(mcSeqno?: number): MaybePromise<Cell>;
  libraries(hashes: Buffer[]): MaybePromise<Library[]>;
  /**
   * Networks of validators (chain/lite): calls `listener` with each external message a liteserver accepted from this
   * process (sendExternal), after it accepted it: what a pending layer emulates (a local chain reports the
   * transactions it executes instead: onOpenTransaction).
   */
  onSentExternal?(listener: (boc: Buffer, sent: SentMessage) => void): () => void;
  /** Networks of validators (chain/lite): calls `listener` with each new masterchain seqno, once its block is fetched. */
  onHead?(listener: (seqno: number) => void): () => void;
  /** Chains that build blocks themselves (chain/local): calls `listener` with each transaction of the open block as it is applied. */
  onOpenTransaction?(listener: (tx: OpenBlockTransaction) => void): () => void;
  /** Calls `listener` after every sealed block; returns the unsubscribe function. */
  onBlock(listener: (block: SealedBlock) => void): () => void;
  /**
   * Local chains: calls `listener` when a snapshot restore (or import) dropped the blocks after `seqno`: the
   * seqnos after it will name other blocks. The restore answers once a promise returned is settled.
   */
  onRewind?(listener: (rewind: ChainRewind) => unknown): () => void;
  /** Networks of validators (chain/lite): the signatures of masterchain block `seqno`. A local chain has none. */
  blockSignatures?(seqno: number): Promise<BlockSignatures>;
  /** Networks of validators (chain/lite): the proof tying a block to the masterchain (from the head, or `fromSeqno`). */
  shardBlockProof?(ref: BlockRef, fromSeqno?: number): Promise<ShardBlockProof>;
}

/** The chain went back to masterchain block `seqno` (-1: it was replaced whole, by an import). */
export interface ChainRewind {
  seqno: number;
  /** The accounts changed after `seqno`, with their ShardAccount BoC as of it (null: none then). */
  accounts: { address: Address; shardAccount: Buffer | null }[];
}

export type { Address, Cell, Transaction, TupleItem };
