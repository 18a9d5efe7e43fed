/**
 * DeDust v2 (CPMM v2) claims of a liquidity position (ton-indexer v1.3's `blocks/dedust_v2/claims.py`, bodies of
 * `messages/dedust_v2.py`), recognised by opcodes alone as toncenter does:
 *
 *   dedust_v2_claim_fees    claim_position_fees#5652f1df to the pool, its claim_available_fees#25f19752 to the
 *                           position, the position's payout_position_fees#29ff1bcf back to the pool (the exact x/y
 *                           fees), then the pool's payouts (a jetton transfer, or payout#3216ca09 for TON) and excess
 *   dedust_v2_claim_reward  claim_reward#909fdb65 to the pool, claim_position_reward#2e0cccba to the position,
 *                           payout_reward#9e17fbbe back to the pool (the amount), its payout and excess
 *
 * Kept as toncenter decides it: never failed; the amounts are the position's (also when a side paid nothing, so had
 * no payout: its asset and wallets stay null); a payout goes to the x side when its amount is the x fees, else to
 * the y side when it is the y fees (so equal fees fill x first); TON is a null asset. No excess is taken along
 * but the one after payout_*.
 */
import type { Cell } from '@ton/core';
import { findCallContract, folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { OP, afterOpcode, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, OrMatcher, type Matcher } from './matcher.js';
import { str, type ActionParts } from './details-common.js';

export const DEDUST_V2_OP = {
  claimPositionFees: 0x5652f1df,
  claimAvailableFees: 0x25f19752,
  payoutPositionFees: 0x29ff1bcf,
  claimReward: 0x909fdb65,
  claimPositionReward: 0x2e0cccba,
  payoutReward: 0x9e17fbbe,
  payout: 0x3216ca09,
} as const;

/** One side paid out: the asset (null for TON), the user's jetton wallet and the pool's. */
export interface DedustV2Payout {
  asset: string | null;
  userWallet: string | null;
  dexWallet: string | null;
}

export interface DedustV2ClaimFeesData {
  sender: string | null;
  pool: string | null;
  position: string | null;
  amountX: bigint;
  amountY: bigint;
  x: DedustV2Payout | null;
  y: DedustV2Payout | null;
}

export interface DedustV2ClaimRewardData {
  sender: string | null;
  pool: string | null;
  position: string | null;
  amount: bigint;
  payout: DedustV2Payout | null;
}

const NO_EXCESS = { includeExcess: false } as const;

/**
 * A payout leg (v1.3's `dedust_v2/common.py`, shared with the withdrawals): a jetton transfer, or the pool's
 * payout#3216ca09 of TON; optional (a side with nothing to pay).
 */
export const payoutLeg = (): Matcher =>
  new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(DEDUST_V2_OP.payout, NO_EXCESS)], { optional: true });
const excess = (): Matcher => new ContractMatcher(OP.excess, { optional: true, includeExcess: false });

export const isPayout = (b: Block): boolean => b.type === 'jetton_transfer' || isCallContract(b, DEDUST_V2_OP.payout);

/** A payout's amount and side; it throws on a TON payout that does not parse (the claim is then not recognised). */
export function readPayout(block: Block): { amount: bigint; payout: DedustV2Payout } {
  if (block.type === 'jetton_transfer') {
    const t = block.data as JettonTransferData;
    return { amount: t.amount, payout: { asset: t.asset, userWallet: t.receiverWallet, dexWallet: t.senderWallet } };
  }
  const cs = afterOpcode((block as CallContractBlock).message.body());
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  cs.loadInt(32);
  cs.loadMaybeRef();
  return { amount, payout: { asset: null, userWallet: null, dexWallet: null } };
}

/** The payouts after the pool's step, by lt. */
export const payoutsAfter = (step: Block, others: Block[]): Block[] =>
  step.nextBlocks.filter((b) => others.includes(b) && isPayout(b)).sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));

/** payout_position_fees#29ff1bcf query_id x_fees:Coins y_fees:Coins owner excesses_to. */
function payoutPositionFees(body: Cell): { x: bigint; y: bigint } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const fees = { x: cs.loadCoins(), y: cs.loadCoins() };
  readAddress(cs);
  readAddress(cs);
  return fees;
}

/** payout_reward#9e17fbbe query_id amount:Coins reward_index:uint2 owner excesses_to. */
function payoutReward(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  cs.loadUint(2);
  readAddress(cs);
  readAddress(cs);
  return amount;
}

/** claim_reward#909fdb65 query_id reward_index:uint2 excesses_to: read only to refuse a body that is not one. */
function checkClaimReward(body: Cell): void {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadUint(2);
  readAddress(cs);
}

