/**
 * DEX liquidity of STON.fi v2 (ton-indexer's `blocks/liquidity.py`; DeDust's: dedust-liquidity.ts), whose jetton
 * legs need only opcodes, layouts and the jetton wallets the index detected (its TON legs name mainnet's pTON
 * masters: not built):
 *
 *   dex_deposit_liquidity   a jetton transfer into the router (its notification), the router's
 *                           provide_lp#37c096df to the pool, the pool's add_liquidity#50c6a654 to the LP account
 *                           and, once both sides are in, the account's cb_add_liquidity#06ecd527 with the pool's
 *                           LP mint (internal_transfer#178d4519) or a refund (#50c6a654 again: failed)
 *   dex_withdraw_liquidity  an LP burn (a `jetton_burn`) whose burn_notification_ext#297437cf made the pool send
 *                           pay_to#657b54f5 to the router for each token, each with its jetton transfer out
 *
 * One deposit per trace: toncenter also joins the two sides of a deposit sent in one trace (`deposit_part`); that
 * join is not built here, so each side is an action of its own.
 */
import { findCallContract, folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, jettonInternalTransfer, OP, readAddress } from './bodies.js';
import type { JettonBurnData, JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';

export const STONFI_V2_OP = {
  provideLp: 0x37c096df,
  addLiquidity: 0x50c6a654,
  cbAddLiquidity: 0x06ecd527,
  burnNotificationExt: 0x297437cf,
  payTo: 0x657b54f5,
  cbRefundMe: 0x0f98e2b8,
  refundMe: 0x132b9a2c,
} as const;

export interface DepositLiquidityData {
  dex: string;
  sender: string | null;
  pool: string | null;
  amount1: bigint;
  asset1: string | null;
  senderWallet1: string | null;
  lpTokensMinted: bigint | null;
}

export interface WithdrawLiquidityData {
  dex: string;
  sender: string | null;
  senderWallet: string | null;
  pool: string | null;
  lpAsset: string | null;
  lpTokensBurnt: bigint | null;
  outs: { amount: bigint; asset: string | null; userWallet: string | null }[];
}

/** provide_lp#37c096df query_id from_user:MsgAddress amount1:Coins amount2:Coins ... */
function provideLp(block: CallContractBlock) {
  const cs = afterOpcode(block.message.body());
  cs.loadUintBig(64);
  const fromUser = readAddress(cs);
  return { fromUser, amount1: cs.loadCoins(), amount2: cs.loadCoins() };
}

class ProvideLiquidityMatcher extends ContractMatcher {
  constructor() {
    const inTransfer = new OrMatcher([
      new BlockTypeMatcher('jetton_transfer'),
      new ContractMatcher(OP.jettonNotify, {
        parent: new ContractMatcher(OP.jettonInternalTransfer, { parent: new BlockTypeMatcher('jetton_transfer') }),
      }),
    ]);
    const callback = new ContractMatcher(STONFI_V2_OP.cbAddLiquidity, {
      optional: true,
      child: new OrMatcher([new ContractMatcher(OP.jettonInternalTransfer), new ContractMatcher(STONFI_V2_OP.addLiquidity)]),
    });
    super(STONFI_V2_OP.provideLp, { parent: inTransfer, child: new ContractMatcher(STONFI_V2_OP.addLiquidity, { child: callback }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const inTransfer = others.find((b) => b.type === 'jetton_transfer');
    if (!inTransfer) throw new Error('a deposit without its jetton transfer');
    const callback = findCallContract(others, STONFI_V2_OP.cbAddLiquidity);
    const after = callback?.nextBlocks.filter((b) => others.includes(b)) ?? [];
    const refunded = after.some((b) => isCallContract(b, STONFI_V2_OP.addLiquidity));
    const mint = after.find((b): b is CallContractBlock => isCallContract(b, OP.jettonInternalTransfer));
    const provided = provideLp(block);
    const transfer = inTransfer.data as JettonTransferData;
    const data: DepositLiquidityData = {
      dex: 'stonfi_v2',
      sender: provided.fromUser,
      pool: block.message.destination,
      amount1: provided.amount1 > 0n ? provided.amount1 : provided.amount2,
      asset1: transfer.asset,
      senderWallet1: transfer.senderWallet,
      lpTokensMinted: mint ? jettonInternalTransfer(mint.message.body()).amount : null,
    };
    return folded('dex_deposit_liquidity', data, [block, ...others], refunded);
  }
}

class WithdrawLiquidityMatcher extends ContractMatcher {
  constructor() {
    const refunded = new ContractMatcher(STONFI_V2_OP.cbRefundMe, { parent: new ContractMatcher(STONFI_V2_OP.refundMe) });
    const burnt = new ContractMatcher(STONFI_V2_OP.burnNotificationExt, { parent: new BlockTypeMatcher('jetton_burn') });
    super(STONFI_V2_OP.payTo, { parent: new OrMatcher([refunded, burnt]), child: new BlockTypeMatcher('jetton_transfer') });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const payouts: Block[] = [block];
    const extra: Block[] = [];
    for (const sibling of block.previousBlock?.nextBlocks ?? []) {
      if (sibling === block || others.includes(sibling) || !isCallContract(sibling, STONFI_V2_OP.payTo)) continue;
      const transfers = sibling.nextBlocks.filter((b) => b.type === 'jetton_transfer');
      if (transfers.length > 0) {
        payouts.push(sibling);
        extra.push(...transfers);
      }
    }
    const outs: WithdrawLiquidityData['outs'] = [];
    for (const payout of payouts) {
      const transfer = payout.nextBlocks.find((b) => b.type === 'jetton_transfer');
      if (!transfer) continue;
      const t = transfer.data as JettonTransferData;
      outs.push({ amount: t.amount, asset: t.asset, userWallet: t.receiverWallet });
    }
    let sender: string | null = null;
    let senderWallet: string | null = null;
    let lpAsset: string | null = null;
    let lpTokensBurnt: bigint | null = null;
    const burnExt = findCallContract(others, STONFI_V2_OP.burnNotificationExt);
    const refund = findCallContract(others, STONFI_V2_OP.cbRefundMe);
    if (burnExt) {
      const burn = burnExt.previousBlock;
      if (burn?.type !== 'jetton_burn') return [];
      const d = burn.data as JettonBurnData;
      [sender, senderWallet, lpAsset, lpTokensBurnt] = [d.owner, d.wallet, d.asset, d.amount];
    } else if (refund) {
      sender = refund.previousBlock?.eventNodes[0].message.source ?? null;
    }
    const data: WithdrawLiquidityData = {
      dex: 'stonfi_v2',
      sender,
      senderWallet,
      pool: block.message.source,
      lpAsset,
      lpTokensBurnt,
      outs,
    };
    // toncenter leaves a withdrawal's `failed` at its default.
    return folded('dex_withdraw_liquidity', data, [...payouts, ...others, ...extra], false);
  }
}

export const stonfiV2ProvideLiquidityMatcher = (): Matcher => new ProvideLiquidityMatcher();
export const stonfiV2WithdrawLiquidityMatcher = (): Matcher => new WithdrawLiquidityMatcher();
