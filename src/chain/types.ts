/**
 * The Chain of one network, as the API layers see it. Implementations: chain/local (the embedded
 * chain). Later chain/lite (liteservers). Nothing here knows about HTTP or wire formats: values are
 * @ton/core objects, bigints and Buffers; api/ and ton/ turn them into toncenter's JSON.
 */
import type { Address, Cell, Transaction } from '@ton/core';

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
  /** Hash of the state after this block (see chain/local's README section on hashes). */
  stateRootHash: Buffer;
  randSeed: Buffer;
  txCount: number;
  isKeyBlock: boolean;
  prevKeyBlockSeqno: number;
  minRefMcSeqno: number;
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

export interface Chain extends NetworkIdentity {
  masterchainInfo(): MasterchainInfo;
}

export type { Address, Cell, Transaction };
