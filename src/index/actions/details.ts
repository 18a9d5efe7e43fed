/**
 * An action's `details` as ton-index-go writes them (`index/parse/actions.go` ParseRawAction over the columns
 * ton-indexer's serializer fills, `block_tree_serializer.py`), key for key and in its order: amounts, query ids
 * and indexes as decimal strings, addresses raw uppercase, opcodes "0x%08x", payloads base64 BoCs, absent
 * values null (or left out where Go says omitempty). Also the action's `source`/`destination` columns, which
 * decide its accounts.
 *
 * Here: the dispatch (each type to its builder) and the types that are no protocol of their own (TON transfers,
 * contract calls, jettons, NFTs, DNS, subscriptions, elections, the DEXes' shared swap and
 * liquidity shapes). A protocol's details live beside its matcher (`dedust-liquidity.ts`, `nft-sales.ts`,
 * `layerzero.ts`, ..., or a `<protocol>-details.ts` sibling); what they share is `details-common.ts`.
 */
import { formatOpcode } from '../../ton/message-body.js';
import type { DeployData } from './basic.js';
import type { Block, TonTransferBlock } from './blocks.js';
import { stakeParts } from './staking-details.js';
import { omitEmpty, str, type ActionParts, type Json } from './details-common.js';
import type { JettonBurnData, JettonMintData, JettonTransferData } from './jettons.js';
import type { DnsData, NftDiscoveryData, NftMintData, NftTransferData } from './nfts.js';
import type { SubscriptionData } from './subscriptions.js';
import type { ElectionData } from './elections.js';
import type { JettonSwapData, SwapTransfer } from './swaps.js';
import type { DepositLiquidityData, WithdrawLiquidityData } from './liquidity.js';
import { dedustDepositParts, DEDUST_DEPOSIT, DEDUST_DEPOSIT_PARTIAL, type DedustDepositData } from './dedust-liquidity.js';
import { toncoDeployPoolParts, type ToncoDeployPoolData } from './tonco-deploy-pool.js';
import { coffeeDepositParts, COFFEE_DEPOSIT, type CoffeeDepositData } from './coffee-liquidity.js';
import { coffeeCreateVaultParts, type CoffeeCreateVaultData } from './coffee-create-vault.js';
import {
  coffeeStakingDepositParts,
  coffeeStakingWithdrawParts,
  coffeeStakingClaimRewardsParts,
  type CoffeeStakingClaimData,
  type CoffeeStakingDepositData,
  type CoffeeStakingWithdrawData,
} from './coffee-staking.js';
import { coffeeMevHoldFundsParts, type CoffeeMevFailedSwapData, type CoffeeMevHoldFundsData } from './coffee-mev-protect.js';
import {
  coffeePoolCreatorParts,
  coffeeCreatePoolParts,
  COFFEE_CREATE_POOL_CREATOR,
  type CoffeeCreatePoolData,
  type CoffeePoolCreatorData,
} from './coffee-create-pool.js';
import {
  toncoDepositParts,
  toncoWithdrawParts,
  TONCO_DEPOSIT,
  TONCO_WITHDRAW,
  type ToncoDepositData,
  type ToncoWithdrawData,
} from './tonco-liquidity.js';
import {
  nftTransferDetails,
  nftPurchaseParts,
  nftPutOnSaleParts,
  nftCancelSaleParts,
  nftUpdateSaleParts,
  type NftCancelSaleData,
  type NftPurchaseData,
  type NftPutOnSaleData,
  type NftUpdateSaleData,
} from './nft-sales.js';
import { dnsPurchaseParts, dnsReleaseParts, type DnsPurchaseData, type DnsReleaseData } from './telemint.js';
import {
  nftPutOnAuctionParts,
  auctionBidParts,
  auctionOutbidParts,
  nftAuctionTradeParts,
  type AuctionBidData,
  type AuctionOutbidData,
  type NftAuctionTradeData,
  type NftPutOnAuctionData,
} from './nft-auctions.js';
import { multisigParts } from './multisig.js';
import { vestingParts } from './vesting.js';
import { TONSTAKERS_DEPOSIT, TONSTAKERS_WITHDRAW, TONSTAKERS_WITHDRAW_REQUEST } from './tonstakers.js';
import { NOMINATOR_POOL_DEPOSIT, NOMINATOR_POOL_WITHDRAW_REQUEST } from './nominator-pools.js';
import { ETHENA_DEPOSIT, ETHENA_WITHDRAWAL_REQUEST } from './ethena-staking.js';
import type { CocoonData } from './cocoon.js';
import { cocoonParts } from './cocoon-details.js';
import { tgbtcParts } from './tgbtc.js';
import { TGBTC_DKG_LOG } from './action-types.js';
import { evaaLiquidateParts, evaaSupplyParts, evaaWithdrawParts } from './evaa-details.js';
import type { EvaaLiquidateData, EvaaSupplyData, EvaaWithdrawData } from './evaa.js';
import {
  jvaultStakeParts,
  jvaultUnstakeParts,
  jvaultClaimParts,
  type JvaultClaimData,
  type JvaultStakeData,
  type JvaultUnstakeData,
} from './jvault.js';
import { layerZeroParts } from './layerzero.js';
import {
  dedustV2ClaimFeesParts,
  dedustV2ClaimRewardParts,
  type DedustV2ClaimFeesData,
  type DedustV2ClaimRewardData,
} from './dedust-v2-claims.js';
import { dedustV2DepositParts, DEDUST_V2_DEPOSIT, DEDUST_V2_DEPOSIT_PARTIAL, type DedustV2DepositData } from './dedust-v2-liquidity.js';

