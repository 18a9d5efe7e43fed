/**
 * The message bodies the classifier reads, laid out and read as ton-indexer's classifier reads them
 * (`indexer/events/blocks/messages/*.py`): trailing data allowed, a field that does not parse fails the whole
 * body (the matcher then does not match), payloads kept as BoCs the way toncenter writes them (CRC32C, no
 * index), comments decoded with Python's rules (UTF-8 with invalid bytes as `\xNN`, NULs dropped).
 */
import { Address, type Cell, type Slice } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';

export const OP = {
  encryptedComment: 0x2167da4b,
  excess: 0xd53276db,
  bounced: 0xffffffff,
  jettonTransfer: 0x0f8a7ea5,
  jettonInternalTransfer: 0x178d4519,
  jettonNotify: 0x7362d09c,
  jettonBurn: 0x595f07bc,
  jettonBurnNotification: 0x7bdd97de,
  jettonMint: 0x642b7d07,
  minterJettonMint: 0x15,
  nftTransfer: 0x5fcc3d14,
  nftOwnershipAssigned: 0x05138d91,
  changeDnsRecord: 0x4eb1f0f9,
} as const;

/** A body read from after its 32-bit opcode. */
export function afterOpcode(body: Cell): Slice {
  const cs = body.beginParse();
  cs.skip(32);
  return cs;
}

/** BoC bytes, base64, as toncenter writes payloads. */
export const bocBase64 = (cell: Cell): string => cell.toBoc({ idx: false, crc32: true }).toString('base64');

/**
 * BoC bytes, base64, as pytoniq's `to_boc()` writes them by default (no index, no CRC32C: `te6ccg...`): toncenter
 * writes a vesting request's message and a multisig order so, where its payloads ask for the CRC explicitly.
 */
export const plainBocBase64 = (cell: Cell): string => cell.toBoc({ idx: false, crc32: false }).toString('base64');

/** A MsgAddress as raw uppercase; addr_none is null; an external address is refused (ton-indexer's AccountId refuses it). */
export function readAddress(cs: Slice): string | null {
  const value = cs.loadAddressAny();
  if (value === null) return null;
  if (!Address.isAddress(value)) throw new Error('an external address where an account was expected');
  return formatRawUpper(value);
}

function opened(body: Cell, opcode: number): Slice {
  const cs = body.beginParse();
  if (cs.loadUint(32) >>> 0 !== opcode) throw new Error(`not a body of op 0x${opcode.toString(16)}`);
  return cs;
}

const maybeRefBoc = (cs: Slice): string | null => {
  const ref = cs.loadMaybeRef();
  return ref ? bocBase64(ref) : null;
};

/** pytoniq's load_snake_bytes: whole bytes, at most one ref, at every level (else it throws). */
export function strictSnakeBytes(start: Slice): Buffer {
  const pieces: Buffer[] = [];
  for (let cs = start, depth = 0; ; depth++) {
    if (cs.remainingBits % 8 !== 0 || cs.remainingRefs > 1 || depth > 255) throw new Error('not a snake string');
    pieces.push(cs.loadBuffer(cs.remainingBits / 8));
    if (cs.remainingRefs === 0) return Buffer.concat(pieces);
    cs = cs.loadRef().beginParse();
  }
}

/** tonutils-go's LoadBinarySnake (ton-index-go reads NFT payload comments with it): whole bytes, then the first ref. */
function looseSnakeBytes(start: Slice): Buffer {
  const pieces: Buffer[] = [];
  for (let cs = start, depth = 0; depth < 256; depth++) {
    pieces.push(cs.loadBuffer(Math.floor(cs.remainingBits / 8)));
    if (cs.remainingRefs === 0) break;
    cs = cs.loadRef().beginParse();
  }
  return Buffer.concat(pieces);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Length of the valid UTF-8 sequence at `i`, or minus the length of its maximal invalid subpart. */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  if (lead < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) need = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    if (lead === 0xe0) lo = 0xa0;
    if (lead === 0xed) hi = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    if (lead === 0xf0) lo = 0x90;
    if (lead === 0xf4) hi = 0x8f;
  } else return -1;
  for (let k = 1; k <= need; k++) {
    const b = bytes[i + k];
    if (b === undefined || b < lo || b > hi) return -k;
    lo = 0x80;
    hi = 0xbf;
  }
  return need + 1;
}

