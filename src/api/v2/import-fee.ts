/**
 * The import fee of an inbound external message, from the config's message forwarding prices
 * (param 24 masterchain, 25 basechain):
 *   msg_forward_prices#ea lump_price:uint64 bit_price:uint64 cell_price:uint64 ihr_price_factor:uint32 ...
 *   fee = lump_price + ceil((bit_price * bits + cell_price * cells) / 2^16)
 * over the distinct cells of the message other than its root (as the node's transaction.cpp counts
 * them). estimateFee reports it for a message the contract would not accept, as tonlib does; the
 * tests check it equals the import fee of the emulated transactions of accepted messages.
 */
import { Dictionary, type Cell } from '@ton/core';

export function importFee(config: Cell, workchain: number, message: Cell): bigint {
  const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
  const prices = params.get(workchain === -1 ? 24 : 25);
  if (!prices) throw new Error(`the config has no message forwarding prices for workchain ${workchain}`);
  const cs = prices.beginParse();
  if (cs.loadUint(8) !== 0xea) throw new Error('unexpected msg_forward_prices tag');
  const lump = cs.loadUintBig(64);
  const bitPrice = cs.loadUintBig(64);
  const cellPrice = cs.loadUintBig(64);
  const seen = new Set<string>();
  let bits = 0n;
  let cells = 0n;
  const visit = (cell: Cell) => {
    for (const ref of cell.refs) {
      const key = ref.hash().toString('hex');
      if (seen.has(key)) continue;
      seen.add(key);
      bits += BigInt(ref.bits.length);
      cells += 1n;
      visit(ref);
    }
  };
  visit(message);
  const scaled = bitPrice * bits + cellPrice * cells;
  return lump + (scaled + 0xffffn) / 0x10000n;
}
