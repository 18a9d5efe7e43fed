/**
 * The zero state: masterchain block 0 and basechain block 0, no transactions, the faucet wallets
 * already active with their initial balance (as a real zero state lists its accounts).
 */
import { beginCell, Cell, storeShardAccount, type ShardAccount } from '@ton/core';
import { WHOLE_SHARD } from '../types.js';
import { buildBlockCell, masterStateHash, shardStateHash } from './block-cell.js';
import { BASECHAIN, MASTERCHAIN, blockIdOf } from './blocks.js';
import type { FaucetWallet } from './faucet.js';
import type { BlockRow, ChainStore } from './store.js';

/** 1,000,000 TON per faucet wallet. */
export const FAUCET_BALANCE = 1_000_000n * 1_000_000_000n;

const ZERO_HASH = Buffer.alloc(32);

function activeShardAccount(wallet: FaucetWallet, balance: bigint, utime: number): Cell {
  const shardAccount: ShardAccount = {
    account: {
      addr: wallet.address,
      // Storage stats start empty (as @ton/sandbox's genesis accounts do): the first transaction
      // recomputes them; lastPaid = genesis time so no storage fee is due for the years before it.
      storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: utime, duePayment: null, storageExtra: null },
      storage: {
        lastTransLt: 0n,
        balance: { coins: balance },
        state: { type: 'active', state: { code: wallet.code, data: wallet.data } },
      },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  };
  return beginCell().store(storeShardAccount(shardAccount)).endCell();
}

/** Writes the zero state (blocks 0 and the faucet accounts at masterchain seqno 0). */
export async function writeGenesis(
  store: ChainStore,
  args: { globalId: number; configHash: Buffer; faucets: FaucetWallet[]; utime: number },
): Promise<void> {
  const accounts = args.faucets.map((wallet) => ({ wallet, cell: activeShardAccount(wallet, FAUCET_BALANCE, args.utime) }));
  const shardState = await shardStateHash(
    ZERO_HASH,
    // ShardAccount's first ref is the Account cell: its hash is what HASH_UPDATE would say.
    accounts.map((a) => ({ accountId: a.wallet.address.hash, accountHash: a.cell.refs[0].hash() })),
  );
  const base = {
    shard: WHOLE_SHARD,
    seqno: 0,
    mcSeqno: 0,
    genUtime: args.utime,
    startLt: 0n,
    endLt: 0n,
    txCount: 0,
    randSeed: ZERO_HASH,
  };
  const shardCell = buildBlockCell({
    ...base,
    globalId: args.globalId,
    workchain: BASECHAIN,
    txTreeHash: ZERO_HASH,
    stateHash: shardState,
    prevBlocks: [],
    refs: [],
  });
  const shardRow: BlockRow = { ...base, workchain: BASECHAIN, rootHash: shardCell.rootHash, fileHash: shardCell.fileHash, stateHash: shardState, boc: shardCell.boc };
  const mcState = masterStateHash(shardState, args.configHash, ZERO_HASH);
  const mcCell = buildBlockCell({
    ...base,
    globalId: args.globalId,
    workchain: MASTERCHAIN,
    txTreeHash: ZERO_HASH,
    stateHash: mcState,
    prevBlocks: [],
    refs: [blockIdOf(shardRow)],
  });
  const mcRow: BlockRow = { ...base, workchain: MASTERCHAIN, rootHash: mcCell.rootHash, fileHash: mcCell.fileHash, stateHash: mcState, boc: mcCell.boc };
  await store.writeSeal({
    mcSeqno: 0,
    blocks: [shardRow, mcRow],
    transactions: [],
    messages: [],
    accountStates: accounts.map((a) => ({ workchain: a.wallet.address.workChain, account: a.wallet.address.hash, boc: a.cell.toBoc() })),
    pendingAdded: [],
    pendingDelivered: [],
  });
}
