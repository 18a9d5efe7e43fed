/** Blocks in v2's tonlib shapes: `ton.blockIdExt` (shard as a signed decimal string, hashes base64). */
import type { BlockId } from '../../../chain/types.js';
import { shardToSignedDecimal } from '../../../ton/block-id.js';

export function blockIdExtJson(id: BlockId): Record<string, unknown> {
  return {
    '@type': 'ton.blockIdExt',
    workchain: id.workchain,
    shard: shardToSignedDecimal(id.shard),
    seqno: id.seqno,
    root_hash: id.rootHash.toString('base64'),
    file_hash: id.fileHash.toString('base64'),
  };
}
