/**
 * Account states in memory, two views:
 *
 *  - WorkingAccounts: the state transactions execute against, including the open (unsealed) block's
 *    changes. ShardAccounts stay the emulator's base64 BoCs: they go back into the emulator as they
 *    came out, never parsed on the hot path. An account not yet touched in this process is read from
 *    the store (its latest sealed state).
 *  - SealedAccounts: what readers see, the state as of the last sealed block, parsed on first read
 *    and kept until a block changes the account.
 */
import { Address } from '@ton/core';
import { AccountView, EMPTY_SHARD_ACCOUNT_BASE64 } from '../account-view.js';
import type { ChainStore } from './store.js';

export const accountKey = (address: Address): string => `${address.workChain}:${address.hash.toString('hex')}`;

export class WorkingAccounts {
  private readonly states = new Map<string, string>();

  constructor(
    private readonly store: ChainStore,
    /** Masterchain seqno of the last sealed block. */
    private readonly sealedSeqno: () => number,
  ) {}

  get(address: Address): string {
    const key = accountKey(address);
    let state = this.states.get(key);
    if (state === undefined) {
      const stored = this.store.accountState(address.workChain, address.hash, this.sealedSeqno());
      state = stored ? stored.boc.toString('base64') : EMPTY_SHARD_ACCOUNT_BASE64;
      this.states.set(key, state);
    }
    return state;
  }

  set(address: Address, shardAccount: string): void {
    this.states.set(accountKey(address), shardAccount);
  }

  /** Forgets every state (a snapshot restore): each is read again from the store. */
  clear(): void {
    this.states.clear();
  }
}

export class SealedAccounts {
  private readonly views = new Map<string, AccountView>();

  constructor(private readonly store: ChainStore) {}

  /** The account as of masterchain seqno `mcSeqno`; `latest` says it is the last sealed one (cacheable). */
  get(address: Address, mcSeqno: number, latest: boolean): AccountView {
    const key = accountKey(address);
    if (latest) {
      const cached = this.views.get(key);
      if (cached) return cached;
    }
    const stored = this.store.accountState(address.workChain, address.hash, mcSeqno);
    const view = new AccountView(address, stored?.boc);
    // Addresses that never existed are not cached: anyone can ask for any number of them.
    if (latest && stored) this.views.set(key, view);
    return view;
  }

  /** A sealed block changed these accounts: their next read parses the new state. */
  invalidate(keys: Iterable<string>): void {
    for (const key of keys) this.views.delete(key);
  }

  /** Forgets every view (a snapshot restore). */
  clear(): void {
    this.views.clear();
  }
}
