/**
 * `jetton_swap` of DeDust v2 (CPMM v2; ton-indexer v1.3's `blocks/dedust_v2/swaps.py`, bodies of
 * `messages/dedust_v2.py`), recognised by opcodes as toncenter does:
 *
 *   a swap         the asset brought to the pool (pay_native#a5a7cbf8 with TON, or a jetton transfer whose forward
 *                  payload is pay_jetton#cbc33949) whose payment payload is swap#c442500f; each pool's swap
 *                  log#78e79ba4 (its amounts); then either the next pool's carrier (a multi-hop route) or the
 *                  payout: a jetton transfer, or payout#3216ca09 of TON. Failed when a pool's transaction aborted
 *                  or its compute phase ended with a code other than 0.
 *   a failed swap  the same carrier without a swap log, answered with its refund (payout#3216ca09 with a non-zero
 *                  exit code back to the sender, or the same jetton back to the sender): failed, nothing out; the
 *                  asset asked for is the pool's other asset when the index knows the pool.
 *
 * `min_out_amount` is the route's last step's minimum (ton-index-go answers it for DeDust v2 as for TONCO); TON is a
 * null asset; a route of one pool has no peer swaps.
 */
import { Cell, type Slice } from '@ton/core';
import { folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { OP, afterOpcode } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import type { JettonSwapData, PeerSwap, SwapTransfer } from './swaps.js';
import type { KnownContracts } from './trace-input.js';

export const DEDUST_V2_SWAP_OP = {
  payNative: 0xa5a7cbf8,
  payJetton: 0xcbc33949,
  swapPayload: 0xc442500f,
  swapLog: 0x78e79ba4,
  payout: 0x3216ca09,
} as const;

const NO_EXCESS = { includeExcess: false } as const;

const hasSwapLog = (block: Block): boolean => block.nextBlocks.some((b) => isCallContract(b, DEDUST_V2_SWAP_OP.swapLog));
const isJettonCarrier = (block: Block): boolean => block.type === 'jetton_transfer' && hasSwapLog(block);

/** swap#c442500f minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep) ...: the last step's minimum. */
function finalMinOut(payload: Slice): bigint {
  let minOut = payload.loadCoins();
  payload.loadUint(40);
  let next = payload.loadMaybeRef();
  for (let depth = 0; next !== null && depth < 16; depth++) {
    const step = next.beginParse();
    step.loadAddress();
    minOut = step.loadCoins();
    step.loadUint(40);
    next = step.loadMaybeRef();
  }
  return minOut;
}

/** The swap payload inside a payment (pay_native's or pay_jetton's first ref), or null when it pays for something else. */
function swapPayload(payment: Cell): Slice | null {
  const cs = payment.beginParse();
  if (cs.remainingBits < 32 || cs.loadUint(32) >>> 0 !== DEDUST_V2_SWAP_OP.swapPayload) return null;
  return cs;
}

/** pay_native#a5a7cbf8 query_id amount:Coins ^payment ^payout_config: the amount and the swap, or null. */
function nativeSwap(block: CallContractBlock): { amount: bigint; payload: Slice } | null {
  try {
    const cs = afterOpcode(block.message.body());
    cs.loadUintBig(64);
    const amount = cs.loadCoins();
    const payload = swapPayload(cs.loadRef());
    cs.loadRef();
    return payload ? { amount, payload } : null;
  } catch {
    return null;
  }
}

/** A jetton transfer's forward payload as pay_jetton#cbc33949 ^payment ^payout_config with a swap, or null. */
function jettonSwap(block: Block): Slice | null {
  if (block.type !== 'jetton_transfer') return null;
  const forward = (block.data as JettonTransferData).forwardPayload;
  if (forward === null) return null;
  try {
    const cs = Cell.fromBase64(forward).beginParse();
    if (cs.loadUint(32) >>> 0 !== DEDUST_V2_SWAP_OP.payJetton) return null;
    const payload = swapPayload(cs.loadRef());
    cs.loadRef();
    return payload;
  } catch {
    return null;
  }
}

const payloadOf = (block: Block): Slice | null =>
  block.type === 'jetton_transfer' ? jettonSwap(block) : (nativeSwap(block as CallContractBlock)?.payload ?? null);

function minOutOf(block: Block): bigint | null {
  const payload = payloadOf(block);
  if (!payload) return null;
  try {
    return finalMinOut(payload);
  } catch {
    return null;
  }
}

/** swap log#78e79ba4 x_to_y:Bool amount_in:Coins amount_out:Coins ...: the pool's amounts. */
function swapLog(block: CallContractBlock): { amountIn: bigint; amountOut: bigint } {
  const cs = afterOpcode(block.message.body());
  cs.loadBit();
  return { amountIn: cs.loadCoins(), amountOut: cs.loadCoins() };
}

const assetOf = (block: Block): string | null => (block.type === 'jetton_transfer' ? (block.data as JettonTransferData).asset : null);

/** A transfer's ends: a jetton transfer's, or a TON message's source and destination without wallets. */
function ends(block: Block): Omit<SwapTransfer, 'asset' | 'amount'> {
  if (block.type === 'jetton_transfer') {
    const t = block.data as JettonTransferData;
    return { source: t.sender, sourceJettonWallet: t.senderWallet, destination: t.receiver, destinationJettonWallet: t.receiverWallet };
  }
  const m = (block as CallContractBlock).message;
  return { source: m.source, sourceJettonWallet: null, destination: m.destination, destinationJettonWallet: null };
}

const inOthers = (block: Block, others: Block[]): Block[] => block.nextBlocks.filter((b) => others.includes(b));
const isCarrierOrOut = (b: Block): boolean =>
  b.type === 'jetton_transfer' || isCallContract(b, DEDUST_V2_SWAP_OP.payNative) || isCallContract(b, DEDUST_V2_SWAP_OP.payout);

class DedustV2SwapMatcher extends Matcher {
  constructor() {
    // Each hop: its swap log, then the next hop or the payout, and an excess; the hops' children are these same three.
    const hopChildren: Matcher[] = [];
    const nativeHop = new ContractMatcher(DEDUST_V2_SWAP_OP.payNative, { ...NO_EXCESS, children: hopChildren });
    const jettonHop = new (class extends Matcher {
      override test(block: Block): boolean {
        return isJettonCarrier(block);
      }
    })({ ...NO_EXCESS, children: hopChildren });
    const out = new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(DEDUST_V2_SWAP_OP.payout, NO_EXCESS)]);
    hopChildren.push(
      new ContractMatcher(DEDUST_V2_SWAP_OP.swapLog, NO_EXCESS),
      new OrMatcher([nativeHop, jettonHop, out]),
      new ContractMatcher(OP.excess, { optional: true, includeExcess: false }),
    );
    super({ ...NO_EXCESS, children: hopChildren });
  }

  override test(block: Block): boolean {
    return isCallContract(block, DEDUST_V2_SWAP_OP.payNative) || isJettonCarrier(block);
  }

  override build(block: Block, others: Block[]): Block[] {
    if (isCallContract(block, DEDUST_V2_SWAP_OP.payNative) && !nativeSwap(block)) return [];
    // The route, carrier by carrier: each one's swap log, then the next carrier or the payout.
    const carriers: Block[] = [block];
    const logs: CallContractBlock[] = [];
    let out: Block | null = null;
    for (let carrier: Block = block; out === null;) {
      const next = inOthers(carrier, others);
      const log = next.find((b): b is CallContractBlock => isCallContract(b, DEDUST_V2_SWAP_OP.swapLog));
      const continuation = next.find(isCarrierOrOut);
      if (!log || !continuation) return [];
      logs.push(log);
      const isHop =
        (isCallContract(continuation, DEDUST_V2_SWAP_OP.payNative) || isJettonCarrier(continuation)) &&
        inOthers(continuation, others).some((b) => isCallContract(b, DEDUST_V2_SWAP_OP.swapLog));
      if (isHop) carriers.push((carrier = continuation));
      else out = continuation;
    }
    // A payout that still carries a swap: the route stopped half way (toncenter leaves it).
    if (jettonSwap(out) !== null) return [];
    const amounts = logs.map(swapLog);
    const assets = [...carriers.map(assetOf), assetOf(out)];
    const peerSwaps: PeerSwap[] =
      amounts.length > 1
        ? amounts.map((a, i) => ({ assetIn: assets[i], amountIn: a.amountIn, assetOut: assets[i + 1], amountOut: a.amountOut }))
        : [];
    const incoming = ends(block);
    const data: JettonSwapData = {
      dex: 'dedust_v2',
      sender: incoming.source,
      incoming: { asset: assets[0], amount: amounts[0].amountIn, ...incoming },
      outgoing: { asset: assetOf(out), amount: amounts[amounts.length - 1].amountOut, ...ends(out) },
      destinationAsset: assetOf(out),
      destinationWallet: null,
      assets: { in: assets[0], out: assetOf(out) },
      peerSwaps,
      minOutAmount: minOutOf(block),
    };
    // toncenter: failed when a pool's transaction aborted or its compute phase ended with a code other than 0 (a
    // skipped compute phase, no code, is no failure).
    const failed = logs.some(({ eventNodes: [{ tx }] }) => tx.aborted || (tx.exitCode != null && tx.exitCode !== 0));
    return folded('jetton_swap', data, [block, ...others], failed);
  }
}

