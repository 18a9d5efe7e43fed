/**
 * swap.coffee staking (ton-indexer's `CoffeeStakingDepositMatcher`, `CoffeeStakingWithdrawMatcher` and
 * `CoffeeStakingClaimRewardsMatcher` in `blocks/staking.py`, bodies of `messages/coffee.py`):
 *
 *   coffee_staking_deposit        a jetton transfer to the staking vault, the vault's staking_deposit#f9471134 to the
 *                                 staking master (the pool, an NFT collection), which logs the same body and mints the
 *                                 position's NFT item (an `nft_mint`: the item must be one the index detected, as
 *                                 toncenter's matcher needs the mint built)
 *   coffee_staking_withdraw       the three steps of staking_position_withdraw#cb03bfaf (the owner to the position's
 *                                 item, the item on, then the step that pays) and the jetton transfer paying the owner;
 *                                 a log with the same opcode taken along
 *   coffee_staking_claim_rewards  staking_claim_rewards#b30c7310 to the pool (its wallet, the amount, the receiver),
 *                                 the jetton transfer paying the receiver and the pool's log of the claim
 *
 * Kept as toncenter decides it: never failed; only the steps named are folded. A withdrawal's `pool` is the sender of
 * its second step, which is the position's item the first step went to (toncenter's choice, kept); its amount and
 * the pool's wallet are the third step's. A claim's admin (who asked it) is not answered (ton-index-go has no field).
 */
import { findCallContract, folded, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, readAddress } from './bodies.js';
import type { Cell } from '@ton/core';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, type Matcher } from './matcher.js';
import type { NftMintData } from './nfts.js';
import { str, type ActionParts } from './details-common.js';

export const COFFEE_STAKING_OP = { deposit: 0xf9471134, withdraw: 0xcb03bfaf, claimRewards: 0xb30c7310 } as const;

export interface CoffeeStakingDepositData {
  sender: string | null;
  senderWallet: string | null;
  pool: string | null;
  poolWallet: string | null;
  asset: string | null;
  amount: bigint;
  item: string;
  index: string;
}

class CoffeeStakingDepositMatcher extends BlockTypeMatcher {
  constructor() {
    const log = new ContractMatcher(COFFEE_STAKING_OP.deposit, { optional: true });
    super('jetton_transfer', {
      child: new ContractMatcher(COFFEE_STAKING_OP.deposit, { children: [log, new BlockTypeMatcher('nft_mint')] }),
    });
  }

  override build(block: Block, others: Block[]): Block[] {
    const transfer = block.data as JettonTransferData;
    const deposit = findCallContract(
      block.nextBlocks.filter((b) => others.includes(b)),
      COFFEE_STAKING_OP.deposit,
    );
    if (!deposit) return [];
    const mint = deposit.nextBlocks.find((b) => others.includes(b) && b.type === 'nft_mint');
    if (!mint) return [];
    const log = findCallContract(
      deposit.nextBlocks.filter((b) => others.includes(b)),
      COFFEE_STAKING_OP.deposit,
    );
    const minted = mint.data as NftMintData;
    const data: CoffeeStakingDepositData = {
      sender: transfer.sender,
      senderWallet: transfer.senderWallet,
      pool: deposit.message.destination,
      poolWallet: transfer.receiverWallet,
      asset: transfer.asset,
      amount: transfer.amount,
      item: minted.item,
      index: minted.index,
    };
    return folded('coffee_staking_deposit', data, log ? [block, deposit, mint, log] : [block, deposit, mint], false);
  }
}

export const coffeeStakingDepositMatcher = (): Matcher => new CoffeeStakingDepositMatcher();

export interface CoffeeStakingWithdrawData {
  owner: string | null;
  ownerWallet: string | null;
  pool: string | null;
  poolWallet: string | null;
  asset: string | null;
  amount: bigint;
  item: string | null;
  index: bigint;
  points: bigint;
}

export interface CoffeeStakingClaimData {
  pool: string | null;
  poolWallet: string | null;
  recipient: string | null;
  recipientWallet: string | null;
  asset: string | null;
  amount: bigint;
}

/** staking_position_withdraw#cb03bfaf (second step) query_id nft_id:uint64 owner points:Coins jetton_data:^Cell. */
function withdrawSecond(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return { index: cs.loadUintBig(64), owner: readAddress(cs), points: cs.loadCoins() };
}

/** staking_position_withdraw#cb03bfaf (third step) query_id jetton_wallet jetton_amount:Coins owner. */
function withdrawThird(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return { wallet: readAddress(cs), amount: cs.loadCoins() };
}

/** staking_claim_rewards#b30c7310 query_id jetton_wallet jetton_amount:Coins receiver payload. */
function claimRewards(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return { wallet: readAddress(cs), amount: cs.loadCoins(), receiver: readAddress(cs) };
}

const inOthers = (blocks: Block[], others: Block[]): Block[] => blocks.filter((b) => others.includes(b));

