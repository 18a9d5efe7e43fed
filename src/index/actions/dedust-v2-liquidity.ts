/**
 * DeDust v2 (CPMM v2) liquidity (ton-indexer v1.3's `blocks/dedust_v2/liquidity.py`, bodies of
 * `messages/dedust_v2.py`), recognised by opcodes alone as toncenter does. A v2 position is no LP jetton: the share
 * sits in the user's Position contract.
 *
 *   dex_withdraw_liquidity  withdraw#20b5ef89 to the pool, its withdraw_liquidity#bc1531a9 to the position, the
 *                           position's exit_liquidity#f6f6a3aa back to the pool, whose withdrawal log#c0d77b54 gives
 *                           the liquidity burnt and whose payouts (a jetton transfer, or payout#3216ca09 of TON) the
 *                           amounts; failed without the log (the pool refused, say on slippage: the liquidity asked
 *                           for is then the one burnt). A withdrawal that also claims fees (auto_claim_fees) is none:
 *                           its payouts mix the two, toncenter leaves it.
 *
 * Kept as toncenter decides it: the payouts in lt order fill the first slot, then the second; no LP wallet nor LP
 * asset; `is_refund` null (ton-index-go never fills it); no excess taken along (the pool's stays a contract call).
 */
import type { Cell } from '@ton/core';
import { folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, readAddress } from './bodies.js';
import { payoutLeg, payoutsAfter, readPayout } from './dedust-v2-claims.js';
import type { WithdrawLiquidityData } from './liquidity.js';
import { ContractMatcher, type Matcher } from './matcher.js';

export const DEDUST_V2_LIQUIDITY_OP = {
  withdraw: 0x20b5ef89,
  withdrawLiquidity: 0xbc1531a9,
  exitLiquidity: 0xf6f6a3aa,
  withdrawalLog: 0xc0d77b54,
} as const;

const NO_EXCESS = { includeExcess: false } as const;

/** withdraw#20b5ef89 query_id liquidity:Coins minimal_x_out:Coins minimal_y_out:Coins auto_claim_fees:Bool ^payout_config. */
function withdrawRequest(body: Cell): { liquidity: bigint; autoClaimFees: boolean } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const liquidity = cs.loadCoins();
  cs.loadCoins();
  cs.loadCoins();
  const autoClaimFees = cs.loadBit();
  cs.loadRef();
  return { liquidity, autoClaimFees };
}

/** withdrawal#c0d77b54 liquidity:Coins amount_x_out:Coins amount_y_out:Coins initiator recipient ^next_state (no query id). */
function withdrawalLog(body: Cell): bigint {
  const cs = afterOpcode(body);
  const liquidity = cs.loadCoins();
  cs.loadCoins();
  cs.loadCoins();
  readAddress(cs);
  readAddress(cs);
  cs.loadRef();
  return liquidity;
}

const inOthers = (block: Block, others: Block[]): Block[] => block.nextBlocks.filter((b) => others.includes(b));

class DedustV2WithdrawMatcher extends ContractMatcher {
  constructor() {
    const exit = new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.exitLiquidity, {
      ...NO_EXCESS,
      children: [new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.withdrawalLog, { ...NO_EXCESS, optional: true }), payoutLeg(), payoutLeg()],
    });
    const toPosition = new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.withdrawLiquidity, { ...NO_EXCESS, child: exit });
    super(DEDUST_V2_LIQUIDITY_OP.withdraw, { ...NO_EXCESS, child: toPosition });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    let request: ReturnType<typeof withdrawRequest>;
    try {
      request = withdrawRequest(block.message.body());
    } catch {
      return [];
    }
    if (request.autoClaimFees) return [];
    const toPosition = inOthers(block, others).find((b): b is CallContractBlock =>
      isCallContract(b, DEDUST_V2_LIQUIDITY_OP.withdrawLiquidity),
    );
    const exit = toPosition && inOthers(toPosition, others).find((b) => isCallContract(b, DEDUST_V2_LIQUIDITY_OP.exitLiquidity));
    if (!exit) return [];
    const log = inOthers(exit, others).find((b): b is CallContractBlock => isCallContract(b, DEDUST_V2_LIQUIDITY_OP.withdrawalLog));
    // A TON payout that does not parse makes no withdrawal (toncenter bails).
    const outs = payoutsAfter(exit, others).map((leg) => {
      const paid = readPayout(leg);
      return { amount: paid.amount, asset: paid.payout.asset, userWallet: paid.payout.userWallet };
    });
    const data: WithdrawLiquidityData = {
      dex: 'dedust_v2',
      sender: block.message.source,
      senderWallet: null,
      pool: block.message.destination,
      lpAsset: null,
      lpTokensBurnt: log ? withdrawalLog(log.message.body()) : request.liquidity,
      outs: outs.slice(0, 2),
    };
    return folded('dex_withdraw_liquidity', data, [block, ...others], !log);
  }
}

/** In toncenter's order: after DeDust v2's swaps, before its claims. */
export const dedustV2LiquidityMatchers = (): Matcher[] => [new DedustV2WithdrawMatcher()];
