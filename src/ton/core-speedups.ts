/**
 * Hot spots of @ton/core replaced by exact, faster equivalents, once per thread.
 *
 * Every cell @ton/core builds, parses from a BoC or serializes is hashed and copied bit by bit:
 *  - its representation hash goes through @ton/crypto's `sha256_sync`, which runs jsSHA over hex
 *    strings: replaced by node:crypto's SHA-256 (the same function);
 *  - `BitBuilder.writeBits` copies one bit at a time, also when both sides are byte-aligned (the
 *    usual case: every cell's data when it is hashed or serialized): it now copies the aligned bytes
 *    at once and only the last few bits one by one;
 *  - `BitReader` reads every integer (an lt, a coin amount, a 256-bit hash) one bit at a time into a
 *    bigint, allocating at each bit: it now reads whole bytes into a number, 48 bits at a time (and
 *    `loadUint` / `preloadUint` of up to 48 bits answer that number without a bigint in between); and
 *    bytes off a byte boundary (an address's hash, a signature) are shifted out, not read bit by bit;
 *  - every new cell's hash and depth (`wonderCalculator`) go through level masks, a BitBuilder for
 *    the padded data and four hash slots computed one by one: for an ordinary cell whose references
 *    are all of level 0 (every cell of a transaction, a message, an account) the representation is
 *    written straight into one buffer and hashed once. Exotic cells and cells above pruned branches
 *    take the original path. A thread that moves cells already hashed (the index's cell pools) can
 *    also hand the hash over instead of computing it again (`cellWithKnownHash`);
 *  - a BoC's CRC-32C (checked on every BoC read that carries one, as the chain's stored states do;
 *    written by every `toBoc()`) is computed one bit at a time, eight steps per byte: it now looks
 *    each byte up in a 256-entry table. In the emulator worker that answers the index's get-methods the
 *    bit loop was ~4 % of the thread;
 *  - `toBoc()` (`serializeBoc`) ordered the cells keyed by hex strings of their hashes and wrote every
 *    descriptor, length and reference index through a BitBuilder: it now keys them by the hash bytes and
 *    writes bytes into one buffer (boc-writer.ts). The same cells in the same order, byte for byte (the test compares it
 *    with @ton/core's own on random trees). In that same worker, writing BoCs (the batch program, each
 *    call's result stack) was ~10 % of the thread;
 *  - `Cell.fromBoc` (`deserializeBoc`) read every header field, descriptor and reference index through a
 *    BitReader, with an object per cell spread into another: boc-reader.ts reads them as bytes (0.63 of the
 *    time for a 22-cell account state: 43 against 68 µs, the cells' own construction and hashing being most
 *    of what is left). The same cells; anything unusual goes to the original reader.
 * Measured on the producer's wallet transfers, jsSHA was ~40 % of reading an emulated transaction and
 * the bit loop ~9 % of the producing thread; in the index's render thread the bit-by-bit reads and
 * the garbage they leave were ~40 % of parsing and rendering a block.
 *
 * @ton/core reads `sha256_sync` from @ton/crypto's exports at each call, `writeBits`, `_preloadUint`
 * and `_preloadInt` from the prototypes, and `wonderCalculator` from its module's exports, so
 * replacing them reaches every caller. Importing this module installs them all: every entry point
 * (the CLI, the chain, the emulator threads, the index's render thread) imports it. Should a release
 * move any of them, that one is left alone and only its speed-up is lost (test/ton/core-speedups.test.ts
 * then fails).
 */
import * as crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { beginCell, BitBuilder, BitReader, BitString, Cell, CellType } from '@ton/core';
import { readBocBytes } from './boc-reader.js';
import { byHash, readBits, writeBoc, writePaddedBits } from './boc-writer.js';
import { crc32cTable } from './crc32c.js';

type Sha256Sync = (source: Buffer | string) => Buffer;

const require = createRequire(import.meta.url);

/**
 * Replaces a function a module exports (its callers read the export at each call): the original, or undefined
 * (nothing replaced) when the module or the function is not where this release of it is expected to keep them.
 */
