/**
 * The chain's public libraries: what masterchain accounts publish with SETLIBCODE / CHANGELIB in public mode
 * (kept in their state's `library` field by the emulator's action phase, or set by state surgery). As on a real
 * network, only masterchain accounts' public libraries are global: a library cell (exotic, type 2) in any
 * contract's code or data resolves to them, in transactions and get-methods, and v2 `getLibraries` serves them.
 * A library published by several accounts stays until the last of them drops it.
 *
 * A block's changes take effect after it is sealed: transactions of the same block still see the libraries as
 * they were when it opened (the real collator also reads them from the previous masterchain state).
 */
import { Cell, loadShardAccount, type Address } from '@ton/core';
import { libraryDictionary } from '../../ton/library-cells.js';
import { MASTERCHAIN } from '../../ton/workchain.js';
import type { LibraryChanges, LibraryRow } from './store-rows.js';

/** The public libraries of an account's state (a ShardAccount cell): hash hex -> library root cell. */
export function publicLibrariesOf(shardAccount: Cell): Map<string, Cell> {
  const found = new Map<string, Cell>();
  const account = loadShardAccount(shardAccount.beginParse()).account;
  const state = account?.storage.state;
  if (state?.type !== 'active' || !state.state.libraries) return found;
  for (const lib of state.state.libraries.values()) if (lib.public) found.set(lib.root.hash().toString('hex'), lib.root);
  return found;
}

export class PublicLibraries {
  /** Per publishing account (id hex): its public libraries (hash hex -> cell). */
  private readonly byAccount = new Map<string, Map<string, Cell>>();
  /** Every library published, with how many accounts publish it. */
  private readonly all = new Map<string, { cell: Cell; publishers: number }>();
  private dictBase64: string | null = null;

  constructor(rows: Iterable<LibraryRow>) {
    this.reset(rows);
  }

  /** Takes these rows as the whole set (at open, and after a snapshot restore put the store's back). */
  reset(rows: Iterable<LibraryRow>): void {
    this.byAccount.clear();
    this.all.clear();
    for (const row of rows) this.add(row.account.toString('hex'), row.hash.toString('hex'), Cell.fromBoc(row.boc)[0]);
    this.rebuild();
  }

  /** What changes if these accounts take these states (masterchain accounts only; others publish nothing global). */
  changes(accounts: Iterable<{ address: Address; shardAccount: string | Cell }>): LibraryChanges {
    const changes: LibraryChanges = { set: [], dropped: [] };
    for (const { address, shardAccount } of accounts) {
      if (address.workChain !== MASTERCHAIN) continue;
      const cell = typeof shardAccount === 'string' ? Cell.fromBase64(shardAccount) : shardAccount;
      const next = publicLibrariesOf(cell);
      const before = this.byAccount.get(address.hash.toString('hex')) ?? new Map<string, Cell>();
      for (const [hash, root] of next)
        if (!before.has(hash)) changes.set.push({ account: address.hash, hash: Buffer.from(hash, 'hex'), boc: root.toBoc() });
      for (const hash of before.keys())
        if (!next.has(hash)) changes.dropped.push({ account: address.hash, hash: Buffer.from(hash, 'hex') });
    }
    return changes;
  }

  /** Takes changes in (once they are committed). */
  apply(changes: LibraryChanges): void {
    if (changes.set.length === 0 && changes.dropped.length === 0) return;
    for (const row of changes.set) this.add(row.account.toString('hex'), row.hash.toString('hex'), Cell.fromBoc(row.boc)[0]);
    for (const { account, hash } of changes.dropped) {
      const key = hash.toString('hex');
      if (!this.byAccount.get(account.toString('hex'))?.delete(key)) continue;
      const entry = this.all.get(key)!;
      if (--entry.publishers === 0) this.all.delete(key);
    }
    this.rebuild();
  }

  get(hash: Buffer): Cell | undefined {
    return this.all.get(hash.toString('hex'))?.cell;
  }

  /** The library dictionary as the emulator takes it (HashmapE 256 ^Cell, BoC base64), or null for none. */
  get emulatorLibs(): string | null {
    return this.dictBase64;
  }

  private add(account: string, hash: string, cell: Cell): void {
    let mine = this.byAccount.get(account);
    if (!mine) this.byAccount.set(account, (mine = new Map()));
    if (mine.has(hash)) return;
    mine.set(hash, cell);
    const entry = this.all.get(hash);
    if (entry) entry.publishers++;
    else this.all.set(hash, { cell, publishers: 1 });
  }

  private rebuild(): void {
    if (this.all.size === 0) {
      this.dictBase64 = null;
      return;
    }
    this.dictBase64 = libraryDictionary(new Map([...this.all].map(([hash, { cell }]) => [hash, cell])));
  }
}
