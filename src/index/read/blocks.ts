/**
 * The blocks table's queries. Order (toncenter's index): gen_utime, then masterchain first, shard, seqno, all in
 * the requested direction.
 */
import type { Block, BlockConsensus, BlockId } from '../../chain/types.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import type { SqlReads, SqlRow } from '../sql/driver.js';
import { bigint, bytes, int, MASTERCHAIN_SHARD_COLUMN, signedShard, text, unsignedShard } from '../sql/values.js';
import { orderSql, pageSql, Where } from '../sql/where.js';
import type { BlockFilter, Page, SortOrder } from '../types.js';

function blockOf(row: SqlRow): Block {
  const workchain = int(row.workchain);
  const seqno = int(row.seqno);
  const masterRef = row.master_ref_seqno === null || row.master_ref_seqno === undefined ? undefined : int(row.master_ref_seqno);
  const prev = JSON.parse(text(row.prev_blocks)) as [number, string, number, string, string][];
  const block: Block = {
    id: { workchain, shard: unsignedShard(row.shard), seqno, rootHash: bytes(row.root_hash), fileHash: bytes(row.file_hash) },
    globalId: int(row.global_id),
    version: int(row.version),
    genUtime: int(row.gen_utime),
    startLt: bigint(row.start_lt),
    endLt: bigint(row.end_lt),
    prevBlocks: prev.map(([w, s, n, r, f]): BlockId => ({
      workchain: w,
      shard: BigInt(s),
      seqno: n,
      rootHash: Buffer.from(r, 'base64'),
      fileHash: Buffer.from(f, 'base64'),
    })),
    stateRootHash: bytes(row.state_root_hash),
    randSeed: bytes(row.rand_seed),
    txCount: int(row.tx_count),
    isKeyBlock: int(row.key_block) !== 0,
    prevKeyBlockSeqno: int(row.prev_key_block_seqno),
    minRefMcSeqno: int(row.min_ref_mc_seqno),
  };
  if (row.consensus !== null && row.consensus !== undefined) {
    const c = JSON.parse(text(row.consensus)) as Omit<BlockConsensus, 'createdBy'> & { createdBy: string };
    block.consensus = { ...c, createdBy: Buffer.from(c.createdBy, 'base64') };
  }
  // Shard blocks are committed by a masterchain block; the ref is always the masterchain's whole shard.
  if (masterRef !== undefined) block.masterRef = { workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: masterRef };
  return block;
}

export class BlockReader {
  constructor(private readonly reads: SqlReads) {}

  /** The first and the last indexed masterchain blocks, or null before the first block is written. */
  async masterchainRange(): Promise<{ first: Block; last: Block } | null> {
    const query = (dir: string) => `SELECT * FROM blocks WHERE workchain = -1 AND shard = ? ORDER BY seqno ${dir} LIMIT 1`;
    // Asked together: one round trip to a reader thread, not two.
    const [[last], [first]] = await Promise.all([
      this.reads.all(query('DESC'), [MASTERCHAIN_SHARD_COLUMN]),
      this.reads.all(query('ASC'), [MASTERCHAIN_SHARD_COLUMN]),
    ]);
    if (!last || !first) return null;
    return { first: blockOf(first), last: blockOf(last) };
  }

  /** The newest indexed masterchain seqno, -1 when the index is empty. */
  async lastMasterchainSeqno(): Promise<number> {
    const [row] = await this.reads.all('SELECT seqno FROM blocks WHERE workchain = -1 AND shard = ? ORDER BY seqno DESC LIMIT 1', [
      MASTERCHAIN_SHARD_COLUMN,
    ]);
    return row ? int(row.seqno) : -1;
  }

  async masterchainBlockExists(seqno: number): Promise<boolean> {
    const rows = await this.reads.all('SELECT 1 AS found FROM blocks WHERE workchain = -1 AND shard = ? AND seqno = ?', [
      MASTERCHAIN_SHARD_COLUMN,
      seqno,
    ]);
    return rows.length > 0;
  }

  async blocks(filter: BlockFilter, sort: SortOrder, page: Page): Promise<Block[]> {
    const where = new Where()
      .add('workchain = ?', filter.workchain)
      .add('shard = ?', filter.shard === undefined ? undefined : signedShard(filter.shard))
      .add('seqno = ?', filter.seqno)
      .add('root_hash = ?', filter.rootHash)
      .add('file_hash = ?', filter.fileHash)
      .add('mc_seqno = ?', filter.mcSeqno)
      .between('gen_utime', filter.startUtime, filter.endUtime)
      // toncenter compares both lt bounds with the block's start_lt.
      .between('start_lt', filter.startLt, filter.endLt);
    const dir = orderSql(sort);
    const masterFirst = sort === 'asc' ? 'DESC' : 'ASC';
    const rows = await this.reads.all(
      `SELECT * FROM blocks ${where} ORDER BY gen_utime ${dir}, workchain ${masterFirst}, shard ${dir}, seqno ${dir} ${pageSql(page)}`,
      where.params,
    );
    return rows.map(blockOf);
  }

  /** The shard blocks a masterchain block commits (its shard state), in (workchain, shard) order. */
  async shardState(mcSeqno: number): Promise<Block[]> {
    const rows = await this.reads.all(
      `SELECT b.* FROM shard_state s JOIN blocks b ON b.workchain = s.workchain AND b.shard = s.shard AND b.seqno = s.seqno
       WHERE s.mc_seqno = ? ORDER BY b.workchain, b.shard, b.seqno`,
      [mcSeqno],
    );
    return rows.map(blockOf);
  }
}