function replaceExport<F>(path: string, name: string, replacement: F): F | undefined {
  let module: Record<string, unknown>;
  try {
    module = require(path) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const original = module[name];
  if (typeof original !== 'function') return undefined;
  module[name] = replacement;
  return original as F;
}

/**
 * SHA-256 by node:crypto. The one-shot `crypto.hash` (Node 20.12+) skips the Hash object: 0.64 against 1.0 µs for a
 * 100-byte cell representation, the size hashed most (every cell a BoC read builds).
 */
const sha256: Sha256Sync =
  typeof crypto.hash === 'function'
    ? (source) => crypto.hash('sha256', source, 'buffer')
    : (source) => crypto.createHash('sha256').update(source).digest();

function installNativeSha256(): boolean {
  return replaceExport('@ton/crypto/dist/primitives/sha256.js', 'sha256_sync', sha256) !== undefined;
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

interface BitStringInternals {
  _data: Uint8Array;
  _offset: number;
  _length: number;
}

interface BitReaderInternals {
  _bits: BitStringInternals;
  _offset: number;
  loadUint(bits: number): number;
  preloadUint(bits: number): number;
  _preloadUint(bits: number, offset: number): bigint;
  _preloadInt(bits: number, offset: number): bigint;
  _preloadBuffer(bytes: number, offset: number): Buffer;
}

function installByteReads(): boolean {
  const proto = BitReader.prototype as unknown as BitReaderInternals;
  if (typeof proto._preloadUint !== 'function' || typeof proto._preloadInt !== 'function') return false;
  const probe = new BitReader(beginCell().storeUint(5, 3).endCell().bits) as unknown as BitReaderInternals;
  if (!(probe._bits?._data instanceof Uint8Array) || typeof probe._bits._offset !== 'number' || typeof probe._bits._length !== 'number')
    return false;
  const slowUint = proto._preloadUint;
  const slowInt = proto._preloadInt;
  const uint = (reader: BitReaderInternals, bits: number, offset: number): bigint => {
    const { _data: data, _offset: start } = reader._bits;
    let position = start + offset;
    if (bits <= 48) return BigInt(readBits(data, position, bits));
    let value = 0n;
    for (let left = bits; left > 0;) {
      const take = Math.min(48, left);
      value = (value << BigInt(take)) | BigInt(readBits(data, position, take));
      position += take;
      left -= take;
    }
    return value;
  };
  // Out of range (or zero bits): the original, which throws (or answers) as it always did.
  const inRange = (reader: BitReaderInternals, bits: number, offset: number) =>
    bits > 0 && Number.isInteger(bits) && offset >= 0 && offset + bits <= reader._bits._length;
  proto._preloadUint = function _preloadUint(this: BitReaderInternals, bits: number, offset: number): bigint {
    return inRange(this, bits, offset) ? uint(this, bits, offset) : slowUint.call(this, bits, offset);
  };
  proto._preloadInt = function _preloadInt(this: BitReaderInternals, bits: number, offset: number): bigint {
    if (!inRange(this, bits, offset)) return slowInt.call(this, bits, offset);
    const value = uint(this, bits, offset);
    // Two's complement: the top bit set means value - 2^bits.
    return value >> BigInt(bits - 1) ? value - (1n << BigInt(bits)) : value;
  };
  // Integers of up to 48 bits as numbers straight away, not through a bigint and back.
  const slowLoadUint = proto.loadUint;
  const slowPreloadUint = proto.preloadUint;
  proto.loadUint = function loadUint(this: BitReaderInternals, bits: number): number {
    if (bits > 48 || !inRange(this, bits, this._offset)) return slowLoadUint.call(this, bits);
    const value = readBits(this._bits._data, this._bits._offset + this._offset, bits);
    this._offset += bits;
    return value;
  };
  proto.preloadUint = function preloadUint(this: BitReaderInternals, bits: number): number {
    if (bits > 48 || !inRange(this, bits, this._offset)) return slowPreloadUint.call(this, bits);
    return readBits(this._bits._data, this._bits._offset + this._offset, bits);
  };
  // Bytes that do not start on a byte boundary (an address's hash, a signature): shifted out of two
  // bytes each instead of eight one-bit bigint reads. Aligned reads keep the original's zero-copy view.
  const slowBuffer = typeof proto._preloadBuffer === 'function' ? proto._preloadBuffer : null;
  if (slowBuffer !== null) {
    proto._preloadBuffer = function _preloadBuffer(this: BitReaderInternals, bytes: number, offset: number): Buffer {
      const position = this._bits._offset + offset;
      const shift = position & 7;
      if (shift === 0 || !inRange(this, bytes * 8, offset)) return slowBuffer.call(this, bytes, offset);
      const data = this._bits._data;
      const out = Buffer.allocUnsafe(bytes);
      let at = position >> 3;
      for (let i = 0; i < bytes; i++, at++) out[i] = ((data[at] << shift) | (data[at + 1] >> (8 - shift))) & 0xff;
      return out;
    };
  }
  return true;
}

interface Wonders {
  mask: { value: number };
  hashes: Buffer[];
  depths: number[];
}
type WonderCalculator = (type: CellType, bits: BitString, refs: Cell[]) => Wonders;
interface CellInternals {
  mask: { value: number };
}

/** The hash the next ordinary cell built in this thread is known to have (cellWithKnownHash). */
let knownHash: Buffer | undefined;

/** d1 d2, the data padded with a 1 bit and zeros, each reference's depth (2 bytes), each reference's hash. */
function ordinaryRepresentation(bits: BitString, refs: Cell[]): Buffer {
  const length = (bits as unknown as BitStringInternals)._length;
  const whole = length >> 3;
  const tail = length & 7;
  const dataLength = whole + (tail > 0 ? 1 : 0);
  const repr = Buffer.allocUnsafe(2 + dataLength + 34 * refs.length);
  repr[0] = refs.length;
  repr[1] = whole * 2 + (tail > 0 ? 1 : 0);
  let at = writePaddedBits(bits, repr, 2);
  for (const ref of refs) {
    repr.writeUInt16BE(ref.depth(0), at);
    at += 2;
  }
  for (const ref of refs) {
    repr.set(ref.hash(0), at);
    at += 32;
  }
  return repr;
}

/** A level-0 cell's four depth slots, one frozen array per depth shared by every such cell (@ton/core freezes it). */
const depthSlots: number[][] = [];

/** Whether this thread hashes a level-0 ordinary cell when its hash is first read (hashCellsOnDemand). */
let hashesOnDemand = false;

/**
 * The four hash slots of a level-0 ordinary cell (all one hash), read as @ton/core's Cell reads its `_hashes` (its
 * `length` and an index): the representation is hashed when a slot is first read. @ton/core freezes the object;
 * the hash, once computed, is kept in the inner record, which freezing leaves writable.
 */
class HashOnDemand {
  private readonly at: { bits: BitString; refs: Cell[]; hash?: Buffer };
  constructor(bits: BitString, refs: Cell[]) {
    this.at = { bits, refs };
  }
  get length(): number {
    return 4;
  }
  private get hash(): Buffer {
    const at = this.at;
    return (at.hash ??= sha256(ordinaryRepresentation(at.bits, at.refs)));
  }
  /** The hash, known from elsewhere (the same cell hashed by another thread): taken unless computed already. */
  know(hash: Buffer): void {
    this.at.hash ??= hash;
  }
  get 0(): Buffer {
    return this.hash;
  }
  get 1(): Buffer {
    return this.hash;
  }
  get 2(): Buffer {
    return this.hash;
  }
  get 3(): Buffer {
    return this.hash;
  }
}

/**
 * From now on this thread hashes a level-0 ordinary cell when its hash is first read, not when the cell is built.
 * For a thread that reads many cells and needs few of their hashes: the pending layer's render thread, which is
 * handed a transaction's and its messages' hashes by the chain, and so hashes only the message bodies and state
 * inits it writes (the rest of a transaction's cells, its description, phases and dictionary nodes, never). A cell's
 * hash reads its references' hashes, so those are computed then, once. Without the speedups installed nothing
 * changes.
 */
export function hashCellsOnDemand(): void {
  hashesOnDemand = true;
}

/**
 * A cell read in this thread whose hash another thread computed (the chain, for the same cell of the same
 * transaction): a cell hashed on demand takes it instead of hashing its subtree when first asked. Only for a hash of
 * this very cell; any other cell is left as it is.
 */
export function knowHash(cell: Cell, hash: Buffer): void {
  const hashes = (cell as unknown as { _hashes: unknown })._hashes;
  if (hashes instanceof HashOnDemand) hashes.know(hash);
}

function installOrdinaryWonders(): boolean {
  let module: { wonderCalculator?: WonderCalculator };
  let LevelMask: new (mask: number) => { value: number };
  try {
    module = require('@ton/core/dist/boc/cell/wonderCalculator.js') as typeof module;
    LevelMask = (require('@ton/core/dist/boc/cell/LevelMask.js') as { LevelMask: typeof LevelMask }).LevelMask;
  } catch {
    return false;
  }
  const slow = module.wonderCalculator;
  if (typeof slow !== 'function' || typeof LevelMask !== 'function') return false;
  // Immutable (no setter, apply() answers a new mask): one is shared by every level-0 cell.
  const levelZero = new LevelMask(0);
  module.wonderCalculator = (type, bits, refs) => {
    const hint = knownHash;
    knownHash = undefined;
    if (type !== CellType.Ordinary) return slow(type, bits, refs);
    let depth = 0;
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i];
      if ((ref as unknown as CellInternals).mask.value !== 0) return slow(type, bits, refs);
      depth = Math.max(depth, ref.depth(0) + 1);
    }
    const depths = (depthSlots[depth] ??= Object.freeze([depth, depth, depth, depth]) as number[]);
    if (hint === undefined && hashesOnDemand)
      return { mask: levelZero, hashes: new HashOnDemand(bits, refs) as unknown as Buffer[], depths };
    const hash = hint ?? sha256(ordinaryRepresentation(bits, refs));
    return { mask: levelZero, hashes: [hash, hash, hash, hash], depths };
  };
  return true;
}

