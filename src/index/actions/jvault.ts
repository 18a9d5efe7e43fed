/**
 * JVault staking (ton-indexer's `JVaultStakeBlockMatcher`, `JVaultUnstakeBlockMatcher`, `JVaultClaimBlockMatcher`,
 * `JVaultUnstakeRequestBlockMatcher` in `blocks/jvault.py`, bodies of `messages/jvault.py`), in toncenter's order:
 *
 *   jvault_stake            a `jetton_transfer` to a pool, the pool's receive_jettons#d68a4ac1 to the user's stake
 *                           wallet and the wallet's request_update_rewards#f5c5baa3 answered by update_rewards#ae9307ce
 *                           (the referrers' updates #55c35b40/#076ee4e0 taken along), or the pool's cancellation
 *                           #9eada1d9 (failed, the jettons sent back); the period is the forward payload's second field
 *   jvault_unstake          unstake_jettons#499a9262 to the stake wallet, its request_update_rewards with the pool's
 *                           jetton transfer out, fee (a TON transfer) and update_rewards; without them, the stake
 *                           wallet's exit code (never failed: toncenter sets no failure there)
 *   jvault_claim            claim_rewards#78d9f109 to the stake wallet, its send_claimed_rewards#44bc1fe3 to the pool
 *                           with the pool's jetton transfer and update_rewards
 *   jvault_unstake_request  unstake_request#0168d4b7 to the stake wallet and its request_update_rewards answered;
 *                           without the request: failed, with the stake wallet's exit code
 *
 * An unstake (and a request the pool never saw) needs what toncenter reads from the stake wallet's stored data (its
 * pool and stake jetton) and the pool's (its lock wallet, a jetton wallet the index detected, whose jetton is the
 * staked asset): `KnownContracts.jvaultStakeWallets`, which trace-source.ts fills from the latest account states.
 * Not whole types: the jetton and TON transfers among their parts are actions too, as toncenter serializes them.
 */
import { Cell, Dictionary, type Slice } from '@ton/core';
import { folded, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, labeled, labelled, Matcher, OrMatcher, RecursiveMatcher, unlabelled } from './matcher.js';
import type { ActionTransaction, KnownContracts } from './trace-input.js';
import { str, type ActionParts } from './details-common.js';

export type { JvaultStakeWalletInfo } from './trace-input.js';

export const JVAULT_OP = {
  receiveJettons: 0xd68a4ac1,
  cancellation: 0x9eada1d9,
  setData: 0x383411ea,
  unstakeJettons: 0x499a9262,
  unstakeRequest: 0x0168d4b7,
  claimRewards: 0x78d9f109,
  sendClaimedRewards: 0x44bc1fe3,
  requestUpdateRewards: 0xf5c5baa3,
  updateRewards: 0xae9307ce,
  requestUpdateReferrer: 0x55c35b40,
  updateReferrer: 0x076ee4e0,
} as const;

export interface JvaultStakeData {
  sender: string | null;
  senderWallet: string | null;
  asset: string | null;
  stakeWallet: string | null;
  pool: string | null;
  amount: bigint;
  period: number;
}

/** An unstake or an unstake request. */
export interface JvaultUnstakeData {
  sender: string | null;
  stakeWallet: string | null;
  pool: string | null;
  amount: bigint;
  asset: string | null;
  stakingAsset: string | null;
  /** The stake wallet's exit code, where toncenter writes it (the pool did not answer). */
  exitCode: number | null;
}

export interface JvaultClaimData {
  sender: string | null;
  stakeWallet: string | null;
  pool: string | null;
  /** The jetton wallets the claim named, by address (the dictionary's order). */
  claimedJettons: string[];
  /** The one payout's amount (toncenter pairs them only when one jetton was claimed). */
  claimedAmounts: bigint[];
}

/** The stake wallets an unstake or a request asks (toncenter's extra data requests): their data is looked up. */
export function jvaultStakeWalletCandidates(tx: ActionTransaction): string[] {
  return tx.outMsgs
    .filter((m) => m.destination !== null && (m.opcode === JVAULT_OP.unstakeJettons || m.opcode === JVAULT_OP.unstakeRequest))
    .map((m) => m.destination!);
}

/** A stake wallet's data: pool, then the stake jetton's minter. */
export function stakeWalletData(data: Cell): { pool: string | null; minter: string | null } {
  const cs = data.beginParse();
  return { pool: readAddress(cs), minter: readAddress(cs) };
}

/** A staking pool's data: a bit and 32 bits, admin, creator, then the lock wallet (holding the staked jettons). */
export function poolLockWallet(data: Cell): string | null {
  const cs = data.beginParse();
  cs.skip(33);
  readAddress(cs);
  readAddress(cs);
  return readAddress(cs);
}

