/**
 * DEX liquidity of STON.fi v2 (ton-indexer's `blocks/liquidity.py`; DeDust's: dedust-liquidity.ts), whose jetton
 * legs need only opcodes, layouts and the jetton wallets the index detected, and whose TON legs go through the
 * router's pTON wallet (pton.ts: mainnet's pTON masters, as toncenter knows them):
 *
 *   dex_deposit_liquidity   a jetton transfer into the router (its notification), or TON sent to the router's pTON
 *                           wallet (ton_transfer#01f3835d, then the wallet's notification: the asset is TON, no
 *                           user wallet), the router's provide_lp#37c096df to the pool, the pool's
 *                           add_liquidity#50c6a654 to the LP account and, once both sides are in, the account's
 *                           cb_add_liquidity#06ecd527 with the pool's LP mint (internal_transfer#178d4519) or a
 *                           refund (#50c6a654 again: failed)
 *   dex_withdraw_liquidity  an LP burn (a `jetton_burn`) whose burn_notification_ext#297437cf made the pool send
 *                           pay_to#657b54f5 to the router for each token, each with its jetton transfer out; a
 *                           transfer of pTON whose wallet passed the TON on (ton_transfer#01f3835d) pays TON, its
 *                           amount the TON passed on, no user wallet
 *
 * Both sides of a deposit sent by one request (a jetton transfer and TON through pTON, say) are one action, as
 * toncenter joins them (`deposit_part`): the side matched second is `amount_1`/`asset_1`, the one built before it
 * `amount_2`/`asset_2`, the LP tokens whichever minted them. Sides sent by different requests stay apart.
 */
import { Block, findCallContract, folded, isCallContract, type CallContractBlock } from './blocks.js';
import { afterOpcode, jettonInternalTransfer, OP, readAddress } from './bodies.js';
import type { JettonBurnData, JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import { PTON_TON_TRANSFER, ptonTonAmount } from './pton.js';

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
  /** The other side, when both sides of the deposit were sent in this trace (toncenter's `deposit_part`). */
  amount2: bigint | null;
  asset2: string | null;
  senderWallet2: string | null;
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

const isStonfiV2Deposit = (block: Block): boolean =>
  block.type === 'dex_deposit_liquidity' && (block.data as DepositLiquidityData | null)?.dex === 'stonfi_v2';

/** A deposit of STON.fi v2 already built (the other side of one sent in the same request). */
class StonfiV2DepositMatcher extends Matcher {
  override test(block: Block): boolean {
    return isStonfiV2Deposit(block);
  }
}

class ProvideLiquidityMatcher extends ContractMatcher {
  constructor() {
    // The block that sent the transfer in, with the other side's deposit built after it (when there is one).
    const sentWithAnother = () => new Matcher({ optional: true, child: new StonfiV2DepositMatcher() });
    // toncenter's order: TON through pTON first, then a jetton transfer (built, or its notification's way back).
    const inTransfer = new OrMatcher([
      new ContractMatcher(OP.jettonNotify, { parent: new ContractMatcher(PTON_TON_TRANSFER, { parent: sentWithAnother() }) }),
      new BlockTypeMatcher('jetton_transfer', { parent: sentWithAnother() }),
      new ContractMatcher(OP.jettonNotify, {
        parent: new ContractMatcher(OP.jettonInternalTransfer, {
          parent: new BlockTypeMatcher('jetton_transfer', { parent: sentWithAnother() }),
        }),
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
    const tonIn = inTransfer ? undefined : findCallContract(others, PTON_TON_TRANSFER);
    if (!inTransfer && !tonIn) throw new Error('a deposit without its transfer in');
    const callback = findCallContract(others, STONFI_V2_OP.cbAddLiquidity);
    const after = callback?.nextBlocks.filter((b) => others.includes(b)) ?? [];
    const refunded = after.some((b) => isCallContract(b, STONFI_V2_OP.addLiquidity));
    const mint = after.find((b): b is CallContractBlock => isCallContract(b, OP.jettonInternalTransfer));
    const provided = provideLp(block);
    const transfer = inTransfer?.data as JettonTransferData | undefined;
    const data: DepositLiquidityData = {
      dex: 'stonfi_v2',
      sender: provided.fromUser,
      pool: block.message.destination,
      amount1: provided.amount1 > 0n ? provided.amount1 : provided.amount2,
      // TON through pTON: the asset is TON (null), and the user has no wallet of it.
      asset1: transfer ? transfer.asset : null,
      senderWallet1: transfer ? transfer.senderWallet : null,
      amount2: null,
      asset2: null,
      senderWallet2: null,
      lpTokensMinted: mint ? jettonInternalTransfer(mint.message.body()).amount : null,
    };
    const blocks = [block, ...others];
    const another = others.filter(isStonfiV2Deposit).pop();
    const sentBy = another?.previousBlock;
    if (another && sentBy && blocks.includes(sentBy)) {
      const a = another.data as DepositLiquidityData;
      // toncenter joins the other side when it is the same user's to the same pool and only one of the two minted
      // (else the other deposit and the request are merged in without their data, as toncenter does).
      if (a.sender === data.sender && a.pool === data.pool && a.lpTokensMinted !== data.lpTokensMinted) {
        // The two sides hang together only through the request that sent them: an empty block stands for it.
        const proxy = new Block('empty', []);
        sentBy.insertBetween([another, (inTransfer ?? tonIn)!], proxy);
        blocks.splice(blocks.indexOf(sentBy), 1, proxy);
        data.amount2 = a.amount1;
        data.asset2 = a.asset1;
        data.senderWallet2 = a.senderWallet1;
        if (data.lpTokensMinted === null) data.lpTokensMinted = a.lpTokensMinted;
      }
    }
    return folded('dex_deposit_liquidity', data, blocks, refunded);
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
      // A payout in pTON whose wallet passed TON on is TON, as much as it passed on (toncenter reads no more).
      const tonOut = transfer.nextBlocks.find((b): b is CallContractBlock => isCallContract(b, PTON_TON_TRANSFER));
      if (tonOut) {
        extra.push(tonOut);
        outs.push({ amount: ptonTonAmount(tonOut.message.body()), asset: null, userWallet: t.receiverWallet });
      } else outs.push({ amount: t.amount, asset: t.asset, userWallet: t.receiverWallet });
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