/** UTF-8 text with each byte of an invalid sequence written by `bad` (Python's backslashreplace, Go's U+FFFD). */
function decodeUtf8(bytes: Buffer, bad: (byte: number) => string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    let out = '';
    for (let i = 0; i < bytes.length;) {
      const n = sequenceAt(bytes, i);
      if (n > 0) {
        out += bytes.subarray(i, i + n).toString('utf8');
        i += n;
      } else {
        for (let k = 0; k < -n; k++) out += bad(bytes[i + k]);
        i -= n;
      }
    }
    return out;
  }
}

/** A comment as ton-indexer's Python writes it: `decode('utf-8', errors='backslashreplace')`, NULs removed. */
export function pythonText(bytes: Buffer): string {
  return decodeUtf8(bytes, (b) => `\\x${b.toString(16).padStart(2, '0')}`).replaceAll('\u0000', '');
}

export interface TransferComment {
  comment: string | null;
  encrypted: boolean;
}

/** A TON transfer's body (TonTransferMessage): op 0 or the encrypted-comment op, then the comment if it reads as one. */
export function tonTransferComment(body: Cell): TransferComment {
  const cs = body.beginParse();
  if (cs.remainingBits < 32) return { comment: null, encrypted: false };
  const encrypted = cs.loadUint(32) >>> 0 === OP.encryptedComment;
  let bytes: Buffer | null = null;
  if (cs.remainingBits >= 8 && cs.remainingBits % 8 === 0 && cs.remainingRefs <= 1) {
    try {
      bytes = strictSnakeBytes(cs);
    } catch {
      bytes = null;
    }
  }
  if (bytes === null) return { comment: null, encrypted };
  return { comment: encrypted ? bytes.toString('base64') : pythonText(bytes), encrypted };
}

export interface JettonTransferBody {
  queryId: bigint;
  amount: bigint;
  destination: string | null;
  response: string | null;
  customPayload: string | null;
  forwardAmount: bigint;
  forwardPayload: string | null;
  /** The payload's comment (text, or base64 when encrypted), null when it is none. */
  comment: string | null;
  encryptedComment: boolean;
}

/** transfer#0f8a7ea5, with the forward payload's comment (JettonTransfer). */
export function jettonTransfer(body: Cell): JettonTransferBody {
  const cs = opened(body, OP.jettonTransfer);
  const queryId = cs.loadUintBig(64);
  const amount = cs.loadCoins();
  const destination = readAddress(cs);
  const response = readAddress(cs);
  const customPayload = maybeRefBoc(cs);
  const forwardAmount = cs.loadCoins();
  const result: JettonTransferBody = {
    queryId,
    amount,
    destination,
    response,
    customPayload,
    forwardAmount,
    forwardPayload: null,
    comment: null,
    encryptedComment: false,
  };
  if (cs.remainingBits === 0) return result;
  const payload = cs.loadBit() ? cs.loadRef().beginParse() : cs;
  if (payload.remainingBits === 0) return result;
  result.forwardPayload = bocBase64(payload.asCell());
  if (payload.remainingBits < 32) return result;
  const sumType = payload.loadUint(32) >>> 0;
  if (sumType !== 0 && sumType !== OP.encryptedComment) return result;
  try {
    const bytes = strictSnakeBytes(payload);
    result.encryptedComment = sumType === OP.encryptedComment;
    result.comment = result.encryptedComment ? bytes.toString('base64') : pythonText(bytes);
  } catch {
    // Not a comment after all: the payload stays, without one.
  }
  return result;
}

export interface InternalTransferBody {
  amount: bigint;
  forwardAmount: bigint;
}

/** internal_transfer#178d4519 (JettonInternalTransfer). */
export function jettonInternalTransfer(body: Cell): InternalTransferBody {
  const cs = opened(body, OP.jettonInternalTransfer);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  readAddress(cs);
  readAddress(cs);
  return { amount, forwardAmount: cs.loadCoins() };
}

