/**
 * swap.coffee liquidity withdrawals (ton-indexer's `CoffeeWithdrawLiquidityMatcher` in `blocks/liquidity.py`, bodies
 * of `messages/coffee.py`), one `dex_withdraw_liquidity` with dex `coffee`:
 *
 *   an LP burn (a `jetton_burn`: the pool is the LP master) after which the pool sends payout_internal#c0ffee21 to
 *   the vault of each of its two assets, each vault paying the user (TON with payout#c0ffee32 or
 *   notification#c0ffee36, or a jetton transfer), and logs liquidity_withdrawal_event#c0ffee35 (both amounts).
 *
 * Kept as toncenter decides it: both payouts and the log are required; the amounts are the log's, in the order of
 * the pool's payouts; a payout's asset is TON unless a jetton transfer follows it; for a TON payout the user's
 * "jetton wallet" is the payout's receiver (the user), as toncenter writes it; never failed. Deposits
 * (`coffee_deposit_liquidity`) are not built.
 */
import type { Cell } from '@ton/core';
import { findCallContract, folded, isCallContract, type Block } from './blocks.js';
import { afterOpcode } from './bodies.js';
import { COFFEE_OP } from './coffee-swaps.js';
import type { JettonBurnData, JettonTransferData } from './jettons.js';
import type { WithdrawLiquidityData } from './liquidity.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';

export const COFFEE_LIQUIDITY_OP = { withdrawalEvent: 0xc0ffee35 } as const;

/** liquidity_withdrawal_event#c0ffee35 query_id amount1:Coins amount2:Coins lp_amount:Coins total_supply reserves. */
function withdrawalEvent(body: Cell): [bigint, bigint] {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amounts: [bigint, bigint] = [cs.loadCoins(), cs.loadCoins()];
  cs.loadCoins(); // lp_amount
  // total_supply and reserves (two pairs of coins, inline as toncenter reads them).
  for (let i = 0; i < 4; i++) cs.loadCoins();
  return amounts;
}

class CoffeeWithdrawMatcher extends BlockTypeMatcher {
  constructor() {
    const payout = () =>
      new ContractMatcher(COFFEE_OP.payoutInternal, {
        child: new OrMatcher([
          new BlockTypeMatcher('jetton_transfer'),
          new ContractMatcher(COFFEE_OP.payout),
          new ContractMatcher(COFFEE_OP.notification),
        ]),
      });
    super('jetton_burn', { children: [payout(), payout(), new ContractMatcher(COFFEE_LIQUIDITY_OP.withdrawalEvent)] });
  }

  override build(block: Block, others: Block[]): Block[] {
    const burn = block.data as JettonBurnData;
    const log = findCallContract(others, COFFEE_LIQUIDITY_OP.withdrawalEvent);
    if (!log) throw new Error('a swap.coffee withdrawal without its log');
    const amounts = withdrawalEvent(log.message.body());
    const payouts = block.nextBlocks.filter((b) => others.includes(b) && isCallContract(b, COFFEE_OP.payoutInternal)).slice(0, 2);
    const outs: WithdrawLiquidityData['outs'] = payouts.map((payout, i) => {
      let asset: string | null = null;
      let userWallet: string | null = null;
      for (const next of payout.nextBlocks) {
        if (next.type === 'jetton_transfer') {
          const t = next.data as JettonTransferData;
          [asset, userWallet] = [t.asset, t.receiverWallet];
          break;
        }
        if (isCallContract(next, COFFEE_OP.payout)) {
          userWallet = next.message.destination;
          break;
        }
      }
      return { amount: amounts[i], asset, userWallet };
    });
    const data: WithdrawLiquidityData = {
      dex: 'coffee',
      sender: burn.owner,
      senderWallet: burn.wallet,
      pool: log.message.source,
      lpAsset: burn.asset,
      lpTokensBurnt: burn.amount,
      outs,
    };
    return folded('dex_withdraw_liquidity', data, [block, ...others], false);
  }
}

export const coffeeWithdrawLiquidityMatcher = (): Matcher => new CoffeeWithdrawMatcher();
