/**
 * CRC-32C by a 256-entry table, as @ton/core computes it one bit at a time (eight steps per byte): a BoC's checksum,
 * checked on every BoC read that carries one and written by every `toBoc()` (core-speedups.ts installs it).
 */
/** CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), as @ton/core's: 4 bytes, little-endian. */
const CRC32C_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

export function crc32cTable(source: Uint8Array): Buffer {
  let crc = -1;
  for (let n = 0; n < source.length; n++) crc = CRC32C_TABLE[(crc ^ source[n]) & 0xff] ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeInt32LE(crc ^ -1);
  return out;
}
