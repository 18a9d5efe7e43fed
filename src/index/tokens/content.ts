/**
 * TEP-64 content as toncenter's v3 writes it (ton-indexer parse_token_data): offchain -> {"uri": ".."};
 * onchain -> the values of a fixed key list only, UTF-8 text (a value that is not valid UTF-8 is
 * dropped), image_data as base64. Content that is not TEP-64 makes the detection fail, as toncenter's.
 */
import type { Cell } from '@ton/core';
import { readTep64, sha256Hex } from '../../ton/tep64.js';

const KEYS = ['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type'];
const BY_HASH = new Map(KEYS.map((k) => [sha256Hex(k), k]));
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function v3TokenContent(cell: Cell): Record<string, string> {
  const content = readTep64(cell);
  if (content.kind === 'offchain') return { uri: content.uri };
  const out: Record<string, string> = {};
  for (const [hash, bytes] of content.values) {
    const key = BY_HASH.get(hash);
    if (!key) continue;
    if (key === 'image_data') {
      out[key] = bytes.toString('base64');
      continue;
    }
    try {
      out[key] = UTF8.decode(bytes);
    } catch {
      // not UTF-8: left out
    }
  }
  return out;
}
