/**
 * Tonstakers liquid staking (ton-indexer's `TONStakersDepositMatcher`, `TONStakersWithdrawMatcher` and
 * `TONStakersDelayedWithdrawalMatcher` in `blocks/staking.py`, opcodes of `messages/staking.py`), recognised by
 * opcodes alone as toncenter does (its mainnet pool is `0:A45B17F28409229B78360E3290420F13E4FE20F90D7E2BF8C4AC6703259E22FA`,
 * tsTON's master `0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000`; no address is checked):
 *
 *   tonstakers_deposit           deposit#47d54391 to the pool, its mint#1674b0a0 to tsTON's master and the master's
 *                                internal_transfer#178d4519 to the user's wallet (its notification taken along). The
 *                                amount is what the request carried less the pool's 1 TON fee, the tokens minted the
 *                                internal transfer's, the asset its sender (the master)
 *   tonstakers_withdraw          (immediate) a tsTON burn#595f07bc, the wallet's burn_notification#7bdd97de, the
 *                                master's withdraw request#319b0cdc to the pool and the pool's withdrawal#0a77535c: the
 *                                amount is what the payout carried beyond what the request brought
 *   tonstakers_withdraw_request  (delayed) the same burn, notification and request, the pool's mint#1674b0a0 of a
 *                                payout NFT to its payout collection; the NFT minted is the item deployed after it (an
 *                                `nft_mint` the index detected, else the item's init#132f9a45); none: failed
 *   tonstakers_withdraw          (payout of a delayed one) the collection's payout#db3b8abd to the NFT's owner after
 *                                the item's burn#f127fe4e and its burn_notification#ed58b0b2 (amount of tsTON burnt,
 *                                owner); the pool is the sender of the collection's start of distribution#1140a64f
 *                                above them, when there is one; no asset
 *
 * toncenter answers all three as `stake_deposit`, `stake_withdrawal_request` and `stake_withdrawal` (provider
 * `liquid_staking`); the block types are hashed into the action id. Kept as toncenter decides it: a deposit the pool
 * did not mint for is no deposit (its build reads the missing transfer and throws), so a refused deposit stays a
 * contract call; a burn the pool did not answer is no withdrawal (it stays a `jetton_burn`, whose matcher comes later).
 */
import type { Cell } from '@ton/core';
import { findCallContract, folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, jettonInternalTransfer, OP, readAddress } from './bodies.js';
import { ContractMatcher, Matcher, OrMatcher } from './matcher.js';

export const TONSTAKERS_OP = {
  deposit: 0x47d54391,
  withdrawRequest: 0x319b0cdc,
  /** The pool's mint, of tsTON (to the master) or of a payout NFT (to the payout collection): one opcode for both. */
  mint: 0x1674b0a0,
  initNft: 0x132f9a45,
  nftBurn: 0xf127fe4e,
  nftBurnNotification: 0xed58b0b2,
  distributedAsset: 0xdb3b8abd,
  poolWithdrawal: 0x0a77535c,
  startDistribution: 0x1140a64f,
} as const;

export const TONSTAKERS_DEPOSIT = 'tonstakers_deposit';
export const TONSTAKERS_WITHDRAW_REQUEST = 'tonstakers_withdraw_request';
export const TONSTAKERS_WITHDRAW = 'tonstakers_withdraw';

/** The pool keeps 1 TON of every deposit (toncenter's `msg.value - 10**9`). */
const DEPOSIT_FEE = 1_000_000_000n;

export interface TonstakersDepositData {
  stakeHolder: string | null;
  pool: string | null;
  /** What the request carried, less the pool's fee. */
  amount: bigint;
  /** null when the request itself failed. */
  tokensMinted: bigint | null;
  /** tsTON's master: the internal transfer's sender. */
  asset: string | null;
}

export interface TonstakersWithdrawRequestData {
  stakeHolder: string | null;
  /** The stake holder's tsTON wallet (the burn's destination). */
  wallet: string | null;
  pool: string | null;
  tokensBurnt: bigint;
  /** The payout NFT minted, null when none was. */
  nft: string | null;
  asset: string | null;
}

export interface TonstakersWithdrawData {
  stakeHolder: string | null;
  pool: string | null;
  amount: bigint;
  /** The payout NFT burnt (a delayed withdrawal's payout), else null. */
  nft: string | null;
  tokensBurnt: bigint | null;
  asset: string | null;
}