/** burn#595f07bc: the amount. */
export function jettonBurnAmount(body: Cell): bigint {
  const cs = opened(body, OP.jettonBurn);
  cs.loadUintBig(64);
  return cs.loadCoins();
}

export interface JettonMintBody {
  /**
   * Read as pytoniq's load_address reads it (toncenter's JettonMint): an external address here does not stop the
   * body from parsing. toncenter needs it only when the master passed nothing on, and refuses an external one there.
   */
  to: LooseAddress;
  tonAmount: bigint;
  /** Only the minter's layout (op 0x15) carries it, in its internal_transfer. */
  masterAmount: bigint | null;
}

/** mint#642b7d07 (JettonMint) or the minter's mint#15 with its ^internal_transfer (MinterJettonMint). */
export function jettonMint(body: Cell, opcode: number): JettonMintBody {
  const cs = opened(body, opcode);
  cs.loadUintBig(64);
  const to = loadLooseAddress(cs);
  const tonAmount = cs.loadCoins();
  if (opcode !== OP.minterJettonMint) return { to, tonAmount, masterAmount: null };
  const master = cs.loadRef().beginParse();
  master.loadUint(32);
  master.loadUintBig(64);
  return { to, tonAmount, masterAmount: master.loadCoins() };
}

export interface NftTransferBody {
  queryId: bigint;
  newOwner: string | null;
  response: string | null;
  customPayload: string | null;
  forwardAmount: bigint;
  forwardPayload: string | null;
}

/** transfer#5fcc3d14 (NftTransfer): a forward payload whenever bits remain. */
export function nftTransfer(body: Cell): NftTransferBody {
  const cs = opened(body, OP.nftTransfer);
  const queryId = cs.loadUintBig(64);
  const newOwner = readAddress(cs);
  const response = readAddress(cs);
  const customPayload = maybeRefBoc(cs);
  const forwardAmount = cs.loadCoins();
  let forwardPayload: string | null = null;
  if (cs.remainingBits > 0) forwardPayload = bocBase64(cs.loadBit() ? cs.loadRef() : cs.asCell());
  return { queryId, newOwner, response, customPayload, forwardAmount, forwardPayload };
}

/** ownership_assigned#05138d91: the previous owner. */
export function nftPreviousOwner(body: Cell): string | null {
  const cs = opened(body, OP.nftOwnershipAssigned);
  cs.loadUintBig(64);
  return readAddress(cs);
}

export interface OwnershipAssignedBody {
  queryId: bigint;
  previousOwner: string | null;
  /** The payload (inline or in its ref) as a BoC; null when there is none or it does not read (toncenter drops it). */
  payload: string | null;
  /** The bid of a payload teleitem_bid_info#38127de1 bid:Coins bid_ts:uint32 (a Telegram item's auction won). */
  bid: bigint | null;
}

const TELEITEM_BID_INFO = 0x38127de1;

/** ownership_assigned#05138d91 with its payload, as toncenter's NftOwnershipAssigned reads it. */
export function ownershipAssigned(body: Cell): OwnershipAssignedBody {
  const cs = opened(body, OP.nftOwnershipAssigned);
  const queryId = cs.loadUintBig(64);
  const previousOwner = readAddress(cs);
  try {
    const cell = cs.loadBit() ? cs.loadRef() : cs.asCell();
    const p = cell.beginParse();
    let bid: bigint | null = null;
    // Fewer than 32 bits: a payload without an op, kept as it is.
    if (p.remainingBits >= 32 && p.loadUint(32) >>> 0 === TELEITEM_BID_INFO) {
      bid = p.loadCoins();
      p.loadUint(32); // bid_ts
    }
    return { queryId, previousOwner, payload: bocBase64(cell), bid };
  } catch {
    // No either bit, no ref, or a bid info that does not read: no payload at all.
    return { queryId, previousOwner, payload: null, bid: null };
  }
}

/**
 * The comment of an NFT transfer's forward payload as ton-index-go reads it (ParseCommentFromPayload): op 0 is
 * text, the encrypted op base64; anything else (or too short) no comment, not encrypted.
 */
