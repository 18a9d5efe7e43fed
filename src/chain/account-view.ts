/**
 * A ShardAccount BoC read once into what the readers need: balance, status, code and data (also as
 * the base64 BoCs the emulator takes, made on first use and kept), last transaction id.
 */
import { Address, beginCell, Cell, loadShardAccount, type ShardAccount } from '@ton/core';
import type { AccountState, AccountStatus, BlockId, ExtraCurrency } from './types.js';

/** account_none$0, last_trans_hash 0, last_trans_lt 0: an address that never had a state. */
export const EMPTY_SHARD_ACCOUNT: Cell = beginCell()
  .storeRef(beginCell().storeBit(false).endCell())
  .storeUint(0n, 256)
  .storeUint(0n, 64)
  .endCell();
export const EMPTY_SHARD_ACCOUNT_BASE64 = EMPTY_SHARD_ACCOUNT.toBoc().toString('base64');

export class AccountView {
  readonly cell: Cell;
  readonly balance: bigint;
  readonly status: AccountStatus;
  readonly code?: Cell;
  readonly data?: Cell;
  readonly frozenHash?: Buffer;
  readonly lastTxLt: bigint;
  readonly lastTxHash: Buffer;
  readonly extraCurrencies: ExtraCurrency[];
  private codeB64?: string;
  private dataB64?: string;

  constructor(
    readonly address: Address,
    boc: Buffer | undefined,
  ) {
    this.cell = boc === undefined ? EMPTY_SHARD_ACCOUNT : Cell.fromBoc(boc)[0];
    const sa: ShardAccount = loadShardAccount(this.cell.beginParse());
    this.lastTxLt = sa.lastTransactionLt;
    this.lastTxHash = Buffer.from(sa.lastTransactionHash.toString(16).padStart(64, '0'), 'hex');
    const account = sa.account;
    if (!account) {
      this.balance = 0n;
      this.status = 'nonexist';
      this.extraCurrencies = [];
      return;
    }
    this.balance = account.storage.balance.coins;
    const other = account.storage.balance.other;
    this.extraCurrencies = other ? [...other].map(([id, amount]) => ({ id, amount })) : [];
    const state = account.storage.state;
    if (state.type === 'active') {
      this.status = 'active';
      this.code = state.state.code ?? undefined;
      this.data = state.state.data ?? undefined;
    } else if (state.type === 'frozen') {
      this.status = 'frozen';
      this.frozenHash = Buffer.from(state.stateHash.toString(16).padStart(64, '0'), 'hex');
    } else {
      this.status = 'uninit';
    }
  }

  /** Code and data as the emulator takes them, or undefined when the account cannot run code. */
  runnable(): { code: string; data: string } | undefined {
    if (this.status !== 'active' || !this.code) return undefined;
    this.codeB64 ??= this.code.toBoc().toString('base64');
    this.dataB64 ??= (this.data ?? Cell.EMPTY).toBoc().toString('base64');
    return { code: this.codeB64, data: this.dataB64 };
  }

  /** The ShardAccount BoC (base64) for the emulator. */
  shardAccountBase64(): string {
    return this.cell.toBoc().toString('base64');
  }

  /** The chain's AccountState of this view, as of the masterchain block `block` (generated at `genUtime`). */
  accountState(address: Address, block: BlockId, genUtime: number): AccountState {
    return {
      address,
      balance: this.balance,
      extraCurrencies: this.extraCurrencies,
      state: this.status,
      ...(this.code ? { code: this.code } : {}),
      ...(this.data ? { data: this.data } : {}),
      ...(this.frozenHash ? { frozenHash: this.frozenHash } : {}),
      lastTxLt: this.lastTxLt,
      lastTxHash: this.lastTxHash,
      shardAccount: this.cell,
      block,
      syncUtime: genUtime,
    };
  }
}
