/**
 * LayerZero v2's TON cells as toncenter's classifier reads them (ton-indexer's `messages/layerzero.py`): its
 * typed cells open with a fixed header number and a run of one-bits (the filler), then the fields; a header or a
 * filler that is not the expected one makes the cell unreadable (the matcher that asked does not match).
 *
 * Numbers are shown as toncenter shows them: the 256-bit ones (OApps, msglibs, guids) as Python's `hex()` (no
 * leading zeros: `0x63bd...` for `0x063bd...`), a packet's message as its cell's bits in hex, padded to whole bytes.
 */
import type { Cell, Slice } from '@ton/core';

export const LZ_OP = {
  endpointSend: 0xdd4ea3b4,
  channelSend: 0x536feb09,
  msglibConnectionSend: 0x4002b790,
  ulnSend: 0x5de68393,
  msglibSendCallback: 0x421c1a25,
  channelSendCallback: 0xa2b5fbae,
  event: 0xe33b9873,
  channelLzReceivePrepare: 0x22f3ac09,
  lzReceivePrepare: 0x97df404c,
  lzReceiveLock: 0xb7680bc6,
  lzReceiveExecute: 0x0c7b8418,
  lzReceiveExecuteCallback: 0xcaae25a1,
  ulnCommitPacket: 0x28b97077,
  ulnConnectionCommitPacket: 0xf9d37b80,
  endpointCommitPacket: 0x5dab749a,
  channelCommitPacket: 0x5388cd88,
  msglibConnectionCommitPacketCallback: 0x5e178f33,
  dvnVerify: 0xa0d51a8d,
  proxyCallContract: 0x09f047d9,
  ulnVerify: 0x994aaf4e,
  ulnConnectionVerify: 0x4ec8f80a,
  ulnConnectionVerifyCallback: 0x3cb38090,
} as const;

/** The header numbers of the cells read here, and how many bits header and filler take. */
const PACKET = { header: 417359019239977417716476838698419835n, headerBits: 152, fillerBits: 198 };
const PATH = { header: 8903714975572488637007080065659n, headerBits: 152, fillerBits: 198 };
const LZ_SEND = { header: 582890735024998957421269964955452773563747974476099581n, headerBits: 180, fillerBits: 90 };
const VERIFICATION_STATUS = { header: 38421788582694199859296615363593851n, headerBits: 116, fillerBits: 234 };
/** md::LzSend opens with its name, "lzSend" in 80 bits. */
const LZ_SEND_NAME = BigInt('0x' + Buffer.from('lzSend').toString('hex'));

/** The dvn verification outcomes toncenter names; any other code is `unknown_<code>`. */
const VERIFY_STATUS = new Map<number, string>([
  [0x3bbc306b, 'succeeded'],
  [0x7fcbb4ac, 'nonce_out_of_range'],
  [0x29c53fab, 'dvn_not_configured'],
]);

export interface LzPacket {
  srcOapp: string;
  dstOapp: string;
  srcEid: number;
  dstEid: number;
  nonce: bigint;
  guid: string;
  message: string;
}

export interface LzSend {
  sendRequestId: bigint;
  msglibManager: string;
  msglib: string;
  packet: LzPacket;
  nativeFee: bigint;
  zroFee: bigint;
}

const pyHex = (value: bigint): string => '0x' + value.toString(16);

function openTyped(cell: Cell | Slice, layout: { header: bigint; headerBits: number; fillerBits: number }): Slice {
  const cs = 'beginParse' in cell ? cell.beginParse() : cell;
  if (cs.loadUintBig(layout.headerBits) !== layout.header) throw new Error('not the expected LayerZero cell');
  if (cs.loadUintBig(layout.fillerBits) !== (1n << BigInt(layout.fillerBits)) - 1n) throw new Error('LayerZero filler not all ones');
  return cs;
}

/** A cell's data bits as hex, the last byte padded with zero bits (Python's `bits.tobytes().hex()`). */
function bitsHex(cell: Cell): string {
  const bytes = Buffer.alloc(Math.ceil(cell.bits.length / 8));
  for (let i = 0; i < cell.bits.length; i++) if (cell.bits.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  return '0x' + bytes.toString('hex');
}

/** lz::Packet: path ref, message ref, nonce:uint64, guid:uint256. */
export function readPacket(cell: Cell): LzPacket {
  const cs = openTyped(cell, PACKET);
  const path = openTyped(cs.loadRef(), PATH);
  const message = cs.loadRef();
  return {
    srcEid: path.loadUint(32),
    srcOapp: pyHex(path.loadUintBig(256)),
    dstEid: path.loadUint(32),
    dstOapp: pyHex(path.loadUintBig(256)),
    nonce: cs.loadUintBig(64),
    guid: pyHex(cs.loadUintBig(256)),
    message: bitsHex(message),
  };
}

/** md::LzSend: request id, msglib manager and msglib, the packet, the options, and a ref with the fees. */
export function readLzSend(cell: Cell): LzSend {
  const cs = cell.beginParse();
  if (cs.loadUintBig(80) !== LZ_SEND_NAME) throw new Error('not an lzSend');
  const rest = openTyped(cs, LZ_SEND);
  const sendRequestId = rest.loadUintBig(64);
  const msglibManager = pyHex(rest.loadUintBig(256));
  const msglib = pyHex(rest.loadUintBig(256));
  const packet = readPacket(rest.loadRef());
  rest.loadRef();
  const fees = rest.loadRef().beginParse();
  fees.loadUintBig(256);
  return { sendRequestId, msglibManager, msglib, packet, nativeFee: fees.loadUintBig(128), zroFee: fees.loadUintBig(128) };
}

/** Layerzero::CHANNEL_SEND_CALLBACK: the lzSend three refs deep (where toncenter finds it). */
export const sendCallbackLzSend = (body: Cell): LzSend => readLzSend(body.refs[0].refs[0].refs[0]);

/** A message carrying a packet two refs deep (LZ_RECEIVE_EXECUTE, CHANNEL_COMMIT_PACKET). */
export const nestedPacket = (body: Cell): LzPacket => readPacket(body.refs[0].refs[0]);

/** ULN_CONNECTION_VERIFY_CALLBACK: md::VerificationStatus (nonce:uint64, status:uint32) in its first ref's first ref. */
export function verificationStatus(body: Cell): { nonce: bigint; status: string } {
  const cs = openTyped(body.refs[0].refs[0], VERIFICATION_STATUS);
  const nonce = cs.loadUintBig(64);
  const code = cs.loadUint(32);
  return { nonce, status: VERIFY_STATUS.get(code) ?? `unknown_${code}` };
}