export function payloadComment(payload: Cell): TransferComment {
  const cs = payload.beginParse();
  if (cs.remainingBits < 32) return { comment: null, encrypted: false };
  const op = cs.loadUint(32) >>> 0;
  if (op === OP.encryptedComment) return { comment: looseSnakeBytes(cs).toString('base64'), encrypted: true };
  if (op === 0) return { comment: decodeUtf8(looseSnakeBytes(cs), () => '\ufffd'), encrypted: false };
  return { comment: null, encrypted: false };
}

export type DnsValue =
  | { schema: 'DNSNextResolver' | 'DNSSmcAddress'; address: string | null; flags: number | null }
  | { schema: 'DNSAdnlAddress' | 'DNSStorageAddress'; hex: string; flags: number | null }
  | { schema: 'DNSText'; text: string }
  | { schema: 'Unknown' };

export interface ChangeDnsBody {
  /** The category, hex. */
  key: string;
  /** Absent: the record is deleted (key 0: the domain renewed). */
  value: DnsValue | null;
}

/** change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 value:(Maybe ^DNSRecord) (ChangeDnsRecordMessage). */
export function changeDnsRecord(body: Cell): ChangeDnsBody {
  const cs = opened(body, OP.changeDnsRecord);
  cs.loadUintBig(64);
  const key = cs.loadBuffer(32).toString('hex');
  if (cs.remainingRefs === 0) return { key, value: null };
  const v = cs.loadRef().beginParse();
  const schema = v.loadUint(16);
  switch (schema) {
    case 0xba93:
      return { key, value: { schema: 'DNSNextResolver', address: readAddress(v), flags: null } };
    case 0xad01:
      return { key, value: { schema: 'DNSAdnlAddress', hex: v.loadBuffer(32).toString('hex'), flags: v.loadUint(8) } };
    case 0x9fd3:
      return { key, value: { schema: 'DNSSmcAddress', address: readAddress(v), flags: v.loadUint(8) } };
    case 0x7473:
      return { key, value: { schema: 'DNSStorageAddress', hex: v.loadBuffer(32).toString('hex'), flags: null } };
    case 0x1eda: {
      // Every chunk is read from the record's own cell: ton-indexer never steps into the next one.
      let text = '';
      for (let chunks = v.loadUint(8); chunks > 0; chunks--) text += UTF8.decode(v.loadBuffer(v.loadUint(8)));
      return { key, value: { schema: 'DNSText', text } };
    }
    default:
      return { key, value: { schema: 'Unknown' } };
  }
}

/**
 * A MsgAddress as pytoniq's `load_address` reads it (pytoniq-core 0.1.40, ton-indexer's), which the cocoon and tgBTC
 * bodies are read with: addr_none, an external address (its length and bits as a number), a standard address (an
 * anycast prefix read and dropped from the answer); an addr_var is refused.
 */
export type LooseAddress = { kind: 'none' } | { kind: 'external'; bits: number; value: bigint } | { kind: 'internal'; raw: string };

export function loadLooseAddress(cs: Slice): LooseAddress {
  const tag = cs.loadUint(2);
  if (tag === 0) return { kind: 'none' };
  if (tag === 1) {
    const bits = cs.loadUint(9);
    // pytoniq reads zero bits as an error.
    if (bits === 0) throw new Error('an external address of no bits');
    return { kind: 'external', bits, value: cs.loadUintBig(bits) };
  }
  if (cs.loadBit()) {
    const depth = cs.loadUint(5);
    if (depth < 1) throw new Error('an anycast of depth 0');
    cs.skip(depth);
  }
  if (tag !== 2) throw new Error('an addr_var');
  const workchain = cs.loadInt(8);
  return { kind: 'internal', raw: `${workchain}:${cs.loadBuffer(32).toString('hex').toUpperCase()}` };
}

/** An account as ton-indexer's AccountId takes it: addr_none is null, an external address is refused. */
export function looseAccount(address: LooseAddress): string | null {
  if (address.kind === 'external') throw new Error('an external address where an account was expected');
  return address.kind === 'none' ? null : address.raw;
}
