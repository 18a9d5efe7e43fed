/**
 * Library cells: an exotic cell of type 2 holding a library's hash, standing in a contract's code (or a StateInit)
 * for the code the network's public libraries keep under that hash. Mainnet deploys most of its busy contracts so
 * (USDT's jetton wallets, multisig orders): to run them, an emulator must be given the libraries they name. Pure.
 */
import { beginCell, CellType, Dictionary, type Cell } from '@ton/core';

/** At most this many distinct cells walked per call: code trees are far smaller; a guard, not a limit met. */
const MAX_CELLS_WALKED = 1 << 15;

/** The library hash a library cell names (its bits: the type byte 2, then the 256-bit hash). */
export function libraryHashOf(cell: Cell): Buffer {
  return cell.beginParse(true).skip(8).loadBuffer(32);
}

/** The hashes of the libraries the library cells in these trees name, each once (hex, lower case). */
export function libraryHashesIn(roots: readonly (Cell | null | undefined)[]): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const seen = new Set<Cell>();
  const stack = roots.filter((c): c is Cell => c !== null && c !== undefined);
  while (stack.length > 0 && seen.size < MAX_CELLS_WALKED) {
    const cell = stack.pop()!;
    if (seen.has(cell)) continue;
    seen.add(cell);
    if (cell.type === CellType.Library) {
      const hash = libraryHashOf(cell);
      found.set(hash.toString('hex'), hash);
    } else stack.push(...cell.refs);
  }
  return found;
}

/** Libraries as the emulator takes them (HashmapE 256 ^Cell, BoC base64): hash hex -> the library's root cell. */
export function libraryDictionary(libs: ReadonlyMap<string, Cell>): string {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [hex, cell] of libs) dict.set(Buffer.from(hex, 'hex'), cell);
  return beginCell().storeDictDirect(dict).endCell().toBoc().toString('base64');
}
