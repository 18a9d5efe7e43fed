/**
 * swap.coffee liquidity (ton-indexer's `CoffeeDepositLiquidityMatcher` and `CoffeeWithdrawLiquidityMatcher` in
 * `blocks/liquidity.py`, bodies of `messages/coffee.py`):
 *
 *   coffee_deposit_liquidity  an asset reaches its vault (a jetton transfer, or TON with
 *                             deposit_liquidity_native#c0ffee04), the vault's
 *                             create_liquidity_depository_request#c0ffee27 (the amount, the pool's two assets, the
 *                             user), deploy#c0ffee22 of the liquidity depository and, once both assets are in, the
 *                             depository's deposit_liquidity_internal#c0ffee29 to the pool, which mints the LP
 *                             (internal_transfer), logs deposit_liquidity_successful_event#c0ffee33 and may pay back
 *                             what was not needed (payout_internal#c0ffee21 and the vault's payout)
 *   dex_withdraw_liquidity    an LP burn (a `jetton_burn`: the pool is the LP master) after which the pool sends
 *                             payout_internal#c0ffee21 to the vault of each of its two assets, each vault paying
 *                             the user (TON with payout#c0ffee32 or notification#c0ffee36, or a jetton transfer),
 *                             and logs liquidity_withdrawal_event#c0ffee35 (both amounts)
 *
 * Kept as toncenter decides it: a withdrawal's two payouts and the log are required; the amounts are the log's, in the order of
 * the pool's payouts; a payout's asset is TON unless a jetton transfer follows it; for a TON payout the user's
 * "jetton wallet" is the payout's receiver (the user), as toncenter writes it; never failed. A deposit is one
 * action per asset brought (the block type `coffee_deposit_liquidity`, answered as `dex_deposit_liquidity`), in
 * the `_1` slots when the asset is the pool's first, else in the `_2` slots with the target assets swapped; no
 * target amounts; the pool and LP tokens only on the side that completed it; never failed.
 */
import type { Cell } from '@ton/core';
import { findCallContract, folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, jettonInternalTransfer, OP, readAddress } from './bodies.js';
import { COFFEE_OP, coffeeAsset } from './coffee-swaps.js';
import type { JettonBurnData, JettonTransferData } from './jettons.js';
import type { WithdrawLiquidityData } from './liquidity.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import { str, assetAmounts, type ActionParts } from './details-common.js';

export const COFFEE_LIQUIDITY_OP = {
  withdrawalEvent: 0xc0ffee35,
  depositNative: 0xc0ffee04,
  depositoryRequest: 0xc0ffee27,
  deploy: 0xc0ffee22,
  depositInternal: 0xc0ffee29,
  depositEvent: 0xc0ffee33,
} as const;

/** The block type (answered as dex_deposit_liquidity; hashed into the action id). */
export const COFFEE_DEPOSIT = 'coffee_deposit_liquidity';

export interface CoffeeDepositData {
  sender: string | null;
  pool: string | null;
  depository: string | null;
  /** The asset brought in the pool's slot it fills (the other slot null). */
  amounts: [bigint | null, bigint | null];
  assets: [string | null, string | null];
  userWallets: [string | null, string | null];
  targets: [string | null, string | null];
  lpTokensMinted: bigint | null;
  vaultExcesses: { asset: string | null; amount: bigint }[];
}

/**
 * create_liquidity_depository_request#c0ffee27 query_id amount:Coins params:^[recipient use_recipient_on_failure:int1]
 * pool_params:^[first:Asset second:Asset amm:(## 3) amm_settings:(Maybe ^Cell)] sender proof:^Cell.
 */
function depositoryRequest(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  const params = cs.loadRef().beginParse();
  readAddress(params);
  params.loadBit();
  const pool = cs.loadRef().beginParse();
  const assets: [string | null, string | null] = [coffeeAsset(pool), coffeeAsset(pool)];
  pool.loadUint(3);
  pool.loadMaybeRef();
  const sender = readAddress(cs);
  cs.loadRef();
  return { amount, assets, sender };
}

/** deposit_liquidity_successful_event#c0ffee33 query_id amount1 amount2 lp_amount total_supply reserves: the LP. */
export function depositEvent(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadCoins();
  cs.loadCoins();
  const lp = cs.loadCoins();
  for (let i = 0; i < 4; i++) cs.loadCoins();
  return lp;
}

/** payout_internal#c0ffee21 to a vault, with the vault's payout: TON (payout, notification) or a jetton transfer. */
const vaultPayout = (optional = false): Matcher =>
  new ContractMatcher(COFFEE_OP.payoutInternal, {
    optional,
    child: new OrMatcher([
      new BlockTypeMatcher('jetton_transfer'),
      new ContractMatcher(COFFEE_OP.payout),
      new ContractMatcher(COFFEE_OP.notification),
    ]),
  });

