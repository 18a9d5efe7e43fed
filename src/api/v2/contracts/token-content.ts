/**
 * Token metadata cells (TEP-64), as getTokenData answers them:
 *   offchain  0x01 + a snake string: the URI          -> {"type":"offchain","data":"<uri>"}
 *   onchain   0x00 + HashmapE 256 ^ContentData        -> {"type":"onchain","data":{"name":"..",..}}
 *   ContentData: 0x00 + snake bytes, or 0x01 + HashmapE 32 ^Cell (chunks, each a snake piece).
 * Keys are sha256 of the attribute names; the well-known names are written as names, any other key as
 * its hex. Values are UTF-8 text, except image_data, which is binary and written as base64.
 */
import { createHash } from 'node:crypto';
import { Dictionary, type Cell, type Slice } from '@ton/core';
import { NotThatContract } from './get-method-call.js';

export interface TokenContent {
  type: 'onchain' | 'offchain';
  data: string | Record<string, string>;
}

const KNOWN_KEYS = [
  'uri',
  'name',
  'description',
  'image',
  'image_data',
  'symbol',
  'decimals',
  'amount_style',
  'render_type',
  'social_links',
  'websites',
  'attributes',
  'content_url',
  'lottie',
  'cover_image',
  'marketplace',
];
const KEY_NAMES = new Map(KNOWN_KEYS.map((name) => [createHash('sha256').update(name).digest('hex'), name]));
const BINARY_KEYS = new Set(['image_data']);

/** Longest snake chain followed (a 127-byte cell each): far above any real metadata, bounded for hostile ones. */
const MAX_SNAKE_CELLS = 256;

/** The bytes of a snake: this slice's whole bytes, then those of its first ref, and so on. */
export function snakeBytes(start: Slice): Buffer {
  const pieces: Buffer[] = [];
  let cs = start;
  for (let i = 0; ; i++) {
    if (i >= MAX_SNAKE_CELLS) throw new NotThatContract('snake data longer than 256 cells');
    if (cs.remainingBits % 8 !== 0) throw new NotThatContract('snake data is not whole bytes');
    pieces.push(cs.loadBuffer(cs.remainingBits / 8));
    if (cs.remainingRefs === 0) return Buffer.concat(pieces);
    cs = cs.loadRef().beginParse();
  }
}

function contentData(cell: Cell): Buffer {
  const cs = cell.beginParse();
  if (cs.remainingBits < 8) throw new NotThatContract('empty content data');
  const prefix = cs.loadUint(8);
  if (prefix === 0x00) return snakeBytes(cs);
  if (prefix === 0x01) {
    const chunks = cs.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    return Buffer.concat([...chunks].sort(([a], [b]) => a - b).map(([, chunk]) => snakeBytes(chunk.beginParse())));
  }
  throw new NotThatContract(`unknown content data prefix 0x${prefix.toString(16)}`);
}

/** The content a cell holds; NotThatContract when it is not TEP-64 content (whatever is wrong with it). */
export function parseTokenContent(cell: Cell): TokenContent {
  try {
    return readTokenContent(cell);
  } catch (error) {
    if (error instanceof NotThatContract) throw error;
    throw new NotThatContract(`token content does not parse: ${(error as Error).message}`);
  }
}

function readTokenContent(cell: Cell): TokenContent {
  const cs = cell.beginParse();
  if (cs.remainingBits < 8) throw new NotThatContract('token content cell is empty');
  const prefix = cs.loadUint(8);
  if (prefix === 0x01) return { type: 'offchain', data: snakeBytes(cs).toString('utf8') };
  if (prefix !== 0x00) throw new NotThatContract(`unknown token content prefix 0x${prefix.toString(16)}`);
  const dict = cs.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  const data: Record<string, string> = {};
  for (const [key, value] of dict) {
    const hex = key.toString(16).padStart(64, '0');
    const name = KEY_NAMES.get(hex) ?? hex;
    const bytes = contentData(value);
    data[name] = BINARY_KEYS.has(name) ? bytes.toString('base64') : bytes.toString('utf8');
  }
  return { type: 'onchain', data };
}