function installTableCrc32c(): boolean {
  return replaceExport('@ton/core/dist/utils/crc32c.js', 'crc32c', crc32cTable) !== undefined;
}

/**
 * @ton/core's `serializeBoc`, exactly (boc-writer.ts): its cells told apart by their hashes, as @ton/core's are.
 */
export const serializeBocBytes = (root: Cell, opts: { idx: boolean; crc32: boolean }): Buffer => writeBoc(root, opts, byHash);

/** @ton/core's own serializeBoc (kept for the test that compares the two), replaced by serializeBocBytes. */
export const originalSerializeBoc = replaceExport<(root: Cell, opts: { idx: boolean; crc32: boolean }) => Buffer>(
  '@ton/core/dist/boc/cell/serialization.js',
  'serializeBoc',
  serializeBocBytes,
);

/**
 * @ton/core's `deserializeBoc`, read byte by byte (boc-reader.ts); a BoC that reader does not take (legacy magics,
 * malformed input) goes to the original, which accepts or throws as it always did.
 */
export const originalDeserializeBoc: ((src: Buffer) => Cell[]) | undefined = (() => {
  // byBytes is only called once a BoC is read, long after `original` is set.
  const byBytes = (src: Buffer): Cell[] => readBocBytes(src) ?? original!(src);
  const original = replaceExport<(src: Buffer) => Cell[]>('@ton/core/dist/boc/cell/serialization.js', 'deserializeBoc', byBytes);
  return original;
})();

/** Whether each replacement is in place in this thread. */
export const coreSpeedups: {
  nativeSha256: boolean;
  alignedWriteBits: boolean;
  byteReads: boolean;
  ordinaryWonders: boolean;
  tableCrc32c: boolean;
  fastSerializeBoc: boolean;
  fastDeserializeBoc: boolean;
} = {
  nativeSha256: installNativeSha256(),
  alignedWriteBits: installAlignedWriteBits(),
  byteReads: installByteReads(),
  ordinaryWonders: installOrdinaryWonders(),
  tableCrc32c: installTableCrc32c(),
  fastSerializeBoc: originalSerializeBoc !== undefined,
  fastDeserializeBoc: originalDeserializeBoc !== undefined,
};

/**
 * An ordinary cell whose representation hash is known already (computed by @ton/core in another
 * thread, carried with the cell's bits): built without hashing it again. Only for hashes that came
 * from a real cell; with the speedups absent the hash is computed as usual.
 */
export function cellWithKnownHash(bits: BitString, refs: Cell[], hash: Buffer): Cell {
  knownHash = coreSpeedups.ordinaryWonders ? hash : undefined;
  try {
    return new Cell({ bits, refs });
  } finally {
    knownHash = undefined;
  }
}
