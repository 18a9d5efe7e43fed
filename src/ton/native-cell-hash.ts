/**
 * Cell hashing with node:crypto instead of jsSHA.
 *
 * @ton/core computes every cell's representation hash (on each `Cell` built, parsed from a BoC or
 * stored) with @ton/crypto's `sha256_sync`, which runs jsSHA over hex strings. Measured here on
 * wallet transactions, that was ~40 % of what the producer spends reading an emulated transaction and
 * most of what the index spends parsing one. Both modules read the function from @ton/crypto's
 * exports at each call, so replacing that one export with the same SHA-256 from node:crypto speeds up
 * every cell of the process (the results are identical: test/ton/native-cell-hash.test.ts).
 *
 * Importing this module installs it, once per thread: every entry point (the CLI, the chain, the
 * emulator and index worker threads) imports it. Should a @ton/crypto release move the function, the
 * export is left alone and the speed-up is simply lost (the test above then fails).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

type Sha256Sync = (source: Buffer | string) => Buffer;

const require = createRequire(import.meta.url);

const nativeSha256: Sha256Sync = (source) => createHash('sha256').update(source).digest();

function install(): boolean {
  let primitives: { sha256_sync?: Sha256Sync };
  try {
    primitives = require('@ton/crypto/dist/primitives/sha256.js') as { sha256_sync?: Sha256Sync };
  } catch {
    return false;
  }
  if (typeof primitives.sha256_sync !== 'function') return false;
  primitives.sha256_sync = nativeSha256;
  return true;
}

/** Whether @ton/core's cells are hashed by node:crypto in this thread. */
export const nativeCellHashInstalled: boolean = install();
