/**
 * `--lite-trusted-block network=<seqno>:<root_hash>:<file_hash>`: an operator's own checkpoint, a masterchain key
 * block the lite network's chain of trust starts from instead of the global config's `init_block` (tonlib's
 * `init_block` override). Proving the first head then costs the key blocks since that one, not since the
 * config was published. Trusting it means believing whoever told you those hashes as much as the config's authors
 * (docs/lite.md: how to get one you can trust). Hashes as 64 hex digits or 44 base64 characters (how global configs
 * and explorers write them).
 */
import { ConfigError } from './errors.js';
import type { GlobalBlockId } from '../ton/global-config.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../ton/workchain.js';

const OPTION = '--lite-trusted-block';

/** The masterchain block `raw` names; a ConfigError naming the bad part otherwise. */
export function parseTrustedBlock(network: string, raw: string): GlobalBlockId {
  const parts = raw.split(':');
  if (parts.length !== 3) throw new ConfigError(OPTION, `${network}: expected <seqno>:<root_hash>:<file_hash>, got ${JSON.stringify(raw)}`);
  const [seqnoText, rootText, fileText] = parts.map((p) => p.trim());
  if (!/^\d+$/.test(seqnoText) || Number(seqnoText) < 1 || Number(seqnoText) > 2 ** 32 - 1) {
    throw new ConfigError(OPTION, `${network}: seqno: expected a masterchain key block's seqno from 1, got ${JSON.stringify(seqnoText)}`);
  }
  return {
    workchain: MASTERCHAIN,
    shard: WHOLE_SHARD,
    seqno: Number(seqnoText),
    rootHash: hash(network, 'root_hash', rootText),
    fileHash: hash(network, 'file_hash', fileText),
  };
}

function hash(network: string, name: string, text: string): Buffer {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes;
  }
  throw new ConfigError(OPTION, `${network}: ${name}: expected 32 bytes as 64 hex digits or base64, got ${JSON.stringify(text)}`);
}
