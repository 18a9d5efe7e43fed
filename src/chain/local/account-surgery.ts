/**
 * State surgery (devnet): an account's next ShardAccount from its current one and what the caller gives, a
 * balance, a code, a data, or a whole ShardAccount. Pure: the producer puts the result into the open block.
 *
 *  - An address with no state (or an uninit one) given a code becomes active with that code and the data given
 *    (an empty cell when none); given only a balance it becomes (or stays) uninit with that balance.
 *  - An active account keeps what is not given.
 *  - A frozen account becomes active only with both a code and a data (its own were dropped when it froze).
 *  - The last transaction (lt, hash) stays: surgery is no transaction.
 *  - Storage stats count the cells and bits of the code and data (each distinct cell once) and the account's
 *    own cell, and storage is paid up to the block's time: the next transaction charges storage from then on.
 */
import { Address, beginCell, Cell, loadShardAccount, storeShardAccount, type Account, type ShardAccount } from '@ton/core';
import { ChainInputError } from '../errors.js';

export interface AccountPatch {
  balance?: bigint;
  code?: Cell;
  data?: Cell;
}

/** Surgery the chain cannot do as asked (a ShardAccount of another address, a frozen account half revived). */
export class AccountSurgeryRefused extends ChainInputError {
  override name = 'AccountSurgeryRefused';
}

export interface SurgeryResult {
  shardAccount: string;
  /** Repr hash of the Account cell: what the block's state hash commits to. */
  accountHash: Buffer;
}

/** A whole ShardAccount given by the caller: it must be one, of this address. */
export function replacedShardAccount(address: Address, given: Cell): SurgeryResult {
  let parsed: ShardAccount;
  try {
    parsed = loadShardAccount(given.beginParse());
  } catch (error) {
    throw new AccountSurgeryRefused(`shard_account: not a ShardAccount (${(error as Error).message})`);
  }
  if (parsed.account && !parsed.account.addr.equals(address)) {
    throw new AccountSurgeryRefused(
      `shard_account: it is the state of ${parsed.account.addr.toRawString()}, not of ${address.toRawString()}`,
    );
  }
  return result(given);
}

export function patchedShardAccount(address: Address, currentBase64: string, patch: AccountPatch, genUtime: number): SurgeryResult {
  const current = loadShardAccount(Cell.fromBase64(currentBase64).beginParse());
  const before = current.account;
  const balance = patch.balance ?? before?.storage.balance.coins ?? 0n;
  const otherCurrencies = before?.storage.balance.other;
  const state = nextState(before, patch);
  const account: Account = {
    addr: address,
    storageStats: {
      used: storageUsed(state),
      lastPaid: genUtime,
      duePayment: null,
      storageExtra: null,
    },
    storage: {
      lastTransLt: before?.storage.lastTransLt ?? 0n,
      balance: otherCurrencies ? { coins: balance, other: otherCurrencies } : { coins: balance },
      state,
    },
  };
  const shardAccount: ShardAccount = {
    account,
    lastTransactionLt: current.lastTransactionLt,
    lastTransactionHash: current.lastTransactionHash,
  };
  return result(beginCell().store(storeShardAccount(shardAccount)).endCell());
}

function nextState(before: Account | null | undefined, patch: AccountPatch): Account['storage']['state'] {
  const was = before?.storage.state;
  if (was?.type === 'active') {
    return { type: 'active', state: { ...was.state, code: patch.code ?? was.state.code, data: patch.data ?? was.state.data } };
  }
  if (was?.type === 'frozen') {
    if (patch.code === undefined && patch.data === undefined) return was;
    if (patch.code === undefined || patch.data === undefined) {
      throw new AccountSurgeryRefused('code, data: the account is frozen (its code and data are gone); give both to make it active again');
    }
    return { type: 'active', state: { code: patch.code, data: patch.data } };
  }
  if (patch.code !== undefined) return { type: 'active', state: { code: patch.code, data: patch.data ?? beginCell().endCell() } };
  if (patch.data !== undefined) throw new AccountSurgeryRefused('data: the account has no code; give a code with it');
  return { type: 'uninit' };
}

function storageUsed(state: Account['storage']['state']): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  let cells = 1n; // the account's own cell
  let bits = 0n;
  const visit = (cell: Cell | null | undefined) => {
    if (!cell) return;
    const key = cell.hash().toString('hex');
    if (seen.has(key)) return;
    seen.add(key);
    cells++;
    bits += BigInt(cell.bits.length);
    for (const ref of cell.refs) visit(ref);
  };
  if (state.type === 'active') {
    visit(state.state.code);
    visit(state.state.data);
  }
  return { cells, bits };
}

function result(cell: Cell): SurgeryResult {
  return { shardAccount: cell.toBoc().toString('base64'), accountHash: cell.refs[0].hash() };
}
