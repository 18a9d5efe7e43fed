/**
 * The public libraries an emulated transaction on a lite network runs: a liteserver keeps them, the emulator is
 * not given them otherwise, and a contract whose code is a library cell (mainnet USDT's jetton wallets) fails
 * without them. Before each transaction of a trace, the library cells in the receiver's code and in the StateInit
 * its message carries (a deployment runs that code) are looked up, with those the fetched libraries name in turn;
 * what is not known yet is fetched from the liteservers (LiteGetMethods.libraries: each cell's hash checked against
 * the hash asked for, kept in a bounded cache). The emulator gets every library the trace has met so far.
 * Library cells in a contract's data are not looked for: data is not run unless code loads it (a contract that
 * runs code from its data, or a library a get-method reaches only at run time, is as tonlib leaves it; get-methods
 * fetch what they miss on their own).
 */
import { Cell, loadMessage, loadShardAccount } from '@ton/core';
import { libraryDictionary, libraryHashesIn } from '../../ton/library-cells.js';
import type { Library } from '../types.js';

/** Libraries one trace may gather (mainnet contracts name one each; a bound against a hostile code tree). */
export const MAX_TRACE_LIBRARIES = 64;

export class TraceLibraries {
  private readonly known = new Map<string, Cell>();
  /** Asked for and not found: not asked again within the trace. */
  private readonly absent = new Set<string>();
  private dictionary: string | undefined;

  constructor(
    private readonly fetch: (hashes: Buffer[]) => Promise<Library[]>,
    private readonly max = MAX_TRACE_LIBRARIES,
  ) {}

  /** The library dictionary (BoC base64) for a transaction of `shardAccount` on `message` (both BoC base64); undefined for none. */
  async forTransaction(shardAccount: string, message: string): Promise<string | undefined> {
    const state = loadShardAccount(Cell.fromBase64(shardAccount).beginParse()).account?.storage.state;
    const code = state?.type === 'active' ? state.state.code : undefined;
    const init = loadMessage(Cell.fromBase64(message).beginParse()).init;
    await this.gather([code, init?.code]);
    if (this.known.size === 0) return undefined;
    return (this.dictionary ??= libraryDictionary(this.known));
  }

  /** Fetches the libraries these trees name, then those the fetched ones name, until nothing new is named. */
  private async gather(roots: (Cell | null | undefined)[]): Promise<void> {
    let named = roots;
    for (;;) {
      const wanted = [...libraryHashesIn(named)].filter(([hex]) => !this.known.has(hex) && !this.absent.has(hex));
      const room = this.max - this.known.size;
      if (wanted.length === 0 || room <= 0) return;
      const asked = wanted.slice(0, room);
      const found = await this.fetch(asked.map(([, hash]) => hash));
      for (const { hash, cell } of found) this.known.set(hash.toString('hex'), cell);
      for (const [hex] of asked) if (!this.known.has(hex)) this.absent.add(hex);
      if (found.length > 0) this.dictionary = undefined;
      named = found.map((lib) => lib.cell);
    }
  }
}
