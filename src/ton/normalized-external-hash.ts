/**
 * The hash of an external-in message's normalized form (TEP "normalized message hash"): source addr_none,
 * import_fee 0, no init, the body as a reference. Wallets and explorers find a transfer by it, and tongate
 * computes it for every external message it accepts, seals, renders or emulates.
 *
 * The normalized cell has a fixed layout, so its representation hash is computed directly from the destination
 * and the body's hash and depth (one SHA-256 of 71 bytes), without building a Builder, a Cell and their hashes:
 *   ext_in_msg_info$10 src:addr_none$00 dest:addr_std$10 anycast:0 workchain:int8 address:bits256
 *   import_fee:(VarUInteger 16) = 0 (4 bits) init:nothing$0 body:right$1 ^X     277 bits, 1 reference
 * A body of another level or an exotic body (never seen in an external message) takes @ton/core's way.
 */
import * as crypto from 'node:crypto';
import { beginCell, type Address, type Cell } from '@ton/core';

const BITS = 277;
/** Descriptor bytes: d1 = 1 reference, ordinary, level 0; d2 = floor(bits / 8) + ceil(bits / 8). */
const D1 = 1;
const D2 = Math.floor(BITS / 8) + Math.ceil(BITS / 8);
const DATA_BYTES = Math.ceil(BITS / 8);

/** One-shot SHA-256 where node has it (20.12+): no Hash object per message (as core-speedups.ts hashes cells). */
const sha256: (source: Buffer) => Buffer =
  typeof crypto.hash === 'function'
    ? (source) => crypto.hash('sha256', source, 'buffer')
    : (source) => crypto.createHash('sha256').update(source).digest();

export function normalizedExternalHash(destination: Address, body: Cell): Buffer {
  if (body.isExotic || body.level() !== 0 || destination.workChain < -128 || destination.workChain > 127) {
    return slowNormalizedHash(destination, body);
  }
  // 2 descriptor bytes, 35 data bytes, the body's depth (2 bytes) and hash (32 bytes).
  // From the pool, zeroed (the address's bits are OR-ed in).
  const out = Buffer.allocUnsafe(2 + DATA_BYTES + 2 + 32).fill(0);
  out[0] = D1;
  out[1] = D2;
  const data = out.subarray(2, 2 + DATA_BYTES);
  // The first 7 bits: 10 00 10 0; then the workchain's 8 bits from bit 7 on.
  const workchain = destination.workChain & 0xff;
  data[0] = 0b1000_1000 | (workchain >> 7);
  data[1] = (workchain << 1) & 0xff;
  // The 256-bit address from bit 15 on: each byte split over two data bytes.
  const hash = destination.hash;
  for (let i = 0; i < 32; i++) {
    data[1 + i] |= hash[i] >> 7;
    data[2 + i] = (hash[i] << 1) & 0xff;
  }
  // Bit 271 (data[33]) and 272..274: import_fee's length 0; 275: init nothing (0); 276: body in a reference (1); 277: the end tag.
  data[34] = 0b0000_1100;
  out.writeUInt16BE(body.depth(), 2 + DATA_BYTES);
  body.hash().copy(out, 2 + DATA_BYTES + 2);
  return sha256(out);
}

function slowNormalizedHash(destination: Address, body: Cell): Buffer {
  return beginCell()
    .storeUint(0b10, 2) // ext_in_msg_info$10
    .storeUint(0, 2) // src: addr_none$00
    .storeAddress(destination)
    .storeCoins(0) // import_fee
    .storeBit(false) // init: nothing
    .storeBit(true) // body: ^X
    .storeRef(body)
    .endCell()
    .hash();
}
