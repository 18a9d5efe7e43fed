/**
 * Two hot spots of @ton/core replaced by exact, faster equivalents, once per thread.
 *
 * Every cell @ton/core builds, parses from a BoC or serializes is hashed and copied bit by bit:
 *  - its representation hash goes through @ton/crypto's `sha256_sync`, which runs jsSHA over hex
 *    strings: replaced by node:crypto's SHA-256 (the same function);
 *  - `BitBuilder.writeBits` copies one bit at a time, also when both sides are byte-aligned (the
 *    usual case: every cell's data when it is hashed or serialized): it now copies the aligned bytes
 *    at once and only the last few bits one by one.
 * Measured on the producer's wallet transfers, jsSHA was ~40 % of reading an emulated transaction and
 * the bit loop ~9 % of the producing thread; the index's writer thread parses the same cells.
 *
 * @ton/core reads `sha256_sync` from @ton/crypto's exports at each call, and `writeBits` from the
 * prototype, so replacing them reaches every caller. Importing this module installs both: every
 * entry point (the CLI, the chain, the emulator and index worker threads) imports it. Should a
 * release move either, it is left alone and only the speed-up is lost (test/ton/core-speedups.test.ts
 * then fails).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { BitBuilder, type BitString } from '@ton/core';

type Sha256Sync = (source: Buffer | string) => Buffer;

const require = createRequire(import.meta.url);

function installNativeSha256(): boolean {
  let primitives: { sha256_sync?: Sha256Sync };
  try {
    primitives = require('@ton/crypto/dist/primitives/sha256.js') as { sha256_sync?: Sha256Sync };
  } catch {
    return false;
  }
  if (typeof primitives.sha256_sync !== 'function') return false;
  primitives.sha256_sync = (source) => createHash('sha256').update(source).digest();
  return true;
}

interface BitBuilderInternals {
  length: number;
  writeBit(value: boolean | number): void;
  writeBuffer(src: Buffer): void;
}

function installAlignedWriteBits(): boolean {
  const proto = BitBuilder.prototype as unknown as BitBuilderInternals & { writeBits(src: BitString): void };
  if (typeof proto.writeBits !== 'function' || typeof proto.writeBuffer !== 'function') return false;
  const bitByBit = proto.writeBits;
  proto.writeBits = function writeBits(this: BitBuilderInternals, src: BitString): void {
    const whole = src.length - (src.length % 8);
    // subbuffer() is null unless the source starts on a byte boundary
    const bytes = this.length % 8 === 0 ? src.subbuffer(0, whole) : null;
    if (bytes === null) {
      bitByBit.call(this, src);
      return;
    }
    this.writeBuffer(bytes);
    for (let i = whole; i < src.length; i++) this.writeBit(src.at(i));
  };
  return true;
}

/** Whether each replacement is in place in this thread. */
export const coreSpeedups: { nativeSha256: boolean; alignedWriteBits: boolean } = {
  nativeSha256: installNativeSha256(),
  alignedWriteBits: installAlignedWriteBits(),
};
