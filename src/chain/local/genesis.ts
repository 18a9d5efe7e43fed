/**
 * The zero state: masterchain block 0 and basechain block 0, no transactions, its accounts already in place (as a
 * real zero state lists its accounts): the faucet wallets with their initial balance, the config contract and the
 * elector on the masterchain (system-accounts.ts), and the accounts of a `--genesis` file.
 */
import { beginCell, Cell, storeShardAccount, type Address, type ShardAccount } from '@ton/core';
import { buildBlockCell, masterStateHash, shardStateHash } from './block-cell.js';
import { BASECHAIN, MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import { blockIdOf } from './blocks.js';
import type { PublicLibraries } from './libraries.js';
import type { BlockRow } from './store-rows.js';
import type { ChainStore } from './store.js';

/** 1,000,000 TON per faucet wallet. */
export const FAUCET_BALANCE = 1_000_000n * 1_000_000_000n;

const ZERO_HASH = Buffer.alloc(32);

/** An account of the zero state: active with code and data, or (without code) uninit holding its balance. */
export interface ZeroStateAccount {
  /** Where it came from, for messages (a `--genesis` entry). */
  label?: string;
  address: Address;
  balance: bigint;
  code?: Cell;
  data?: Cell;
}

function zeroStateShardAccount(a: ZeroStateAccount, utime: number): Cell {
  const shardAccount: ShardAccount = {
    account: {
      addr: a.address,
      // Storage stats start empty (as @ton/sandbox's genesis accounts do): the first transaction
      // recomputes them; lastPaid = genesis time so no storage fee is due for the years before it.
      storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: utime, duePayment: null, storageExtra: null },
      storage: {
        lastTransLt: 0n,
        balance: { coins: a.balance },
        state: a.code ? { type: 'active', state: { code: a.code, data: a.data ?? beginCell().endCell() } } : { type: 'uninit' },
      },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  };
  return beginCell().store(storeShardAccount(shardAccount)).endCell();
}

/** Writes the zero state (blocks 0 and its accounts at masterchain seqno 0). */
export async function writeGenesis(
  store: ChainStore,
  args: { globalId: number; configHash: Buffer; accounts: ZeroStateAccount[]; libraries: PublicLibraries; utime: number },
): Promise<void> {
  const accounts = args.accounts.map((a) => ({ address: a.address, cell: zeroStateShardAccount(a, args.utime) }));
  // ShardAccount's first ref is the Account cell: its hash is what HASH_UPDATE would say.
  const changes = (workchain: number) =>
    accounts
      .filter((a) => a.address.workChain === workchain)
      .map((a) => ({ accountId: a.address.hash, accountHash: a.cell.refs[0].hash() }));
  const shardState = await shardStateHash(ZERO_HASH, changes(BASECHAIN));
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
  const shardRow: BlockRow = {
    ...base,
    workchain: BASECHAIN,
    rootHash: shardCell.rootHash,
    fileHash: shardCell.fileHash,
    stateHash: shardState,
    boc: shardCell.boc,
  };
  const mcState = await masterStateHash(shardState, args.configHash, ZERO_HASH, changes(MASTERCHAIN));
  const mcCell = buildBlockCell({
    ...base,
    globalId: args.globalId,
    workchain: MASTERCHAIN,
    txTreeHash: ZERO_HASH,
    stateHash: mcState,
    prevBlocks: [],
    refs: [blockIdOf(shardRow)],
  });
  const mcRow: BlockRow = {
    ...base,
    workchain: MASTERCHAIN,
    rootHash: mcCell.rootHash,
    fileHash: mcCell.fileHash,
    stateHash: mcState,
    boc: mcCell.boc,
  };
  await store.writeSeal({
    mcSeqno: 0,
    blocks: [shardRow, mcRow],
    transactions: [],
    messages: [],
    accountStates: accounts.map((a) => ({ workchain: a.address.workChain, account: a.address.hash, boc: a.cell.toBoc() })),
    pendingAdded: [],
    pendingDelivered: [],
    libraries: args.libraries.changes(accounts.map((a) => ({ address: a.address, shardAccount: a.cell }))),
  });
}
