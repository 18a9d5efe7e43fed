/**
 * PREVBLOCKSINFO, the c7 entry contracts read with PREVMCBLOCKS/PREVKEYBLOCK: the ids of the last 16
 * masterchain blocks and of the last key block (a local chain's is always its zero state), as one VM stack value.
 * Serializing it with @ton/core costs ~2-4 ms, so it is built at most once per sealed block, on first use
 * (chain/local: ChainHead.prevBlocksInfo; chain/lite: kept per block), and reused by every transaction and
 * get-method of the next block.
 */
import { serializeTuple, type TupleItem } from '@ton/core';
import type { BlockId } from '../types.js';

export const PREV_MC_BLOCKS = 16;

function blockIdTuple(id: BlockId): TupleItem {
  return {
    type: 'tuple',
    items: [
      { type: 'int', value: BigInt(id.workchain) },
      { type: 'int', value: id.shard }, // unsigned, as the validator writes it
      { type: 'int', value: BigInt(id.seqno) },
      { type: 'int', value: BigInt(`0x${id.rootHash.toString('hex')}`) },
      { type: 'int', value: BigInt(`0x${id.fileHash.toString('hex')}`) },
    ],
  };
}

/**
 * @param lastMcBlocks newest first, at most 16
 * @returns the stack value's BoC, base64, as the emulator's `prev_blocks_info` parameter
 */
export function serializePrevBlocksInfo(lastMcBlocks: BlockId[], prevKeyBlock: BlockId): string {
  const value: TupleItem = { type: 'tuple', items: [{ type: 'tuple', items: lastMcBlocks.map(blockIdTuple) }, blockIdTuple(prevKeyBlock)] };
  // serializeTuple writes a whole VmStack (depth:24, then the list's "rest" ref before the value);
  // the emulator wants the bare value, so skip both.
  const stack = serializeTuple([value]).beginParse();
  stack.skip(24);
  stack.loadRef();
  return stack.asCell().toBoc().toString('base64');
}
