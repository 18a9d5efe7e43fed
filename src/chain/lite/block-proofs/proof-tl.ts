/**
 * liteServer.getBlockProof's answer as TON's lite API has it since v2026.04: a forward link's signature set is either
 * the ordinary form (liteServer.signatureSet, signed catchain blocks) or the simplex form
 * (liteServer.signatureSet.simplex, finalize votes of the Simplex consensus). ton-lite-client's schema knows only
 * the first and throws on the second ("Unknown type: -1406887936"), so the answer is decoded here; the request, and
 * every part of the answer the schema does know, stay ton-lite-client's.
 *
 *   liteServer.signatureSet.simplex#ac249800 cc_seqno:int validator_set_hash:int
 *     signatures:(vector liteServer.signature) session_id:int256 slot:int candidate:bytes = liteServer.SignatureSet;
 *
 * (its first two ints are in the opposite order to the ordinary form's validator_set_hash, catchain_seqno).
 */
import { TLReadBuffer, type TLFunction } from 'ton-tl';
import { Codecs, Functions } from 'ton-lite-client/dist/schema.js';
import type {
  liteServer_blockLinkBack,
  liteServer_blockLinkForward,
  liteServer_getBlockProof,
  liteServer_signature,
  liteServer_signatureSet,
  tonNode_blockIdExt,
} from 'ton-lite-client/dist/schema.js';

/** TL constructor ids (int32, as read), crc32 of each declaration. */
const PARTIAL_BLOCK_PROOF = -1898917183; // 0x8ed0d2c1
const BLOCK_LINK_BACK = -276947985; // 0xef7e1bef
const BLOCK_LINK_FORWARD = 1376767516; // 0x520fce1c
const SIGNATURE_SET_ORDINARY = -163272986; // 0xf644a6e6
const SIGNATURE_SET_SIMPLEX = -1406887936; // 0xac249800

export interface SimplexSignatureSet {
  readonly kind: 'liteServer.signatureSet.simplex';
  readonly catchainSeqno: number;
  readonly validatorSetHash: number;
  readonly signatures: liteServer_signature[];
  readonly sessionId: Buffer;
  readonly slot: number;
  /** A boxed consensus.CandidateHashData, as the validators hashed it (simplex-signatures.ts reads it). */
  readonly candidate: Buffer;
}

export type AnySignatureSet = liteServer_signatureSet | SimplexSignatureSet;

export type ForwardLink = Omit<liteServer_blockLinkForward, 'signatures'> & { readonly signatures: AnySignatureSet };

export type BlockLink = liteServer_blockLinkBack | ForwardLink;

export interface PartialBlockProof {
  readonly kind: 'liteServer.partialBlockProof';
  readonly complete: boolean;
  readonly from: tonNode_blockIdExt;
  readonly to: tonNode_blockIdExt;
  readonly steps: BlockLink[];
}

export function decodeSignatureSet(d: TLReadBuffer): AnySignatureSet {
  const kind = d.readInt32();
  if (kind === SIGNATURE_SET_ORDINARY) return Codecs.liteServer_signatureSet.decode(d);
  if (kind !== SIGNATURE_SET_SIMPLEX) throw new Error(`unknown liteServer.SignatureSet constructor ${hexId(kind)}`);
  const catchainSeqno = d.readInt32();
  const validatorSetHash = d.readInt32();
  const signatures = d.readVector(Codecs.liteServer_signature.decode);
  const sessionId = d.readInt256();
  const slot = d.readInt32();
  const candidate = d.readBuffer();
  return { kind: 'liteServer.signatureSet.simplex', catchainSeqno, validatorSetHash, signatures, sessionId, slot, candidate };
}

function decodeBlockLink(d: TLReadBuffer): BlockLink {
  const kind = d.readInt32();
  if (kind === BLOCK_LINK_BACK) return Codecs.liteServer_blockLinkBack.decode(d);
  if (kind !== BLOCK_LINK_FORWARD) throw new Error(`unknown liteServer.BlockLink constructor ${hexId(kind)}`);
  const toKeyBlock = d.readBool();
  const from = Codecs.tonNode_blockIdExt.decode(d);
  const to = Codecs.tonNode_blockIdExt.decode(d);
  const destProof = d.readBuffer();
  const configProof = d.readBuffer();
  const signatures = decodeSignatureSet(d);
  return { kind: 'liteServer.blockLinkForward', toKeyBlock, from, to, destProof, configProof, signatures };
}

/** A whole boxed liteServer.partialBlockProof (the answer of getBlockProof, as the server sends it). */
export function decodePartialBlockProof(d: TLReadBuffer): PartialBlockProof {
  const kind = d.readInt32();
  if (kind !== PARTIAL_BLOCK_PROOF) throw new Error(`not a liteServer.partialBlockProof (constructor ${hexId(kind)})`);
  const complete = d.readBool();
  const from = Codecs.tonNode_blockIdExt.decode(d);
  const to = Codecs.tonNode_blockIdExt.decode(d);
  const steps = d.readVector(decodeBlockLink);
  return { kind: 'liteServer.partialBlockProof', complete, from, to, steps };
}

/** liteServer.getBlockProof with an answer decoder that knows both signature set forms. */
export const getBlockProof: TLFunction<liteServer_getBlockProof, PartialBlockProof> = {
  encodeRequest: (src, encoder) => Functions.liteServer_getBlockProof.encodeRequest(src, encoder),
  decodeResponse: (decoder) => decodePartialBlockProof(decoder),
};

/** Decodes answer bytes (a captured answer, a test's): throws on a bad or truncated answer. */
export function readPartialBlockProof(bytes: Buffer): PartialBlockProof {
  return decodePartialBlockProof(new TLReadBuffer(bytes));
}

function hexId(id: number): string {
  return `0x${(id >>> 0).toString(16).padStart(8, '0')}`;
}