/** The referrers' updates, passed on from wallet to wallet (toncenter's referral chain): optional. */
const referralChain = new RecursiveMatcher(
  new RecursiveMatcher(new ContractMatcher(JVAULT_OP.requestUpdateReferrer), new ContractMatcher(JVAULT_OP.updateReferrer), {
    optional: true,
  }),
  null,
  { optional: true },
);
const updateRewards = () => labeled('update_rewards_on_stake_wallet', new ContractMatcher(JVAULT_OP.updateRewards));

class JvaultStakeMatcher extends Matcher {
  constructor() {
    const request = labeled(
      'request_update_rewards_from_pool',
      new ContractMatcher(JVAULT_OP.requestUpdateRewards, { children: [referralChain, updateRewards()] }),
    );
    const cancellation = labeled(
      'cancellation',
      new ContractMatcher(JVAULT_OP.cancellation, { child: new BlockTypeMatcher('jetton_transfer', { optional: true }) }),
    );
    const received = labeled(
      'receive_stake_jettons_on_stake_wallet',
      new ContractMatcher(JVAULT_OP.receiveJettons, { child: new OrMatcher([request, cancellation]) }),
    );
    super({ children: [received, new ContractMatcher(JVAULT_OP.setData, { optional: true })] });
  }

  override test(block: Block): boolean {
    return block.type === 'jetton_transfer';
  }

  override build(block: Block, others: Block[]): Block[] {
    const t = block.data as JettonTransferData;
    const payload = Cell.fromBase64(t.forwardPayload!).beginParse();
    payload.skip(32);
    const period = payload.loadUint(32);
    const received = labelled(others, 'receive_stake_jettons_on_stake_wallet') as CallContractBlock | undefined;
    if (!received) return [];
    let failed = received.failed;
    const request = labelled(others, 'request_update_rewards_from_pool');
    if (labelled(others, 'cancellation')) failed = true;
    else if (request) failed ||= request.failed;
    else return [];
    const data: JvaultStakeData = {
      sender: t.sender,
      senderWallet: t.senderWallet,
      asset: t.asset,
      stakeWallet: received.message.destination,
      pool: received.message.source,
      amount: t.amount,
      period,
    };
    return folded('jvault_stake', data, unlabelled([block, ...others]), failed);
  }
}

/** unstake_jettons / unstake_request: query_id jettons_to_unstake:Coins. */
function unstakeAmount(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return cs.loadCoins();
}

const exitCodeOf = (block: CallContractBlock): number | null => block.eventNodes[0].tx.exitCode ?? null;

class JvaultUnstakeMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(JVAULT_OP.unstakeJettons, {
      child: labeled(
        'request_update_rewards_from_pool',
        new ContractMatcher(JVAULT_OP.requestUpdateRewards, {
          optional: true,
          children: [
            referralChain,
            labeled('unstake_fee', new BlockTypeMatcher('ton_transfer', { optional: true })),
            labeled('withdraw_unstaked_jettons', new BlockTypeMatcher('jetton_transfer')),
            updateRewards(),
          ],
        }),
      ),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const m = block.message;
    const amount = unstakeAmount(m.body());
    const stakeWallet = m.destination;
    const known = stakeWallet === null ? undefined : this.contracts.jvaultStakeWallets?.get(stakeWallet);
    // toncenter's build gives up without the stake wallet's pool and staked asset.
    if (!known?.pool || !known.asset) return [];
    const request = labelled(others, 'request_update_rewards_from_pool') as CallContractBlock | undefined;
    const transfer = labelled(others, 'withdraw_unstaked_jettons');
    const blocks = unlabelled([block, ...others]);
    const common = { sender: m.source, stakeWallet, amount, stakingAsset: known.stakingAsset };
    if (!request || !transfer) {
      const data: JvaultUnstakeData = { ...common, pool: known.pool, asset: known.asset, exitCode: exitCodeOf(block) };
      return folded('jvault_unstake', data, blocks, false);
    }
    const paid = (transfer.data as JettonTransferData).asset;
    if (paid !== known.asset) throw new Error('the pool paid another jetton than the staked one');
    const data: JvaultUnstakeData = { ...common, pool: request.message.destination, asset: paid, exitCode: null };
    return folded('jvault_unstake', data, blocks, false);
  }
}

/** claim_rewards: query_id jettons_to_claim:(HashmapE 267 Bit), the jetton wallets by address. */
function claimedJettons(body: Cell): string[] {
  const cs: Slice = afterOpcode(body);
  cs.loadUintBig(64);
  const nothing = { serialize: () => undefined, parse: () => null };
  const dict = Dictionary.load(Dictionary.Keys.Address(), nothing, cs);
  return dict.keys().map((a) => a.toRawString().toUpperCase());
}