export type { ActionParts } from './details-common.js';

function callContract(block: Block): ActionParts {
  const m = block.eventNodes[0].message;
  const extra = m.extraCurrencies;
  const hasExtra = Object.keys(extra).length > 0;
  return {
    details: {
      ...omitEmpty({
        opcode: m.opcode === null ? null : formatOpcode(m.opcode),
        source: m.source,
        destination: m.destination,
        value: str(m.value),
      }),
      extra_currencies: extra,
    },
    ends: [m.source, null, m.destination, null],
    ...(hasExtra ? { shownType: 'extra_currency_transfer' } : {}),
  };
}

function contractDeploy(data: DeployData): ActionParts {
  return {
    details: omitEmpty({
      opcode: data.opcode === null ? null : formatOpcode(data.opcode),
      source: data.source,
      destination: data.destination,
      value: str(data.value),
    }),
    ends: [data.source, null, data.destination, null],
  };
}

function tonTransfer(block: TonTransferBlock): ActionParts {
  const m = block.message;
  const extra = m.extraCurrencies;
  return {
    details: {
      source: m.source,
      destination: m.destination,
      value: str(m.value),
      value_extra_currencies: extra,
      comment: block.comment,
      encrypted: block.encrypted,
    },
    ends: [m.source, null, m.destination, null],
    ...(Object.keys(extra).length > 0 ? { shownType: 'extra_currency_transfer' } : {}),
  };
}

function jettonTransfer(d: JettonTransferData): ActionParts {
  return {
    details: {
      asset: d.asset,
      sender: d.sender,
      receiver: d.receiver,
      sender_jetton_wallet: d.senderWallet,
      receiver_jetton_wallet: d.receiverWallet,
      amount: str(d.amount),
      comment: d.comment,
      is_encrypted_comment: d.encryptedComment,
      query_id: str(d.queryId),
      response_destination: d.response,
      custom_payload: d.customPayload,
      forward_payload: d.forwardPayload,
      forward_amount: str(d.forwardAmount),
    },
    ends: [d.sender, d.senderWallet, d.receiver, d.receiverWallet],
  };
}

/** One side of a swap (ton-index-go's ActionDetailsJettonSwapTransfer). */
const swapTransfer = (t: SwapTransfer): Json => ({
  asset: t.asset,
  source: t.source,
  destination: t.destination,
  source_jetton_wallet: t.sourceJettonWallet,
  destination_jetton_wallet: t.destinationJettonWallet,
  amount: str(t.amount),
});