class CoffeeStakingWithdrawMatcher extends ContractMatcher {
  constructor() {
    const third = new ContractMatcher(COFFEE_STAKING_OP.withdraw, { children: [new BlockTypeMatcher('jetton_transfer')] });
    const log = new ContractMatcher(COFFEE_STAKING_OP.withdraw, { optional: true });
    super(COFFEE_STAKING_OP.withdraw, { child: new ContractMatcher(COFFEE_STAKING_OP.withdraw, { children: [third, log] }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const second = findCallContract(inOthers(block.nextBlocks, others), COFFEE_STAKING_OP.withdraw);
    if (!second) return [];
    const steps = inOthers(second.nextBlocks, others);
    const third = steps.find((b): b is CallContractBlock => b.nextBlocks.some((n) => others.includes(n) && n.type === 'jetton_transfer'));
    const transfer = third?.nextBlocks.find((n) => others.includes(n) && n.type === 'jetton_transfer');
    if (!third || !transfer) return [];
    const log = steps.find((b) => b !== third);
    const asked = withdrawSecond(second.message.body());
    const paid = withdrawThird(third.message.body());
    const t = transfer.data as JettonTransferData;
    const data: CoffeeStakingWithdrawData = {
      owner: asked.owner,
      ownerWallet: t.receiverWallet,
      pool: second.message.source,
      poolWallet: paid.wallet,
      asset: t.asset,
      amount: paid.amount,
      item: block.message.destination,
      index: asked.index,
      points: asked.points,
    };
    const blocks = [block, second, third, transfer];
    return folded('coffee_staking_withdraw', data, log ? [...blocks, log] : blocks, false);
  }
}

class CoffeeStakingClaimRewardsMatcher extends ContractMatcher {
  constructor() {
    const log = new ContractMatcher(COFFEE_STAKING_OP.claimRewards, { optional: true });
    super(COFFEE_STAKING_OP.claimRewards, { children: [new BlockTypeMatcher('jetton_transfer'), log] });
  }

  override test(block: Block): boolean {
    return super.test(block) && block.nextBlocks.length > 0;
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const next = inOthers(block.nextBlocks, others);
    const transfer = next.find((b) => b.type === 'jetton_transfer');
    if (!transfer) return [];
    const log = findCallContract(next, COFFEE_STAKING_OP.claimRewards);
    const asked = claimRewards(block.message.body());
    const t = transfer.data as JettonTransferData;
    const data: CoffeeStakingClaimData = {
      pool: block.message.destination,
      poolWallet: asked.wallet,
      recipient: asked.receiver,
      recipientWallet: t.receiverWallet,
      asset: t.asset,
      amount: asked.amount,
    };
    return folded('coffee_staking_claim_rewards', data, log ? [block, transfer, log] : [block, transfer], false);
  }
}

export const coffeeStakingWithdrawMatcher = (): Matcher => new CoffeeStakingWithdrawMatcher();
export const coffeeStakingClaimRewardsMatcher = (): Matcher => new CoffeeStakingClaimRewardsMatcher();

/**
 * A swap.coffee staking deposit (`_fill_coffee_staking_deposit`, ton-index-go's ActionDetailsCoffeeStakingDeposit):
 * the staking master is the pool, the vault's jetton wallet the pool's; the position's NFT item and its index.
 */
export function coffeeStakingDepositParts(d: CoffeeStakingDepositData): ActionParts {
  return {
    details: {
      source: d.sender,
      source_jetton_wallet: d.senderWallet,
      pool: d.pool,
      pool_jetton_wallet: d.poolWallet,
      asset: d.asset,
      amount: str(d.amount),
      minted_item_address: d.item,
      minted_item_index: d.index,
    },
    ends: [d.sender, d.senderWallet, d.pool, d.poolWallet],
  };
}

/**
 * A swap.coffee staking withdrawal (`_fill_coffee_staking_withdraw`, ton-index-go's ActionDetailsCoffeeStakingWithdraw):
 * the owner, the pool and their wallets, the position's item, index and points as decimal strings.
 */
export function coffeeStakingWithdrawParts(d: CoffeeStakingWithdrawData): ActionParts {
  return {
    details: {
      source: d.owner,
      source_jetton_wallet: d.ownerWallet,
      pool: d.pool,
      pool_jetton_wallet: d.poolWallet,
      asset: d.asset,
      amount: str(d.amount),
      nft_address: d.item,
      nft_index: str(d.index),
      points: str(d.points),
    },
    ends: [d.owner, d.ownerWallet, d.pool, d.poolWallet],
  };
}

/** Staking rewards paid (`_fill_coffee_staking_claim_rewards`, ActionDetailsCoffeeStakingClaimRewards): the pool is the source. */
export function coffeeStakingClaimRewardsParts(d: CoffeeStakingClaimData): ActionParts {
  return {
    details: {
      pool: d.pool,
      pool_jetton_wallet: d.poolWallet,
      recipient: d.recipient,
      recipient_jetton_wallet: d.recipientWallet,
      asset: d.asset,
      amount: str(d.amount),
    },
    ends: [d.pool, d.poolWallet, d.recipient, d.recipientWallet],
  };
}
