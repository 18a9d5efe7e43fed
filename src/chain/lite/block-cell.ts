/**
 * Reads a TON block (TL-B `Block`, block.tlb) from its root cell: the header (BlockInfo), the state update's
 * hashes, the random seed, the transactions of every account, and for masterchain blocks the shard blocks they
 * commit. @ton/core reads transactions and dictionaries but not blocks; this is the rest, field by field as
 * block.tlb writes them. Only what tongate serves is kept.
 */
import { Cell, Dictionary, type Slice } from '@ton/core';
import { WHOLE_SHARD } from '../../ton/workchain.js';
import { LiteDataError } from './errors.js';

const BLOCK_TAG = 0x11ef55aa;
const BLOCK_INFO_TAG = 0x9bc7a987;
const BLOCK_EXTRA_TAG = 0x4a33f6fd;
const MC_BLOCK_EXTRA_TAG = 0xcca5;

export interface ExtBlockRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface BlockShardRef {
  workchain: number;
  shard: bigint;
}

export interface ParsedBlock {
  globalId: number;
  version: number;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqno: number;
  vertSeqno: number;
  workchain: number;
  shard: bigint;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  validatorListHashShort: number;
  catchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  /** Shard blocks: the masterchain block they refer to. */
  masterRef?: ExtBlockRef;
  /** The previous block(s) with their shards (two after a merge). */
  prev: Array<ExtBlockRef & BlockShardRef>;
  /** Hash of the shard state after this block (new_hash of the state update). */
  stateHash: Buffer;
  randSeed: Buffer;
  /** The validator that collated the block (its public key; zero when not recorded). */
  createdBy: Buffer;
  /** Every transaction, in (account, lt) order as a liteserver lists them. */
  transactions: Array<{ account: Buffer; lt: bigint; cell: Cell }>;
  /** Masterchain blocks: the newest block of every shard, as this block commits them. */
  shards?: ShardDescr[];
}

export interface ShardDescr extends BlockShardRef {
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
}

/** The shard a block split from. */
export function parentShard(shard: bigint): bigint {
  const low = shard & -shard;
  return BigInt.asUintN(64, (shard - low) | (low << 1n));
}

export function childShards(shard: bigint): [bigint, bigint] {
  const half = (shard & -shard) >> 1n;
  return [shard - half, shard + half];
}

export function parseBlock(root: Cell): ParsedBlock {
  try {
    return readBlock(root);
  } catch (err) {
    if (err instanceof LiteDataError) throw err;
    throw new LiteDataError(`not a readable block: ${(err as Error).message}`);
  }
}

function readBlock(root: Cell): ParsedBlock {
  const s = root.beginParse();
  if (s.loadUint(32) !== BLOCK_TAG) throw new LiteDataError('not a block (bad tag)');
  const globalId = s.loadInt(32);
  const info = readInfo(s.loadRef());
  s.loadRef(); // value_flow
  const stateHash = readMerkleUpdateNewHash(s.loadRef());
  const extra = readExtra(s.loadRef(), info.workchain === -1);
  return { globalId, ...info, stateHash, ...extra };
}

function readInfo(cell: Cell) {
  const s = cell.beginParse();
  const fields = readInfoFields(s);
  const { notMaster, afterMerge, afterSplit, workchain, shard } = fields;
  const masterRef = notMaster ? readExtRef(s.loadRef().beginParse()) : undefined;
  const prevCell = s.loadRef().beginParse();
  let prev: ParsedBlock['prev'];
  if (afterMerge) {
    const [left, right] = childShards(shard);
    prev = [
      { ...readExtRef(prevCell.loadRef().beginParse()), workchain, shard: left },
      { ...readExtRef(prevCell.loadRef().beginParse()), workchain, shard: right },
    ];
  } else {
    prev = [{ ...readExtRef(prevCell), workchain, shard: afterSplit ? parentShard(shard) : shard }];
  }
  return { ...fields, masterRef, prev };
}

export type BlockInfoFields = ReturnType<typeof readInfoFields>;

/**
 * The header of a block whose cells may be pruned (a Merkle proof of it): global_id and the BlockInfo fields,
 * without opening any reference (the master and previous block refs may be pruned branches in a proof).
 */
export function readProvenHeader(root: Cell): BlockInfoFields & { globalId: number } {
  try {
    const s = root.beginParse();
    if (s.loadUint(32) !== BLOCK_TAG) throw new LiteDataError('not a block (bad tag)');
    const globalId = s.loadInt(32);
    const info = s.loadRef();
    if (info.isExotic) throw new LiteDataError('the block header is pruned from the proof');
    return { globalId, ...readInfoFields(info.beginParse()) };
  } catch (err) {
    if (err instanceof LiteDataError) throw err;
    throw new LiteDataError(`not a readable block header: ${(err as Error).message}`);
  }
}