function jettonSwap(d: JettonSwapData): ActionParts {
  return {
    details: {
      dex: d.dex,
      sender: d.sender,
      asset_in: d.assets ? d.assets.in : d.incoming.asset,
      asset_out: d.assets ? d.assets.out : (d.destinationAsset ?? d.outgoing.asset),
      dex_incoming_transfer: swapTransfer(d.incoming),
      dex_outgoing_transfer: swapTransfer(d.outgoing),
      peer_swaps: (d.peerSwaps ?? []).map((p) => ({
        asset_in: p.assetIn,
        amount_in: str(p.amountIn),
        asset_out: p.assetOut,
        amount_out: str(p.amountOut),
      })),
      // ton-index-go's TONCO and DeDust v2 swap details carry one field more.
      ...(d.minOutAmount !== undefined ? { min_out_amount: str(d.minOutAmount) } : {}),
    },
    ends: [
      d.incoming.source,
      d.incoming.sourceJettonWallet,
      d.outgoing.destination,
      d.destinationWallet ?? d.outgoing.destinationJettonWallet,
    ],
  };
}

function depositLiquidity(d: DepositLiquidityData): ActionParts {
  return {
    details: {
      dex: d.dex,
      amount_1: str(d.amount1),
      amount_2: str(d.amount2),
      asset_1: d.asset1,
      asset_2: d.asset2,
      user_jetton_wallet_1: d.senderWallet1,
      user_jetton_wallet_2: d.senderWallet2,
      source: d.sender,
      pool: d.pool,
      // ton-index-go: the pool, except for DeDust (its deposit contract).
      destination_liquidity: d.pool,
      lp_tokens_minted: str(d.lpTokensMinted),
      target_asset_1: null,
      target_asset_2: null,
      target_amount_1: null,
      target_amount_2: null,
      vault_excesses: [],
      tick_lower: null,
      tick_upper: null,
      nft_index: null,
      nft_address: null,
    },
    ends: [d.sender, null, d.pool, null],
  };
}

function withdrawLiquidity(d: WithdrawLiquidityData): ActionParts {
  const [first, second] = d.outs;
  return {
    details: {
      dex: d.dex,
      amount_1: str(first?.amount),
      amount_2: str(second?.amount),
      asset_1: first?.asset ?? null,
      asset_2: second?.asset ?? null,
      user_jetton_wallet_1: first?.userWallet ?? null,
      user_jetton_wallet_2: second?.userWallet ?? null,
      lp_tokens_burnt: str(d.lpTokensBurnt),
      // ton-index-go never fills it (its switch has no line for it): null, kept.
      is_refund: null,
      source: d.sender,
      pool: d.pool,
      destination_liquidity: d.pool,
      burnt_nft_index: null,
      burnt_nft_address: null,
      tick_lower: null,
      tick_upper: null,
    },
    ends: [d.sender, d.senderWallet, d.pool, null],
  };
}

function nftTransfer(d: NftTransferData): ActionParts {
  return { details: nftTransferDetails(d, null), ends: [d.previousOwner, null, d.newOwner, null] };
}

/** A DNS record's value in ton-index-go's sum-type shape (its DNSText lands in dns_storage_address: toncenter's own slip, kept). */
function dnsValue(d: DnsData): Json {
  const value: Json = {
    sum_type: d.value?.schema ?? null,
    dns_smc_address: null,
    dns_adnl_address: null,
    dns_text: null,
    dns_next_resolver_address: null,
    dns_storage_address: null,
    flags: null,
  };
  const v = d.value;
  if (!v) return value;
  if (v.schema === 'DNSNextResolver') value.dns_next_resolver_address = v.address;
  if (v.schema === 'DNSSmcAddress') value.dns_smc_address = v.address;
  if (v.schema === 'DNSAdnlAddress') value.dns_adnl_address = v.hex;
  if (v.schema === 'DNSStorageAddress') value.dns_storage_address = v.hex;
  if (v.schema === 'DNSText') value.dns_storage_address = v.text;
  if ('flags' in v) value.flags = v.flags;
  return value;
}

