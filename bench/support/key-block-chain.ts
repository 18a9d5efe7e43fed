/**
 * A synthetic mainnet-sized chain of key blocks for `bench:lite-trust`: `count` key blocks, each carrying a config
 * whose param 34 has the shape of a real mainnet set (the captures': its size, its masterchain part, its weights)
 * with keys made here, each linked to the next by a getBlockProof forward link signed by ~95 % of the masterchain
 * validators' weight; then one link to an ordinary head. Proofs are what a liteserver sends: the destination's
 * header with the rest of the block pruned, the source's header and its extra down to the config.
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { beginCell, Cell, Dictionary, type Builder, type Slice } from '@ton/core';
import type { liteServer_blockLinkForward, tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { masterchainValidators, configValidators, nodeIdShort, type Validator } from '../../src/chain/lite/block-proofs/validator-set.js';

const TON_BLOCK_ID = Buffer.from('706e0bc5', 'hex');

export interface KeyBlockChain {
  init: tonNode_blockIdExt;
  links: liteServer_blockLinkForward[];
  head: tonNode_blockIdExt;
}

function merkleProof(cell: Cell): Buffer {
  return beginCell()
    .storeUint(3, 8)
    .storeBuffer(cell.hash(0))
    .storeUint(cell.depth(0), 16)
    .storeRef(cell)
    .endCell({ exotic: true })
    .toBoc();
}

function pruned(cell: Cell): Cell {
  return beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(cell.hash(0)).storeUint(cell.depth(0), 16).endCell({ exotic: true });
}

/** `shape`: the real set whose size and weights are copied (the captures' first key block). */
export function buildKeyBlockChain(
  count: number,
  shape: { total: number; main: number; weights: bigint[] },
  startSeqno = 43_792_209,
): KeyBlockChain {
  const keys: { privateKey: KeyObject; publicKey: Buffer }[] = Array.from({ length: shape.total }, () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    return { privateKey, publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url') };
  });
  const descr = { serialize: (v: Cell, b: Builder) => b.storeSlice(v.beginParse()), parse: (s: Slice) => s.asCell() };
  const list = Dictionary.empty(Dictionary.Keys.Uint(16), descr);
  keys.forEach((k, i) =>
    list.set(
      i,
      beginCell()
        .storeUint(0x73, 8)
        .storeUint(0x8e81278a, 32)
        .storeBuffer(k.publicKey)
        .storeUint(shape.weights[i % shape.weights.length], 64)
        .storeBuffer(randomBytes(32))
        .endCell(),
    ),
  );
  const totalWeight = shape.weights.reduce((a, b) => a + b, 0n);
  const p34 = beginCell()
    .storeUint(0x12, 8)
    .storeUint(0, 32)
    .storeUint(0xffffffff, 32)
    .storeUint(shape.total, 16)
    .storeUint(shape.main, 16)
    .storeUint(totalWeight, 64)
    .storeDict(list)
    .endCell();
  const p28 = beginCell()
    .storeUint(0xc2, 8)
    .storeUint(0, 7)
    .storeBit(true)
    .storeUint(65536, 32)
    .storeUint(65536, 32)
    .storeUint(65536, 32)
    .storeUint(23, 32)
    .endCell();
  const params = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  params.set(34, p34);
  params.set(28, p28);
  const config = beginCell().storeDictDirect(params).endCell();
  const validators = configValidators(config);
  const byNodeId = new Map(keys.map((k) => [nodeIdShort(k.publicKey).toString('hex'), k]));

  const empty = beginCell().endCell();
  const mcExtra = beginCell()
    .storeUint(0xcca5, 16)
    .storeBit(true)
    .storeBit(false)
    .storeBit(false)
    .storeCoins(0)
    .storeBit(false)
    .storeCoins(0)
    .storeBit(false)
    .storeRef(empty)
    .storeUint(0, 256)
    .storeRef(config)
    .endCell();
  const extra = beginCell()
    .storeUint(0x4a33f6fd, 32)
    .storeRef(empty)
    .storeRef(empty)
    .storeRef(empty)
    .storeUint(0, 256)
    .storeUint(0, 256)
    .storeBit(true)
    .storeRef(mcExtra)
    .endCell();
  const stateUpdate = beginCell().storeUint(7, 32).endCell();

  /** A masterchain block: its header names seqno, key block flag, catchain and validator list hash. */
  const block = (seqno: number, keyBlock: boolean, ccSeqno: number, hashShort: number) => {
    const info = beginCell()
      .storeUint(0x9bc7a987, 32)
      .storeUint(0, 32)
      .storeBit(false)
      .storeBit(false)
      .storeBit(false)
      .storeBit(false)
      .storeBit(false)
      .storeBit(false)
      .storeBit(keyBlock)
      .storeBit(false)
      .storeUint(0, 8)
      .storeUint(seqno, 32)
      .storeUint(0, 32)
      .storeUint(0, 2)
      .storeUint(0, 6)
      .storeInt(-1, 32)
      .storeUint(0, 64)
      .storeUint(1_700_000_000 + seqno, 32)
      .storeUint(BigInt(seqno) * 1_000_000n, 64)
      .storeUint(BigInt(seqno) * 1_000_000n + 10n, 64)
      .storeUint(hashShort >>> 0, 32)
      .storeUint(ccSeqno, 32)
      .storeUint(0, 32)
      .storeUint(0, 32)
      .endCell();
    const root = beginCell()
      .storeUint(0x11ef55aa, 32)
      .storeInt(-239, 32)
      .storeRef(info)
      .storeRef(empty)
      .storeRef(stateUpdate)
      .storeRef(keyBlock ? extra : empty)
      .endCell();
    const id: tonNode_blockIdExt = {
      kind: 'tonNode.blockIdExt',
      workchain: -1,
      shard: '-9223372036854775808',
      seqno,
      rootHash: root.hash(),
      fileHash: randomBytes(32),
    };
    const header = beginCell()
      .storeUint(0x11ef55aa, 32)
      .storeInt(-239, 32)
      .storeRef(info)
      .storeRef(pruned(empty))
      .storeRef(pruned(stateUpdate))
      .storeRef(pruned(keyBlock ? extra : empty))
      .endCell();
    const withConfig = beginCell()
      .storeUint(0x11ef55aa, 32)
      .storeInt(-239, 32)
      .storeRef(info)
      .storeRef(pruned(empty))
      .storeRef(pruned(stateUpdate))
      .storeRef(extra)
      .endCell();
    return { id, destProof: merkleProof(header), configProof: keyBlock ? merkleProof(withConfig) : Buffer.alloc(0) };
  };

  const step = 162_000; // a validator rotation's worth of seqnos at ~400 ms a block
  let from = block(startSeqno, true, 1, 0);
  const init = from.id;
  const links: liteServer_blockLinkForward[] = [];
  for (let i = 1; i <= count + 1; i++) {
    const keyBlock = i <= count;
    const ccSeqno = 1000 + i;
    const set = masterchainValidators(validators, ccSeqno);
    const to = block(startSeqno + i * step - (keyBlock ? 0 : step / 2), keyBlock, ccSeqno, set.hashShort);
    const signed = Buffer.concat([TON_BLOCK_ID, to.id.rootHash, to.id.fileHash]);
    const signers = [...set.byNodeId.keys()].slice(0, Math.ceil(set.byNodeId.size * 0.95));
    links.push({
      kind: 'liteServer.blockLinkForward',
      toKeyBlock: keyBlock,
      from: from.id,
      to: to.id,
      destProof: to.destProof,
      configProof: from.configProof,
      signatures: {
        kind: 'liteServer.signatureSet',
        validatorSetHash: set.hashShort | 0, // TL int: signed
        catchainSeqno: ccSeqno,
        signatures: signers.map((id) => ({
          kind: 'liteServer.signature',
          nodeIdShort: Buffer.from(id, 'hex'),
          signature: sign(null, signed, byNodeId.get(id)!.privateKey),
        })),
      },
    } as liteServer_blockLinkForward);
    from = to;
  }
  return { init, links, head: links[links.length - 1].to };
}

/** The size and weights of a real validator set (a forward link's source config), for buildKeyBlockChain. */
export function setShape(validators: { total: number; main: number; list: Validator[] }): {
  total: number;
  main: number;
  weights: bigint[];
} {
  return { total: validators.total, main: validators.main, weights: validators.list.map((v) => v.weight) };
}
