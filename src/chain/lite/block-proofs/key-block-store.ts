/**
 * The newest proven key block, kept in the network's data directory so a restart proves new heads from it instead
 * of from the config's init block again (on mainnet, every key block since the config was published: minutes).
 * tonlib keeps the same in its keystore. The file names the init block it was proven from: a file written for
 * another config (another network, a newer init block) is ignored. Written whole to a temporary file, then renamed.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BlockId } from '../../types.js';

export interface KeyBlockStore {
  /** The key block proven from `init` last time, if any. */
  load(init: BlockId): BlockId | undefined;
  save(init: BlockId, keyBlock: BlockId): void;
}

interface Stored {
  init: string;
  keyBlock: { workchain: number; shard: string; seqno: number; rootHash: string; fileHash: string };
}

export function keyBlockFile(dataDir: string): KeyBlockStore {
  const file = join(dataDir, 'proven-key-block.json');
  return {
    load(init) {
      let stored: Stored;
      try {
        stored = JSON.parse(readFileSync(file, 'utf8')) as Stored;
      } catch {
        return undefined; // none yet, or unreadable: prove from the init block
      }
      if (stored.init !== init.rootHash.toString('hex')) return undefined;
      const k = stored.keyBlock;
      const id: BlockId = {
        workchain: k.workchain,
        shard: BigInt(k.shard),
        seqno: k.seqno,
        rootHash: Buffer.from(k.rootHash, 'hex'),
        fileHash: Buffer.from(k.fileHash, 'hex'),
      };
      return id.seqno > init.seqno && id.rootHash.length === 32 && id.fileHash.length === 32 ? id : undefined;
    },
    save(init, keyBlock) {
      const stored: Stored = {
        init: init.rootHash.toString('hex'),
        keyBlock: {
          ...keyBlock,
          shard: keyBlock.shard.toString(),
          rootHash: keyBlock.rootHash.toString('hex'),
          fileHash: keyBlock.fileHash.toString('hex'),
        },
      };
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(stored));
      renameSync(`${file}.tmp`, file);
    },
  };
}