class TonstakersDepositMatcher extends ContractMatcher {
  constructor() {
    const transfer = new ContractMatcher(OP.jettonInternalTransfer, { child: new ContractMatcher(OP.jettonNotify, { optional: true }) });
    super(TONSTAKERS_OP.deposit, { child: new ContractMatcher(TONSTAKERS_OP.mint, { optional: true, child: transfer }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const transfer = findCallContract(others, OP.jettonInternalTransfer);
    if (!transfer) return [];
    const m = block.message;
    const data: TonstakersDepositData = {
      stakeHolder: m.source,
      pool: m.destination,
      amount: (m.value ?? 0n) - DEPOSIT_FEE,
      tokensMinted: block.failed ? null : jettonInternalTransfer(transfer.message.body()).amount,
      asset: transfer.message.source,
    };
    return folded(TONSTAKERS_DEPOSIT, data, [block, ...others], block.failed);
  }
}

class TonstakersWithdrawMatcher extends ContractMatcher {
  constructor() {
    const answer = new OrMatcher([new ContractMatcher(TONSTAKERS_OP.poolWithdrawal), new ContractMatcher(TONSTAKERS_OP.mint)]);
    const request = new ContractMatcher(TONSTAKERS_OP.withdrawRequest, { child: answer });
    super(OP.jettonBurn, { child: new ContractMatcher(OP.jettonBurnNotification, { child: request }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const m = block.message;
    const request = findCallContract(others, TONSTAKERS_OP.withdrawRequest)!;
    const immediate = findCallContract(others, TONSTAKERS_OP.poolWithdrawal);
    const tokensBurnt = burnAmount(m.body());
    const asset = request.message.source;
    const pool = request.message.destination;
    if (immediate) {
      const data: TonstakersWithdrawData = {
        stakeHolder: m.source,
        pool,
        amount: (immediate.message.value ?? 0n) - (request.message.value ?? 0n),
        nft: null,
        tokensBurnt,
        asset,
      };
      return folded(TONSTAKERS_WITHDRAW, data, [block, ...others], block.failed);
    }
    const delayed = findCallContract(others, TONSTAKERS_OP.mint)!;
    const minted = delayed.nextBlocks.find((b) => b.type === 'nft_mint');
    const init = findCallContract(delayed.nextBlocks, TONSTAKERS_OP.initNft);
    // The item's address as toncenter reads it: the destination of the mint block's first message.
    const nft = (minted ?? init)?.eventNodes[0].message.destination ?? null;
    const data: TonstakersWithdrawRequestData = { stakeHolder: m.source, wallet: m.destination, pool, tokensBurnt, nft, asset };
    return folded(TONSTAKERS_WITHDRAW_REQUEST, data, [block, ...others], block.failed || (!minted && !init));
  }
}

/** burn#595f07bc query_id amount:Coins response_destination, read as toncenter's JettonBurn reads it (all three). */
function burnAmount(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  readAddress(cs);
  return amount;
}

/** burn_notification#ed58b0b2 query_id amount:Coins owner: the payout NFT's word to its collection. */
function nftBurnNotification(body: Cell): { amount: bigint; owner: string | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return { amount: cs.loadCoins(), owner: readAddress(cs) };
}

const POOL_WALK_OPS: ReadonlySet<number | null> = new Set([
  TONSTAKERS_OP.nftBurnNotification,
  TONSTAKERS_OP.nftBurn,
  TONSTAKERS_OP.distributedAsset,
]);

/** The pool above a payout (toncenter's `_try_find_pool_addr`): up through the burns to the start of distribution. */
function poolAbove(notification: Block): string | null {
  for (let current = notification.previousBlock; current !== null; current = current.previousBlock) {
    if (isCallContract(current, TONSTAKERS_OP.startDistribution)) return current.message.source;
    if (current.type === TONSTAKERS_WITHDRAW) return (current.data as TonstakersWithdrawData).pool;
    if (!isCallContract(current) || !POOL_WALK_OPS.has(current.opcode)) break;
  }
  return null;
}

class TonstakersDelayedWithdrawalMatcher extends Matcher {
  constructor() {
    super({ parent: new ContractMatcher(TONSTAKERS_OP.nftBurnNotification, { parent: new ContractMatcher(TONSTAKERS_OP.nftBurn) }) });
  }

  override test(block: Block): boolean {
    return isCallContract(block, TONSTAKERS_OP.distributedAsset);
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const notification = block.previousBlock as CallContractBlock;
    const burnt = nftBurnNotification(notification.message.body());
    const data: TonstakersWithdrawData = {
      stakeHolder: burnt.owner,
      pool: poolAbove(notification),
      amount: block.message.value ?? 0n,
      nft: notification.message.source,
      tokensBurnt: burnt.amount,
      asset: null,
    };
    return folded(TONSTAKERS_WITHDRAW, data, [block, ...others], false);
  }
}

export const tonstakersDepositMatcher = (): Matcher => new TonstakersDepositMatcher();
export const tonstakersWithdrawMatcher = (): Matcher => new TonstakersWithdrawMatcher();
export const tonstakersDelayedWithdrawalMatcher = (): Matcher => new TonstakersDelayedWithdrawalMatcher();