/** payout#3216ca09 query_id amount:Coins exit_code:int32: the exit code. */
function payoutExitCode(block: CallContractBlock): number {
  const cs = afterOpcode(block.message.body());
  cs.loadUintBig(64);
  cs.loadCoins();
  return cs.loadInt(32);
}

class DedustV2FailedSwapMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    const refund = new OrMatcher([new ContractMatcher(DEDUST_V2_SWAP_OP.payout, NO_EXCESS), new BlockTypeMatcher('jetton_transfer')]);
    super({ ...NO_EXCESS, children: [refund, new ContractMatcher(OP.excess, { optional: true, includeExcess: false })] });
  }

  override test(block: Block): boolean {
    return isCallContract(block, DEDUST_V2_SWAP_OP.payNative) || jettonSwap(block) !== null;
  }

  override build(block: Block, others: Block[]): Block[] {
    if (hasSwapLog(block)) return [];
    const refund = inOthers(block, others).find((b) => b.type === 'jetton_transfer' || isCallContract(b, DEDUST_V2_SWAP_OP.payout));
    if (!refund) return [];
    let incoming: SwapTransfer;
    let payload: Slice;
    if (block.type === 'jetton_transfer') {
      const t = block.data as JettonTransferData;
      const swap = jettonSwap(block);
      if (!swap || refund.type !== 'jetton_transfer') return [];
      const back = refund.data as JettonTransferData;
      if (back.asset !== t.asset || back.receiver !== t.sender) return [];
      incoming = { asset: t.asset, amount: t.amount, ...ends(block) };
      payload = swap;
    } else {
      const native = nativeSwap(block as CallContractBlock);
      if (!native || !isCallContract(refund, DEDUST_V2_SWAP_OP.payout)) return [];
      if (payoutExitCode(refund) === 0) return [];
      const m = (block as CallContractBlock).message;
      if (refund.message.destination !== m.source) return [];
      incoming = { asset: null, amount: native.amount, ...ends(block) };
      payload = native.payload;
    }
    let minOut: bigint | null;
    try {
      minOut = finalMinOut(payload);
    } catch {
      minOut = null;
    }
    const pool = this.contracts.dexPools?.get(incoming.destination ?? '');
    const asked = pool ? (pool.assets.find((a) => a !== incoming.asset) ?? null) : null;
    const data: JettonSwapData = {
      dex: 'dedust_v2',
      sender: incoming.source,
      incoming,
      outgoing: {
        asset: asked,
        amount: 0n,
        source: incoming.destination,
        sourceJettonWallet: null,
        destination: incoming.source,
        destinationJettonWallet: null,
      },
      destinationAsset: asked,
      destinationWallet: null,
      assets: { in: incoming.asset, out: asked },
      peerSwaps: [],
      minOutAmount: minOut,
    };
    return folded('jetton_swap', data, [block, ...others], true);
  }
}

/** In toncenter's order, right after DeDust v1's swaps. */
export const dedustV2SwapMatchers = (contracts: KnownContracts): Matcher[] => [
  new DedustV2SwapMatcher(),
  new DedustV2FailedSwapMatcher(contracts),
];
