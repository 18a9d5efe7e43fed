/**
 * Merkle proofs a liteserver sends, checked before anything in them is believed (what tonlib checks for the
 * same answers). A proof is a Merkle-proof cell whose child, with pruned branches standing for what was left
 * out, has the same hash as the original tree: the hash ties what is inside to a block or state hash we already
 * trust. Anything that does not check out is a LiteDataError (the pool then asks another server).
 */
import { beginCell, Cell, CellType } from '@ton/core';
import { withPrunedBranchFix } from '../../ton/core-pruned-branch.js';
import { readMerkleUpdateNewHash } from './block-cell.js';
import { LiteDataError } from './errors.js';
import { hashmapLookup, open } from './block-proofs/dict-path.js';

const SHARD_STATE_TAG = 0x9023afe2;
const ACCOUNT_NONE = beginCell().storeBit(false).endCell();

/** The tree a Merkle proof stands for, checked to hash to `expected`. */
export function provenRoot(proof: Cell, expected: Buffer, what: string): Cell {
  if (proof.type !== CellType.MerkleProof) throw new LiteDataError(`${what}: not a Merkle proof`);
  const root = proof.refs[0];
  if (!root.hash(0).equals(expected)) throw new LiteDataError(`${what}: proof is of another tree than ${expected.toString('hex')}`);
  return root;
}

export interface ProvenAccount {
  /** ShardAccount: the account cell, its last transaction's hash and lt, as the state stores them. */
  shardAccount: Cell;
  lastTxLt: bigint;
  lastTxHash: Buffer;
}

/**
 * liteServer.getAccountState: `proof` holds two roots, the shard block (its header and state update) and the
 * shard state after it (the path to the account). Checked: the block proof hashes to the shard block's root hash;
 * the state proof hashes to that block's new state hash; the account's entry in the state's account dictionary
 * holds a cell with the hash of `state` (or there is no entry and `state` is empty). What is *not* checked here is
 * that the shard block belongs to the masterchain block: the caller compares it with the shards that masterchain
 * block commits.
 */
export function proveAccount(proofBoc: Buffer, stateBoc: Buffer, shardBlockRootHash: Buffer, accountId: Buffer): ProvenAccount {
  let roots: Cell[];
  try {
    roots = withPrunedBranchFix(() => Cell.fromBoc(proofBoc));
  } catch (err) {
    throw new LiteDataError(`account proof: not a bag of cells (${(err as Error).message})`);
  }
  if (roots.length !== 2) throw new LiteDataError(`account proof: expected 2 roots, got ${roots.length}`);
  try {
    const block = provenRoot(roots[0], shardBlockRootHash, 'account proof (block)');
    const stateHash = readMerkleUpdateNewHash(block.refs[2]);
    const state = provenRoot(roots[1], stateHash, 'account proof (state)');
    const entry = findShardAccount(state, accountId);
    const accountCell = stateBoc.length === 0 ? null : Cell.fromBoc(stateBoc)[0];
    if (!entry) {
      if (accountCell && !accountCell.hash().equals(ACCOUNT_NONE.hash()))
        throw new LiteDataError('account proof: the state has no such account, but an account was sent');
      return { shardAccount: shardAccountCell(ACCOUNT_NONE, Buffer.alloc(32), 0n), lastTxLt: 0n, lastTxHash: Buffer.alloc(32) };
    }
    const account = accountCell ?? ACCOUNT_NONE;
    if (!account.hash().equals(entry.accountHash)) throw new LiteDataError('account proof: the account sent is not the one in the state');
    return {
      shardAccount: shardAccountCell(account, entry.lastTxHash, entry.lastTxLt),
      lastTxLt: entry.lastTxLt,
      lastTxHash: entry.lastTxHash,
    };
  } catch (err) {
    if (err instanceof LiteDataError) throw err;
    throw new LiteDataError(`account proof: unreadable (${(err as Error).message})`);
  }
}

function shardAccountCell(account: Cell, lastTxHash: Buffer, lastTxLt: bigint): Cell {
  return beginCell().storeRef(account).storeBuffer(lastTxHash).storeUint(lastTxLt, 64).endCell();
}

/** The ShardAccount entry of `accountId` in a (proven) ShardStateUnsplit, or undefined when there is none. */
function findShardAccount(state: Cell, accountId: Buffer): { accountHash: Buffer; lastTxHash: Buffer; lastTxLt: bigint } | undefined {
  const s = open(state, 'account proof: shard state');
  if (s.loadUint(32) !== SHARD_STATE_TAG) throw new LiteDataError('account proof: not a shard state');
  // global_id, shard_ident (2+6+32+64), seq_no, vert_seq_no, gen_utime, gen_lt, min_ref_mc_seqno
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef(); // out_msg_queue_info
  s.loadBit(); // before_split
  const accounts = open(s.loadRef(), 'account proof: accounts');
  if (!accounts.loadBit()) return undefined; // empty dictionary
  const node = hashmapLookup(accounts.loadRef(), BigInt(`0x${accountId.toString('hex')}`), 256, 'account proof: accounts');
  if (!node) return undefined;
  // Leaf: extra DepthBalanceInfo (split_depth:(#<= 30), balance:CurrencyCollection), then ShardAccount.
  node.loadUint(5);
  node.loadCoins();
  node.loadMaybeRef();
  const account = node.loadRef();
  return { accountHash: account.hash(0), lastTxHash: node.loadBuffer(32), lastTxLt: node.loadUintBig(64) };
}