/** BlockInfo up to its references (gen_software included when flagged). */
function readInfoFields(s: Slice) {
  if (s.loadUint(32) !== BLOCK_INFO_TAG) throw new LiteDataError('not a block header (bad tag)');
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const keyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  const flags = s.loadUint(8);
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  // shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64
  s.loadUint(2);
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  const shard = BigInt.asUintN(64, prefix | (1n << BigInt(63 - pfxBits)));
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const validatorListHashShort = s.loadUint(32);
  const catchainSeqno = s.loadUint(32);
  const minRefMcSeqno = s.loadUint(32);
  const prevKeyBlockSeqno = s.loadUint(32);
  if (flags & 1) s.skip(8 + 32 + 64); // gen_software: capabilities#c4 version:uint32 capabilities:uint64
  return {
    notMaster,
    vertSeqnoIncr,
    version,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    flags,
    seqno,
    vertSeqno,
    workchain,
    shard,
    genUtime,
    startLt,
    endLt,
    validatorListHashShort,
    catchainSeqno,
    minRefMcSeqno,
    prevKeyBlockSeqno,
  };
}

function readExtRef(s: Slice): ExtBlockRef {
  return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
}

/** merkle_update#04 old_hash:bits256 new_hash:bits256 ...: an exotic cell, read as raw bits. */
export function readMerkleUpdateNewHash(cell: Cell): Buffer {
  const s = cell.beginParse(true);
  if (s.loadUint(8) !== 4) throw new LiteDataError('state_update is not a Merkle update');
  s.skip(256);
  return s.loadBuffer(32);
}

function readExtra(cell: Cell, masterchain: boolean) {
  const s = cell.beginParse();
  if (s.loadUint(32) !== BLOCK_EXTRA_TAG) throw new LiteDataError('not a block extra (bad tag)');
  s.loadRef(); // in_msg_descr
  s.loadRef(); // out_msg_descr
  const accountBlocks = s.loadRef();
  const randSeed = s.loadBuffer(32);
  const createdBy = s.loadBuffer(32);
  const custom = s.loadMaybeRef();
  const transactions = readAccountBlocks(accountBlocks);
  const shards = masterchain && custom ? readMcExtraShards(custom) : undefined;
  return { randSeed, createdBy, transactions, shards };
}

/** ShardAccountBlocks = HashmapAugE 256 AccountBlock CurrencyCollection. */
function readAccountBlocks(cell: Cell): ParsedBlock['transactions'] {
  const out: ParsedBlock['transactions'] = [];
  const accounts = Dictionary.load(Dictionary.Keys.BigUint(256), augmented(readAccountBlock), cell.beginParse());
  const keys = [...accounts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const block = accounts.get(key)!;
    for (const tx of block.transactions) out.push({ account: block.account, lt: tx.lt, cell: tx.cell });
  }
  return out;
}

/** acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection) state_update:^(HASH_UPDATE Account) */
function readAccountBlock(s: Slice): { account: Buffer; transactions: Array<{ lt: bigint; cell: Cell }> } {
  if (s.loadUint(4) !== 5) throw new LiteDataError('not an account block (bad tag)');
  const account = s.loadBuffer(32);
  const txs = Dictionary.loadDirect(
    Dictionary.Keys.BigUint(64),
    augmented((v) => v.loadRef()),
    s,
  );
  const transactions = [...txs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((lt) => ({ lt, cell: txs.get(lt)! }));
  return { account, transactions };
}

/** A value of an augmented dictionary: the extra (a CurrencyCollection here) comes first and is skipped. */
function augmented<V>(read: (s: Slice) => V) {
  return {
    serialize: () => {
      throw new Error('read only');
    },
    parse: (s: Slice): V => {
      s.loadCoins();
      s.loadMaybeRef(); // extra currencies
      return read(s);
    },
  };
}

/** masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes ... */
function readMcExtraShards(cell: Cell): ShardDescr[] {
  const s = cell.beginParse();
  if (s.loadUint(16) !== MC_BLOCK_EXTRA_TAG) throw new LiteDataError('not a masterchain block extra (bad tag)');
  s.loadBit();
  return readShardHashes(s);
}

/** ShardHashes = HashmapE 32 ^(BinTree ShardDescr): every workchain's shard tree. */
export function readShardHashes(s: Slice): ShardDescr[] {
  const out: ShardDescr[] = [];
  const workchains = Dictionary.load(Dictionary.Keys.Int(32), { serialize: () => undefined, parse: (v: Slice) => v.loadRef() }, s);
  for (const [workchain, tree] of workchains) readBinTree(tree.beginParse(), workchain, WHOLE_SHARD, out);
  return out;
}

function readBinTree(s: Slice, workchain: number, shard: bigint, out: ShardDescr[]): void {
  if (s.loadBit()) {
    const [left, right] = childShards(shard);
    readBinTree(s.loadRef().beginParse(), workchain, left, out);
    readBinTree(s.loadRef().beginParse(), workchain, right, out);
    return;
  }
  const tag = s.loadUint(4);
  if (tag !== 0xa && tag !== 0xb) throw new LiteDataError(`not a shard description (tag ${tag})`);
  const seqno = s.loadUint(32);
  s.loadUint(32); // reg_mc_seqno
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const rootHash = s.loadBuffer(32);
  const fileHash = s.loadBuffer(32);
  s.skip(5 + 3 + 32 + 64 + 32); // split/merge flags, flags, next_catchain_seqno, next_validator_shard, min_ref_mc_seqno
  const genUtime = s.loadUint(32);
  out.push({ workchain, shard, seqno, rootHash, fileHash, startLt, endLt, genUtime });
}