/** The details and ends of a block toncenter serializes; null for a type this classifier does not produce. */
export function actionParts(block: Block): ActionParts {
  switch (block.type) {
    case 'call_contract':
      return callContract(block);
    case 'contract_deploy':
      return contractDeploy(block.data as DeployData);
    case 'ton_transfer':
      return tonTransfer(block as TonTransferBlock);
    case 'tick_tock':
      return { details: {}, ends: [(block.data as { account: string }).account, null, null, null] };
    case 'jetton_transfer':
      return jettonTransfer(block.data as JettonTransferData);
    case 'jetton_burn': {
      const d = block.data as JettonBurnData;
      return {
        details: { owner: d.owner, owner_jetton_wallet: d.wallet, asset: d.asset, amount: str(d.amount) },
        ends: [d.owner, d.wallet, null, null],
      };
    }
    case 'jetton_mint': {
      const d = block.data as JettonMintData;
      return {
        details: {
          asset: d.asset,
          receiver: d.to,
          receiver_jetton_wallet: d.toWallet,
          amount: str(d.amount),
          ton_amount: str(d.tonAmount),
        },
        ends: [null, null, d.to, d.toWallet],
      };
    }
    case 'nft_mint': {
      const d = block.data as NftMintData;
      return {
        details: { ...omitEmpty({ owner: d.source }), nft_item: d.item, nft_collection: d.collection, nft_item_index: d.index },
        ends: [d.source, null, d.item, null],
      };
    }
    case 'nft_transfer':
      return nftTransfer(block.data as NftTransferData);
    case 'dex_deposit_liquidity':
      return depositLiquidity(block.data as DepositLiquidityData);
    case 'dex_withdraw_liquidity':
      return withdrawLiquidity(block.data as WithdrawLiquidityData);
    case DEDUST_DEPOSIT:
    case DEDUST_DEPOSIT_PARTIAL:
      return dedustDepositParts(block.data as DedustDepositData);
    case DEDUST_V2_DEPOSIT:
    case DEDUST_V2_DEPOSIT_PARTIAL:
      return dedustV2DepositParts(block.data as DedustV2DepositData, block.type === DEDUST_V2_DEPOSIT_PARTIAL);
    case TONCO_DEPOSIT:
      return toncoDepositParts(block.data as ToncoDepositData);
    case TONCO_WITHDRAW:
      return toncoWithdrawParts(block.data as ToncoWithdrawData);
    case COFFEE_DEPOSIT:
      return coffeeDepositParts(block.data as CoffeeDepositData);
    case COFFEE_CREATE_POOL_CREATOR:
      return coffeePoolCreatorParts(block.data as CoffeePoolCreatorData);
    case 'coffee_create_pool':
      return coffeeCreatePoolParts(block.data as CoffeeCreatePoolData);
    case 'coffee_mev_protect_hold_funds':
      return coffeeMevHoldFundsParts(block.data as CoffeeMevHoldFundsData);
    case 'coffee_mev_protect_failed_swap':
      // ton-index-go has no details for it (its default answer); the recipient is its only end.
      return { details: unsupportedDetails(block.type), ends: [null, null, (block.data as CoffeeMevFailedSwapData).recipient, null] };
    case 'coffee_staking_deposit':
      return coffeeStakingDepositParts(block.data as CoffeeStakingDepositData);
    case 'coffee_staking_withdraw':
      return coffeeStakingWithdrawParts(block.data as CoffeeStakingWithdrawData);
    case 'coffee_staking_claim_rewards':
      return coffeeStakingClaimRewardsParts(block.data as CoffeeStakingClaimData);
    case 'coffee_create_vault':
      return coffeeCreateVaultParts(block.data as CoffeeCreateVaultData);
    case 'tonco_deploy_pool':
      return toncoDeployPoolParts(block.data as ToncoDeployPoolData);
    case 'jetton_swap':
      return jettonSwap(block.data as JettonSwapData);
    case 'nft_purchase':
      return nftPurchaseParts(block.data as NftPurchaseData);
    case 'nft_put_on_sale':
      return nftPutOnSaleParts(block.data as NftPutOnSaleData);
    case 'nft_cancel_sale':
      return nftCancelSaleParts(block.data as NftCancelSaleData);
    case 'nft_put_on_auction':
    case 'teleitem_start_auction':
      return nftPutOnAuctionParts(block.data as NftPutOnAuctionData);
    case 'nft_update_sale':
      return nftUpdateSaleParts(block.data as NftUpdateSaleData);
    case 'dns_purchase':
      return dnsPurchaseParts(block.data as DnsPurchaseData);
    case 'dns_release':
      return dnsReleaseParts(block.data as DnsReleaseData);
    case 'auction_bid':
      return auctionBidParts(block.data as AuctionBidData);
    case 'auction_outbid':
      return auctionOutbidParts(block.data as AuctionOutbidData);
    case 'nft_cancel_auction':
    case 'nft_finish_auction':
    case 'teleitem_cancel_auction':
      return nftAuctionTradeParts(block.data as NftAuctionTradeData);
    case 'change_dns': {
      const d = block.data as DnsData;
      return {
        details: { key: d.key, value: dnsValue(d), source: d.source, asset: d.destination, nft_collection: d.collection },
        ends: [d.source, null, d.destination, null],
      };
    }
    case 'delete_dns': {
      const d = block.data as DnsData;
      return {
        details: { hash: d.key, source: d.source, asset: d.destination, nft_collection: d.collection },
        ends: [d.source, null, d.destination, null],
      };
    }
    case 'renew_dns': {
      const d = block.data as DnsData;
      return {
        details: { source: d.source, asset: d.destination, nft_collection: d.collection },
        ends: [d.source, null, d.destination, null],
      };
    }
    case TONSTAKERS_DEPOSIT:
    case TONSTAKERS_WITHDRAW_REQUEST:
    case TONSTAKERS_WITHDRAW:
    case NOMINATOR_POOL_DEPOSIT:
    case NOMINATOR_POOL_WITHDRAW_REQUEST:
    case ETHENA_DEPOSIT:
    case ETHENA_WITHDRAWAL_REQUEST:
      return stakeParts(block);
    case 'evaa_supply':
      return evaaSupplyParts(block.data as EvaaSupplyData);
    case 'evaa_withdraw':
      return evaaWithdrawParts(block.data as EvaaWithdrawData);
    case 'evaa_liquidate':
      return evaaLiquidateParts(block.data as EvaaLiquidateData);
    case 'jvault_stake':
      return jvaultStakeParts(block.data as JvaultStakeData);
    case 'jvault_unstake':
    case 'jvault_unstake_request':
      return jvaultUnstakeParts(block.data as JvaultUnstakeData);
    case 'jvault_claim':
      return jvaultClaimParts(block.data as JvaultClaimData);
    case 'nft_discovery': {
      const d = block.data as NftDiscoveryData;
      return {
        details: { source: d.sender, nft_item: d.item, nft_collection: d.collection, nft_item_index: d.index },
        ends: [d.sender, null, null, null],
      };
    }
    case 'subscribe':
    case 'unsubscribe': {
      const d = block.data as SubscriptionData;
      // ton-index-go: the beneficiary omitempty in both; the amount omitempty only in an unsubscribe (never written).
      const amount = block.type === 'subscribe' ? { amount: str(d.amount) } : omitEmpty({ amount: str(d.amount) });
      return {
        details: { subscriber: d.subscriber, ...omitEmpty({ beneficiary: d.beneficiary }), subscription: d.subscription, ...amount },
        ends: [d.subscriber, null, d.beneficiary, d.subscription],
      };
    }
    case 'election_deposit':
    case 'election_recover': {
      const d = block.data as ElectionData;
      return { details: { stake_holder: d.stakeHolder, ...omitEmpty({ amount: str(d.amount) }) }, ends: [d.stakeHolder, null, null, null] };
    }
    case 'multisig_create_order':
    case 'multisig_approve':
    case 'multisig_execute':
      return multisigParts(block);
    case 'vesting_send_message':
    case 'vesting_add_whitelist':
      return vestingParts(block);
    case 'layerzero_send':
    case 'layerzero_send_tokens':
    case 'layerzero_receive':
    case 'layerzero_commit_packet':
    case 'layerzero_dvn_verify':
      return layerZeroParts(block);
    case 'dedust_v2_claim_fees':
      return dedustV2ClaimFeesParts(block.data as DedustV2ClaimFeesData);
    case 'dedust_v2_claim_reward':
      return dedustV2ClaimRewardParts(block.data as DedustV2ClaimRewardData);
    case 'tgbtc_mint':
    case 'tgbtc_burn':
    case 'tgbtc_new_key':
    case TGBTC_DKG_LOG:
      return tgbtcParts(block);
    default:
      if (block.type.startsWith('cocoon_')) return cocoonParts(block.type, block.data as CocoonData);
      throw new Error(`no details for action type ${block.type}`);
  }
}

/** What ton-index-go answers for a type it has no details for (the `unknown` action among them). */
export const unsupportedDetails = (type: string): Json => ({ error: `unsupported action type: '${type}'` });
