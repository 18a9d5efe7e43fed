/**
 * Token metadata cells (TEP-64, read by src/ton/tep64.ts), as getTokenData answers them:
 *   offchain  -> {"type":"offchain","data":"<uri>"}
 *   onchain   -> {"type":"onchain","data":{"name":"..",..}}
 * The well-known names are written as names, any other key as its hex. Values are UTF-8 text, except
 * image_data, which is binary and written as base64.
 */
import type { Cell } from '@ton/core';
import { readTep64, sha256Hex, Tep64Error } from '../../../ton/tep64.js';
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
const KEY_NAMES = new Map(KNOWN_KEYS.map((name) => [sha256Hex(name), name]));
const BINARY_KEYS = new Set(['image_data']);

/** The content a cell holds; NotThatContract when it is not TEP-64 content (whatever is wrong with it). */
export function parseTokenContent(cell: Cell): TokenContent {
  let content;
  try {
    content = readTep64(cell);
  } catch (error) {
    if (error instanceof Tep64Error) throw new NotThatContract(error.message);
    throw error;
  }
  if (content.kind === 'offchain') return { type: 'offchain', data: content.uri };
  const data: Record<string, string> = {};
  for (const [hex, bytes] of content.values) {
    const name = KEY_NAMES.get(hex) ?? hex;
    data[name] = BINARY_KEYS.has(name) ? bytes.toString('base64') : bytes.toString('utf8');
  }
  return { type: 'onchain', data };
}