class JvaultClaimMatcher extends ContractMatcher {
  constructor() {
    super(JVAULT_OP.claimRewards, {
      child: labeled(
        'send_claimed_rewards',
        new ContractMatcher(JVAULT_OP.sendClaimedRewards, {
          children: [labeled('withdraw_claimed_jettons', new BlockTypeMatcher('jetton_transfer')), updateRewards()],
        }),
      ),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const withdrawal = labelled(others, 'withdraw_claimed_jettons');
    const sent = labelled(others, 'send_claimed_rewards') as CallContractBlock | undefined;
    if (!withdrawal || !sent) return [];
    const m = block.message;
    const data: JvaultClaimData = {
      sender: m.source,
      stakeWallet: m.destination,
      pool: sent.message.destination,
      claimedJettons: claimedJettons(m.body()),
      claimedAmounts: [(withdrawal.data as JettonTransferData).amount],
    };
    return folded('jvault_claim', data, unlabelled([block, ...others]), false);
  }
}

class JvaultUnstakeRequestMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(JVAULT_OP.unstakeRequest, {
      child: labeled(
        'request_update_rewards_from_pool',
        new ContractMatcher(JVAULT_OP.requestUpdateRewards, { optional: true, children: [referralChain, updateRewards()] }),
      ),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const m = block.message;
    const amount = unstakeAmount(m.body());
    const stakeWallet = m.destination;
    const known = stakeWallet === null ? undefined : this.contracts.jvaultStakeWallets?.get(stakeWallet);
    const request = labelled(others, 'request_update_rewards_from_pool') as CallContractBlock | undefined;
    const blocks = unlabelled([block, ...others]);
    const common = { sender: m.source, stakeWallet, amount };
    if (!request) {
      // Refused before the pool heard of it: toncenter names it only with the stake wallet's pool and asset.
      if (!known?.pool || !known.asset) return [];
      const data: JvaultUnstakeData = {
        ...common,
        pool: known.pool,
        asset: known.asset,
        stakingAsset: known.stakingAsset,
        exitCode: exitCodeOf(block),
      };
      return folded('jvault_unstake_request', data, blocks, true);
    }
    const data: JvaultUnstakeData = {
      ...common,
      pool: request.message.destination,
      asset: known?.asset ?? null,
      stakingAsset: known?.stakingAsset ?? null,
      exitCode: null,
    };
    return folded('jvault_unstake_request', data, blocks, block.failed || request.failed);
  }
}

export const jvaultStakeMatcher = (): Matcher => new JvaultStakeMatcher();
export const jvaultUnstakeMatcher = (contracts: KnownContracts): Matcher => new JvaultUnstakeMatcher(contracts);
export const jvaultClaimMatcher = (): Matcher => new JvaultClaimMatcher();
export const jvaultUnstakeRequestMatcher = (contracts: KnownContracts): Matcher => new JvaultUnstakeRequestMatcher(contracts);

/** A JVault stake (`_fill_jvault_stake`): `minted_stake_jettons` is a column toncenter never fills (null). */
export function jvaultStakeParts(d: JvaultStakeData): ActionParts {
  return {
    details: {
      period: d.period,
      minted_stake_jettons: null,
      stake_wallet: d.stakeWallet,
      source: d.sender,
      source_jetton_wallet: d.senderWallet,
      asset: d.asset,
      pool: d.pool,
      amount: str(d.amount),
    },
    ends: [d.sender, d.senderWallet, d.pool, null],
  };
}

/** A JVault unstake or unstake request (`_fill_jvault_unstake`, `_fill_jvault_unstake_request`): the exit code in toncenter's opcode column. */
export function jvaultUnstakeParts(d: JvaultUnstakeData): ActionParts {
  return {
    details: {
      source: d.sender,
      stake_wallet: d.stakeWallet,
      pool: d.pool,
      amount: str(d.amount),
      exit_code: d.exitCode,
      asset: d.asset,
      staking_asset: d.stakingAsset,
    },
    ends: [d.sender, d.stakeWallet, d.pool, null],
  };
}

/** A JVault claim (`_fill_jvault_claim`): jettons and amounts paired only when there are as many of each (one). */
export function jvaultClaimParts(d: JvaultClaimData): ActionParts {
  const paired = d.claimedJettons.length === d.claimedAmounts.length;
  return {
    details: {
      claimed_rewards: paired ? d.claimedJettons.map((jetton, i) => ({ jetton, amount: str(d.claimedAmounts[i]) })) : [],
      source: d.sender,
      stake_wallet: d.stakeWallet,
      pool: d.pool,
    },
    ends: [d.sender, d.stakeWallet, d.pool, null],
  };
}
