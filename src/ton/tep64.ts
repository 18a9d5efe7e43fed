/**
 * TEP-64 token content cells, read once for every reader (v2 getTokenData, the v3 token index):
 *   offchain  0x01 + a snake string: the URI
 *   onchain   0x00 + HashmapE 256 ^ContentData, keys sha256 of the attribute names
 *   ContentData: 0x00 + snake bytes, or 0x01 + HashmapE 32 ^Cell (chunks, each a snake piece)
 * Each caller shapes the result as its API writes it. Anything that is not TEP-64 throws Tep64Error.
 */
import { createHash } from 'node:crypto';
import { Dictionary, type Cell, type Slice } from '@ton/core';

export class Tep64Error extends Error {}

export type Tep64Content = { kind: 'offchain'; uri: string } | { kind: 'onchain'; values: Map<string, Buffer> };

/** Longest snake chain followed (a 127-byte cell each): far above any real metadata, bounded for hostile ones. */
const MAX_SNAKE_CELLS = 256;

export const sha256Hex = (name: string): string => createHash('sha256').update(name).digest('hex');

/** The bytes of a snake: this slice's whole bytes, then those of its first ref, and so on. */
export function snakeBytes(start: Slice): Buffer {
  const pieces: Buffer[] = [];
  let cs = start;
  for (let i = 0; ; i++) {
    if (i >= MAX_SNAKE_CELLS) throw new Tep64Error('snake data longer than 256 cells');
    if (cs.remainingBits % 8 !== 0) throw new Tep64Error('snake data is not whole bytes');
    pieces.push(cs.loadBuffer(cs.remainingBits / 8));
    if (cs.remainingRefs === 0) return Buffer.concat(pieces);
    cs = cs.loadRef().beginParse();
  }
}

function contentData(cell: Cell): Buffer {
  const cs = cell.beginParse();
  if (cs.remainingBits < 8) throw new Tep64Error('empty content data');
  const prefix = cs.loadUint(8);
  if (prefix === 0x00) return snakeBytes(cs);
  if (prefix === 0x01) {
    const chunks = cs.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    return Buffer.concat([...chunks].sort(([a], [b]) => a - b).map(([, chunk]) => snakeBytes(chunk.beginParse())));
  }
  throw new Tep64Error(`unknown content data prefix 0x${prefix.toString(16)}`);
}

/** The content a cell holds, values by the hex sha256 of their key. */
export function readTep64(cell: Cell): Tep64Content {
  try {
    const cs = cell.beginParse();
    if (cs.remainingBits < 8) throw new Tep64Error('token content cell is empty');
    const prefix = cs.loadUint(8);
    if (prefix === 0x01) return { kind: 'offchain', uri: snakeBytes(cs).toString('utf8') };
    if (prefix !== 0x00) throw new Tep64Error(`unknown token content prefix 0x${prefix.toString(16)}`);
    const dict = cs.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    const values = new Map<string, Buffer>();
    for (const [key, value] of dict) values.set(key.toString(16).padStart(64, '0'), contentData(value));
    return { kind: 'onchain', values };
  } catch (error) {
    if (error instanceof Tep64Error) throw error;
    throw new Tep64Error(`token content does not parse: ${(error as Error).message}`);
  }
}