class CoffeeDepositMatcher extends ContractMatcher {
  constructor() {
    const lpTransfer = new ContractMatcher(OP.jettonInternalTransfer, { child: new ContractMatcher(OP.excess, { optional: true }) });
    const depositInternal = new ContractMatcher(COFFEE_LIQUIDITY_OP.depositInternal, {
      optional: true,
      children: [lpTransfer, new ContractMatcher(COFFEE_LIQUIDITY_OP.depositEvent), vaultPayout(true)],
    });
    super(COFFEE_LIQUIDITY_OP.depositoryRequest, {
      parent: new OrMatcher([new ContractMatcher(COFFEE_LIQUIDITY_OP.depositNative), new BlockTypeMatcher('jetton_transfer')]),
      child: new ContractMatcher(COFFEE_LIQUIDITY_OP.deploy, { child: depositInternal }),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const inTransfer = block.previousBlock;
    if (!inTransfer || !others.includes(inTransfer)) throw new Error('a swap.coffee deposit without its transfer in');
    const jetton = inTransfer.type === 'jetton_transfer' ? (inTransfer.data as JettonTransferData) : null;
    const asset = jetton ? jetton.asset : null;
    const request = depositoryRequest(block.message.body());
    // toncenter builds nothing for an asset that is not one of the pool's.
    if (request.assets[0] !== asset && request.assets[1] !== asset) return [];
    const slot: 0 | 1 = request.assets[0] === asset ? 0 : 1;
    const deploy = findCallContract(others, COFFEE_LIQUIDITY_OP.deploy);
    if (!deploy) throw new Error('a swap.coffee deposit without its depository');
    const amounts: [bigint | null, bigint | null] = [null, null];
    const assets: [string | null, string | null] = [null, null];
    const userWallets: [string | null, string | null] = [null, null];
    amounts[slot] = request.amount;
    assets[slot] = asset;
    userWallets[slot] = jetton ? jetton.senderWallet : null;

    const internal = findCallContract(deploy.nextBlocks, COFFEE_LIQUIDITY_OP.depositInternal);
    const done = internal && others.includes(internal) ? internal.nextBlocks.filter((b) => others.includes(b)) : [];
    let pool: string | null = null;
    let lpTokensMinted: bigint | null = null;
    const event = findCallContract(done, COFFEE_LIQUIDITY_OP.depositEvent);
    if (event) [pool, lpTokensMinted] = [event.message.source, depositEvent(event.message.body())];
    const mint = findCallContract(done, OP.jettonInternalTransfer);
    if (mint && (pool === null || lpTokensMinted === null))
      [pool, lpTokensMinted] = [mint.message.source, jettonInternalTransfer(mint.message.body()).amount];
    const vaultExcesses: CoffeeDepositData['vaultExcesses'] = [];
    const paidBack = findCallContract(done, COFFEE_OP.payoutInternal);
    const back = paidBack?.nextBlocks.find(
      (b) =>
        others.includes(b) &&
        (b.type === 'jetton_transfer' || isCallContract(b, COFFEE_OP.payout) || isCallContract(b, COFFEE_OP.notification)),
    );
    if (back?.type === 'jetton_transfer') {
      const t = back.data as JettonTransferData;
      vaultExcesses.push({ asset: t.asset, amount: t.amount });
    } else if (back && isCallContract(back)) vaultExcesses.push({ asset: null, amount: back.message.value ?? 0n });

    const data: CoffeeDepositData = {
      sender: request.sender,
      pool,
      depository: deploy.message.destination,
      amounts,
      assets,
      userWallets,
      targets: slot === 0 ? request.assets : [request.assets[1], request.assets[0]],
      lpTokensMinted,
      vaultExcesses,
    };
    return folded(COFFEE_DEPOSIT, data, [block, ...others], false);
  }
}

export const coffeeDepositLiquidityMatcher = (): Matcher => new CoffeeDepositMatcher();

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
    super('jetton_burn', { children: [vaultPayout(), vaultPayout(), new ContractMatcher(COFFEE_LIQUIDITY_OP.withdrawalEvent)] });
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

/**
 * A swap.coffee deposit (toncenter fills it with DeDust's filler): the depository is the secondary destination, but
 * ton-index-go answers the pool as `destination_liquidity` (its DeDust exception names the dex); no target amounts.
 */
export function coffeeDepositParts(d: CoffeeDepositData): ActionParts {
  return {
    type: 'dex_deposit_liquidity',
    details: {
      dex: 'coffee',
      amount_1: str(d.amounts[0]),
      amount_2: str(d.amounts[1]),
      asset_1: d.assets[0],
      asset_2: d.assets[1],
      user_jetton_wallet_1: d.userWallets[0],
      user_jetton_wallet_2: d.userWallets[1],
      source: d.sender,
      pool: d.pool,
      destination_liquidity: d.pool,
      lp_tokens_minted: str(d.lpTokensMinted),
      target_asset_1: d.targets[0],
      target_asset_2: d.targets[1],
      target_amount_1: null,
      target_amount_2: null,
      vault_excesses: assetAmounts(d.vaultExcesses),
      tick_lower: null,
      tick_upper: null,
      nft_index: null,
      nft_address: null,
    },
    ends: [d.sender, null, d.pool, d.depository],
  };
}