/**
 * Both claims walk the same chain: the claim to the pool, the pool's call to the position, the position's payout
 * back to the pool; each step found among the matched blocks (`others`). The payout step, or undefined.
 */
function payoutStep(claim: CallContractBlock, others: Block[], toPosition: number, payout: number): CallContractBlock | undefined {
  const among = (b: Block) => b.nextBlocks.filter((next) => others.includes(next));
  const position = findCallContract(among(claim), toPosition);
  return position && findCallContract(among(position), payout);
}

class DedustV2ClaimFeesMatcher extends ContractMatcher {
  constructor() {
    const payout = new ContractMatcher(DEDUST_V2_OP.payoutPositionFees, { ...NO_EXCESS, children: [payoutLeg(), payoutLeg(), excess()] });
    const claimAvailable = new ContractMatcher(DEDUST_V2_OP.claimAvailableFees, { ...NO_EXCESS, child: payout });
    super(DEDUST_V2_OP.claimPositionFees, { ...NO_EXCESS, child: claimAvailable });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const payout = payoutStep(block, others, DEDUST_V2_OP.claimAvailableFees, DEDUST_V2_OP.payoutPositionFees);
    if (!payout) return [];
    const fees = payoutPositionFees(payout.message.body());
    const data: DedustV2ClaimFeesData = {
      sender: block.message.source,
      pool: block.message.destination,
      position: payout.message.source,
      amountX: fees.x,
      amountY: fees.y,
      x: null,
      y: null,
    };
    for (const leg of payoutsAfter(payout, others)) {
      const paid = readPayout(leg);
      if (paid.amount === fees.x && data.x === null) data.x = paid.payout;
      else if (paid.amount === fees.y && data.y === null) data.y = paid.payout;
    }
    return folded('dedust_v2_claim_fees', data, [block, ...others], false);
  }
}

class DedustV2ClaimRewardMatcher extends ContractMatcher {
  constructor() {
    const payout = new ContractMatcher(DEDUST_V2_OP.payoutReward, { ...NO_EXCESS, children: [payoutLeg(), excess()] });
    const claimPosition = new ContractMatcher(DEDUST_V2_OP.claimPositionReward, { ...NO_EXCESS, child: payout });
    super(DEDUST_V2_OP.claimReward, { ...NO_EXCESS, child: claimPosition });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const payout = payoutStep(block, others, DEDUST_V2_OP.claimPositionReward, DEDUST_V2_OP.payoutReward);
    if (!payout) return [];
    checkClaimReward(block.message.body());
    const leg = payout.nextBlocks.find((b) => others.includes(b) && isPayout(b));
    const data: DedustV2ClaimRewardData = {
      sender: block.message.source,
      pool: block.message.destination,
      position: payout.message.source,
      amount: payoutReward(payout.message.body()),
      payout: leg ? readPayout(leg).payout : null,
    };
    return folded('dedust_v2_claim_reward', data, [block, ...others], false);
  }
}

/** In toncenter's order: after DeDust v2's swaps and liquidity. */
export const dedustV2ClaimMatchers = (): Matcher[] => [new DedustV2ClaimFeesMatcher(), new DedustV2ClaimRewardMatcher()];

/** DeDust v2's claims (ton-index-go's ActionDetailsDedustV2ClaimFees/ClaimReward): the position is the secondary end. */
export function dedustV2ClaimFeesParts(d: DedustV2ClaimFeesData): ActionParts {
  return {
    details: {
      dex: 'dedust_v2',
      source: d.sender,
      pool: d.pool,
      position: d.position,
      asset_1: d.x?.asset ?? null,
      asset_2: d.y?.asset ?? null,
      amount_1: str(d.amountX),
      amount_2: str(d.amountY),
      user_jetton_wallet_1: d.x?.userWallet ?? null,
      user_jetton_wallet_2: d.y?.userWallet ?? null,
      dex_jetton_wallet_1: d.x?.dexWallet ?? null,
      dex_jetton_wallet_2: d.y?.dexWallet ?? null,
    },
    ends: [d.sender, null, d.pool, d.position],
  };
}

export function dedustV2ClaimRewardParts(d: DedustV2ClaimRewardData): ActionParts {
  return {
    details: {
      dex: 'dedust_v2',
      source: d.sender,
      pool: d.pool,
      position: d.position,
      asset: d.payout?.asset ?? null,
      amount: str(d.amount),
      user_jetton_wallet: d.payout?.userWallet ?? null,
      dex_jetton_wallet: d.payout?.dexWallet ?? null,
    },
    ends: [d.sender, null, d.pool, d.position],
  };
}
