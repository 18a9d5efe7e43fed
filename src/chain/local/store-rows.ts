/**
 * The rows of the local chain's store: as the store answers them (its SQLite columns turned into numbers, bigints and
 * Buffers), and as one production step writes them (SealRecord).
 */

/** A public library as the store keeps it: one row per publishing masterchain account (libraries.ts). */
export interface LibraryRow {
  /** The publishing masterchain account's id. */
  account: Buffer;
  hash: Buffer;
  boc: Buffer;
}

/** Public libraries masterchain accounts published or dropped in one step. */
export interface LibraryChanges {
  set: LibraryRow[];
  dropped: Array<{ account: Buffer; hash: Buffer }>;
}

export interface BlockRow {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  mcSeqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  txCount: number;
  stateHash: Buffer;
  randSeed: Buffer;
  boc: Buffer;
}

export interface TxRow {
  hash: Buffer;
  workchain: number;
  account: Buffer;
  lt: bigint;
  now: number;
  blockSeqno: number;
  mcSeqno: number;
  inMsgHash: Buffer | null;
  boc: Buffer;
}

export interface MessageRow {
  hash: Buffer;
  kind: 'int' | 'ext_in' | 'ext_out';
  source: string | null;
  destination: string | null;
  createdLt: bigint | null;
  createdAt: number | null;
  opcode: number | null;
  bodyHash: Buffer;
  hashNorm: Buffer | null;
  outTxHash: Buffer | null;
  mcSeqno: number;
  boc: Buffer;
}

/** A transaction as written: its block and masterchain seqno are the step's (SealRecord.mcSeqno). */
export type TxWrite = Omit<TxRow, 'blockSeqno' | 'mcSeqno'>;

/** A message as written: its masterchain seqno is the step's. */
export type MessageWrite = Omit<MessageRow, 'mcSeqno'>;

export interface AccountStateWrite {
  workchain: number;
  account: Buffer;
  /** ShardAccount BoC, raw or base64 (decoded inside the sliced write, not before it). */
  boc: Buffer | string;
}

export interface PendingRow {
  hash: Buffer;
  createdLt: bigint;
  boc: Buffer;
}

/**
 * Everything one production step commits at once. The arrays are read, not copied: the producer
 * hands over the records it built while executing, so sealing a 10,000-transaction block does not
 * start with a long synchronous copy.
 */
export interface SealRecord {
  /** The step's masterchain seqno: also the seqno of its shard block. */
  mcSeqno: number;
  blocks: BlockRow[];
  transactions: readonly TxWrite[];
  messages: readonly MessageWrite[];
  /** ShardAccounts of the accounts this step changed, stored under mcSeqno. */
  accountStates: readonly AccountStateWrite[];
  /** Internal messages created now that are still undelivered. */
  pendingAdded: readonly PendingRow[];
  /** Earlier pending messages delivered now. */
  pendingDelivered: readonly Buffer[];
  /** Public libraries masterchain accounts published or dropped in this step. */
  libraries?: LibraryChanges;
}

export interface RawBlockRow {
  workchain: bigint;
  shard: bigint;
  seqno: bigint;
  root_hash: Buffer;
  file_hash: Buffer;
  mc_seqno: bigint;
  gen_utime: bigint;
  start_lt: bigint;
  end_lt: bigint;
  tx_count: bigint;
  state_hash: Buffer;
  rand_seed: Buffer;
  boc: Buffer;
}

export interface RawTxRow {
  hash: Buffer;
  workchain: bigint;
  account: Buffer;
  lt: bigint;
  now: bigint;
  block_seqno: bigint;
  mc_seqno: bigint;
  in_msg_hash: Buffer | null;
  boc: Buffer;
}

export interface RawMessageRow {
  hash: Buffer;
  kind: 'int' | 'ext_in' | 'ext_out';
  source: string | null;
  destination: string | null;
  created_lt: bigint | null;
  created_at: bigint | null;
  opcode: bigint | null;
  body_hash: Buffer;
  hash_norm: Buffer | null;
  out_tx_hash: Buffer | null;
  mc_seqno: bigint;
  boc: Buffer;
}

export const toBlockRow = (r: RawBlockRow): BlockRow => ({
  workchain: Number(r.workchain),
  shard: BigInt.asUintN(64, r.shard),
  seqno: Number(r.seqno),
  rootHash: r.root_hash,
  fileHash: r.file_hash,
  mcSeqno: Number(r.mc_seqno),
  genUtime: Number(r.gen_utime),
  startLt: r.start_lt,
  endLt: r.end_lt,
  txCount: Number(r.tx_count),
  stateHash: r.state_hash,
  randSeed: r.rand_seed,
  boc: r.boc,
});

export const toTxRow = (r: RawTxRow): TxRow => ({
  hash: r.hash,
  workchain: Number(r.workchain),
  account: r.account,
  lt: r.lt,
  now: Number(r.now),
  blockSeqno: Number(r.block_seqno),
  mcSeqno: Number(r.mc_seqno),
  inMsgHash: r.in_msg_hash,
  boc: r.boc,
});

export const toMessageRow = (r: RawMessageRow): MessageRow => ({
  hash: r.hash,
  kind: r.kind,
  source: r.source,
  destination: r.destination,
  createdLt: r.created_lt,
  createdAt: r.created_at === null ? null : Number(r.created_at),
  opcode: r.opcode === null ? null : Number(r.opcode),
  bodyHash: r.body_hash,
  hashNorm: r.hash_norm,
  outTxHash: r.out_tx_hash,
  mcSeqno: Number(r.mc_seqno),
  boc: r.boc,
});
