/**
 * The staking types' details (Tonstakers, nominator pools, Ethena): toncenter stores each under one of the three
 * v1 types `stake_deposit`, `stake_withdrawal`, `stake_withdrawal_request` with a provider, so the three protocols
 * share one shape.
 */
import type { Block } from './blocks.js';
import { ETHENA_DEPOSIT, ETHENA_WITHDRAWAL_REQUEST, type EthenaDepositData, type EthenaWithdrawalRequestData } from './ethena-staking.js';
import {
  NOMINATOR_POOL_DEPOSIT,
  NOMINATOR_POOL_WITHDRAW_REQUEST,
  type NominatorPoolDepositData,
  type NominatorPoolWithdrawData,
} from './nominator-pools.js';
import {
  TONSTAKERS_DEPOSIT,
  TONSTAKERS_WITHDRAW,
  TONSTAKERS_WITHDRAW_REQUEST,
  type TonstakersDepositData,
  type TonstakersWithdrawData,
  type TonstakersWithdrawRequestData,
} from './tonstakers.js';
import { str, omitEmpty, type ActionParts, type Json } from './details-common.js';

/**
 * The staking types (`_fill_tonstakers_*`, `_fill_nominator_pool_*`, `_fill_ethena_*`; ton-index-go's
 * ActionDetailsStakeDeposit, ActionDetailsWithdrawStake, ActionDetailsWithdrawStakeRequest): toncenter stores the
 * block under `stake_deposit`, `stake_withdrawal` or `stake_withdrawal_request` with a `staking_data.provider`; the
 * stake holder is the source, the pool the destination.
 */
interface StakeFields {
  type: 'stake_deposit' | 'stake_withdrawal' | 'stake_withdrawal_request';
  provider: 'liquid_staking' | 'nominator' | 'ethena';
  stakeHolder: string | null;
  /** The holder's jetton wallet (toncenter's source_secondary), where it writes one. */
  holderWallet?: string | null;
  pool: string | null;
  amount?: bigint | null;
  tokensMinted?: bigint | null;
  tokensBurnt?: bigint | null;
  payoutNft?: string | null;
  asset?: string | null;
  sourceAsset?: string | null;
}

function stake(f: StakeFields): ActionParts {
  const common = { provider: f.provider, stake_holder: f.stakeHolder, pool: f.pool };
  let details: Json;
  if (f.type === 'stake_deposit')
    details = {
      ...common,
      amount: str(f.amount),
      tokens_minted: str(f.tokensMinted),
      asset: f.asset ?? null,
      // ton-index-go fills it for Ethena alone (omitempty).
      ...(f.provider === 'ethena' ? omitEmpty({ source_asset: f.sourceAsset }) : {}),
    };
  else if (f.type === 'stake_withdrawal')
    details = {
      ...common,
      amount: str(f.amount),
      payout_nft: f.payoutNft ?? null,
      tokens_burnt: str(f.tokensBurnt),
      asset: f.asset ?? null,
    };
  else
    details = {
      ...common,
      payout_nft: f.payoutNft ?? null,
      asset: f.asset ?? null,
      // ton-index-go fills it when the provider is "tonstakers", which it has just renamed "liquid_staking": never.
      tokens_burnt: null,
      ...(f.provider === 'ethena' ? omitEmpty({ tokens_minted: str(f.tokensMinted) }) : {}),
    };
  return { type: f.type, details, ends: [f.stakeHolder, f.holderWallet ?? null, f.pool, null] };
}

export function stakeParts(block: Block): ActionParts {
  switch (block.type) {
    case TONSTAKERS_DEPOSIT: {
      const d = block.data as TonstakersDepositData;
      const { stakeHolder, pool, amount, tokensMinted, asset } = d;
      return stake({ type: 'stake_deposit', provider: 'liquid_staking', stakeHolder, pool, amount, tokensMinted, asset });
    }
    case TONSTAKERS_WITHDRAW_REQUEST: {
      const d = block.data as TonstakersWithdrawRequestData;
      const { stakeHolder, pool, asset } = d;
      return stake({
        type: 'stake_withdrawal_request',
        provider: 'liquid_staking',
        stakeHolder,
        holderWallet: d.wallet,
        pool,
        payoutNft: d.nft,
        asset,
      });
    }
    case TONSTAKERS_WITHDRAW: {
      const d = block.data as TonstakersWithdrawData;
      const { stakeHolder, pool, amount, tokensBurnt, asset } = d;
      return stake({
        type: 'stake_withdrawal',
        provider: 'liquid_staking',
        stakeHolder,
        pool,
        amount,
        payoutNft: d.nft,
        tokensBurnt,
        asset,
      });
    }
    case NOMINATOR_POOL_DEPOSIT: {
      const { stakeHolder, pool, amount } = block.data as NominatorPoolDepositData;
      return stake({ type: 'stake_deposit', provider: 'nominator', stakeHolder, pool, amount });
    }
    case NOMINATOR_POOL_WITHDRAW_REQUEST: {
      const { stakeHolder, pool, payout } = block.data as NominatorPoolWithdrawData;
      const type = payout === null ? 'stake_withdrawal_request' : 'stake_withdrawal';
      return stake({ type, provider: 'nominator', stakeHolder, pool, amount: payout });
    }
    case ETHENA_DEPOSIT: {
      const d = block.data as EthenaDepositData;
      const { stakeHolder, holderWallet, pool, amount, tokensMinted, asset, sourceAsset } = d;
      return stake({
        type: 'stake_deposit',
        provider: 'ethena',
        stakeHolder,
        holderWallet,
        pool,
        amount,
        tokensMinted,
        asset,
        sourceAsset,
      });
    }
    case ETHENA_WITHDRAWAL_REQUEST: {
      const d = block.data as EthenaWithdrawalRequestData;
      const { stakeHolder, holderWallet, pool, asset, tokensMinted } = d;
      return stake({ type: 'stake_withdrawal_request', provider: 'ethena', stakeHolder, holderWallet, pool, asset, tokensMinted });
    }
    default:
      throw new Error(`no staking details for ${block.type}`);
  }
}
