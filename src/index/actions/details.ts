/**
 * An action's `details` as ton-index-go writes them (`index/parse/actions.go` ParseRawAction over the columns
 * ton-indexer's serializer fills, `block_tree_serializer.py`), key for key and in its order: amounts, query ids
 * and indexes as decimal strings, addresses raw uppercase, opcodes "0x%08x", payloads base64 BoCs, absent
 * values null (or left out where Go says omitempty). Also the action's `source`/`destination` columns, which
 * decide its accounts.
 */
import { Cell } from '@ton/core';
import { formatOpcode } from '../../ton/message-body.js';
import type { DeployData } from './basic.js';
import type { Block, TonTransferBlock } from './blocks.js';
import { payloadComment } from './bodies.js';
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
import type { NftCancelSaleData, NftPurchaseData, NftPutOnSaleData, NftUpdateSaleData } from './nft-sales.js';
import type { DnsPurchaseData, DnsReleaseData } from './telemint.js';
import type { AuctionBidData, AuctionOutbidData, NftAuctionTradeData, NftPutOnAuctionData } from './nft-auctions.js';
import type { MultisigApproveData, MultisigCreateOrderData, MultisigExecuteData } from './multisig.js';
import type { VestingAddWhitelistData, VestingSendMessageData } from './vesting.js';
import {
  TONSTAKERS_DEPOSIT,
  TONSTAKERS_WITHDRAW,
  TONSTAKERS_WITHDRAW_REQUEST,
  type TonstakersDepositData,
  type TonstakersWithdrawData,
  type TonstakersWithdrawRequestData,
} from './tonstakers.js';
import {
  NOMINATOR_POOL_DEPOSIT,
  NOMINATOR_POOL_WITHDRAW_REQUEST,
  type NominatorPoolDepositData,
  type NominatorPoolWithdrawData,
} from './nominator-pools.js';
import { ETHENA_DEPOSIT, ETHENA_WITHDRAWAL_REQUEST, type EthenaDepositData, type EthenaWithdrawalRequestData } from './ethena-staking.js';
import type { CocoonData } from './cocoon.js';
import { TGBTC_DKG_LOG, type TgbtcBurnData, type TgbtcDkgLogData, type TgbtcMintData, type TgbtcNewKeyData } from './tgbtc.js';
import {
  EVAA_MAINNET_ASSETS,
  EVAA_TON_ASSET_ID,
  evaaAssetIdHex,
  type EvaaLiquidateData,
  type EvaaSupplyData,
  type EvaaWithdrawData,
} from './evaa.js';
import type { JvaultClaimData, JvaultStakeData, JvaultUnstakeData } from './jvault.js';
import type { LzCommitPacketData, LzDvnVerifyData, LzReceiveData, LzSendData, LzSendTokensData } from './layerzero.js';
import type { LzPacket } from './layerzero-bodies.js';
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

/** An NFT transfer's details (ton-index-go's ActionDetailsNftTransfer); a sold one with the sale's terms and payout. */
function nftTransferDetails(d: NftTransferData, payout: Omit<NftPurchaseData, 'transfer'> | null): Json {
  const comment = d.forwardPayload === null ? null : payloadComment(Cell.fromBase64(d.forwardPayload));
  const sold = d.purchase ?? null;
  return {
    nft_collection: d.collection,
    nft_item: d.item,
    nft_item_index: d.index,
    ...omitEmpty({ old_owner: d.previousOwner }),
    new_owner: d.newOwner,
    is_purchase: sold !== null,
    ...omitEmpty({ price: sold?.price }),
    query_id: str(d.queryId),
    response_destination: d.response,
    custom_payload: d.customPayload,
    forward_payload: d.forwardPayload,
    forward_amount: str(d.forwardAmount),
    comment: comment?.comment ?? null,
    is_encrypted_comment: comment ? comment.encrypted : null,
    // ton-index-go names a marketplace from its own table of marketplace addresses; this index has none.
    marketplace: null,
    real_old_owner: sold?.realPreviousOwner ?? null,
    marketplace_address: sold?.marketplaceAddress ?? null,
    payout_amount: str(payout ? payout.payoutAmount : d.payoutAmount),
    // A purchase pays the seller; a transfer answers its listing's fee address, which only a Telegram item's sale
    // fills (its auction's payout).
    payout_address: payout ? (sold?.realPreviousOwner ?? null) : (d.payoutAddress ?? null),
    payout_comment: payout?.payoutComment ?? null,
    payout_comment_encrypted: payout ? payout.payoutEncrypted : null,
    payout_comment_encoded: payout ? payout.payoutEncrypted : null,
    royalty_amount: payout ? null : str(d.royaltyAmount),
    royalty_address: payout ? null : (d.royaltyAddress ?? null),
  };
}

function nftTransfer(d: NftTransferData): ActionParts {
  return { details: nftTransferDetails(d, null), ends: [d.previousOwner, null, d.newOwner, null] };
}

function nftPurchase(d: NftPurchaseData): ActionParts {
  return { details: nftTransferDetails(d.transfer, d), ends: [d.transfer.previousOwner, null, d.transfer.newOwner, null] };
}

function nftPutOnSale(d: NftPutOnSaleData): ActionParts {
  return {
    details: {
      nft_collection: d.collection,
      nft_item: d.item,
      nft_item_index: d.index,
      owner: d.owner,
      listing_address: d.listing,
      sale_address: d.sale,
      // ton-index-go reads this one from the action's destination_secondary, which toncenter's serializer never
      // fills for a sale: null there, kept.
      marketplace_address: null,
      full_price: str(d.fullPrice),
      marketplace_fee: str(d.marketplaceFee),
      royalty_amount: str(d.royaltyAmount),
      marketplace_fee_address: d.marketplaceFeeAddress,
      royalty_address: d.royaltyAddress,
      marketplace: null,
    },
    ends: [d.owner, d.listing, d.sale, null],
  };
}

function nftCancelSale(d: NftCancelSaleData): ActionParts {
  return {
    details: {
      owner: d.owner,
      nft_item: d.item,
      nft_collection: d.collection,
      sale_address: d.sale,
      marketplace_address: d.marketplaceAddress,
      marketplace: null,
    },
    ends: [d.owner, null, d.sale, null],
    accounts: [d.item],
  };
}

/**
 * ton-index-go's ActionDetailsNftPutOnAuction: the auction's fees and bids (its royalty factor is not shown); a
 * Telegram item's `teleitem_start_auction` too (no listing, the item its own auction).
 */
function nftPutOnAuction(d: NftPutOnAuctionData): ActionParts {
  return {
    details: {
      nft_collection: d.collection,
      nft_item: d.item,
      nft_item_index: d.index,
      owner: d.owner,
      listing_address: d.listing,
      auction_address: d.auction,
      // As for a sale: read from destination_secondary, which toncenter's serializer never fills. Null, kept.
      marketplace_address: null,
      marketplace_fee_factor: str(d.mpFeeFactor),
      marketplace_fee_base: str(d.mpFeeBase),
      royalty_fee_base: str(d.royaltyFeeBase),
      max_bid: str(d.maxBid),
      min_bid: str(d.minBid),
      marketplace_fee_address: d.mpFeeAddress,
      royalty_address: d.royaltyFeeAddress,
      marketplace: null,
    },
    ends: [d.owner, d.listing, d.auction, null],
  };
}

function auctionBid(d: AuctionBidData): ActionParts {
  return {
    details: {
      amount: str(d.amount),
      bidder: d.bidder,
      auction: d.auction,
      nft_item: d.item,
      nft_collection: d.collection,
      nft_item_index: d.index,
    },
    ends: [d.bidder, null, d.auction, null],
    accounts: [d.item],
  };
}

function auctionOutbid(d: AuctionOutbidData): ActionParts {
  return {
    details: {
      auction_address: d.auction,
      bidder: d.bidder,
      new_bidder: d.newBidder,
      nft_item: d.item,
      nft_collection: d.collection,
      amount: str(d.amount),
      // comment and marketplace are omitempty in ton-index-go; the marketplace is never named here.
      ...omitEmpty({ comment: d.comment }),
    },
    ends: [d.auction, d.newBidder, d.bidder, null],
    accounts: [d.item],
  };
}

/**
 * nft_cancel_auction, nft_finish_auction and teleitem_cancel_auction (ton-index-go's ActionDetailsNftCancelAuction /
 * ...FinishAuction).
 */
function nftAuctionTrade(d: NftAuctionTradeData): ActionParts {
  return {
    details: {
      owner: d.owner,
      nft_item: d.item,
      nft_collection: d.collection,
      auction_address: d.auction,
      marketplace_address: d.marketplaceAddress,
      marketplace: null,
    },
    ends: [d.owner, null, d.auction, null],
    accounts: [d.item],
  };
}

/** A sale's new terms (ton-index-go's ActionDetailsNftUpdateSale); the NFT is among its accounts. */
function nftUpdateSale(d: NftUpdateSaleData): ActionParts {
  return {
    details: {
      source: d.sender,
      sale_contract: d.sale,
      nft_address: d.item,
      marketplace_address: d.marketplaceAddress,
      marketplace: null,
      full_price: str(d.fullPrice),
      marketplace_fee: str(d.marketplaceFee),
      royalty_amount: str(d.royaltyAmount),
    },
    ends: [d.sender, null, d.sale, null],
    accounts: [d.item],
  };
}

/**
 * A .ton DNS item bought at its auction's end (ton-index-go's ActionDetailsDnsPurchase). toncenter serializes it as a
 * purchase without a previous owner: the new owner is its only end.
 */
function dnsPurchase(d: DnsPurchaseData): ActionParts {
  return {
    details: {
      nft_collection: d.collection,
      nft_item: d.item,
      nft_item_index: d.index,
      new_owner: d.newOwner,
      price: str(d.price),
      query_id: str(d.queryId),
      payout_amount: str(d.price),
    },
    ends: [null, null, d.newOwner, null],
  };
}

function dnsRelease(d: DnsReleaseData): ActionParts {
  return {
    details: {
      query_id: str(d.queryId),
      source: d.source,
      nft_item: d.item,
      nft_collection: d.collection,
      nft_item_index: d.index,
      value: str(d.value),
    },
    ends: [d.source, null, d.item, null],
  };
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

function stakeParts(block: Block): ActionParts {
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

/**
 * LayerZero's nested parts (ton-index-go's ActionDetailsLayerZeroSendDetails and ActionDetailsLayerZeroPacket):
 * numbers as JSON numbers (Go's uint64/int32/int64 fields), the 256-bit ones as the hex strings toncenter stores.
 */
const lzPacket = (p: LzPacket): Json => ({
  src_oapp: p.srcOapp,
  dst_oapp: p.dstOapp,
  src_eid: p.srcEid,
  dst_eid: p.dstEid,
  nonce: Number(p.nonce),
  guid: p.guid,
  message: p.message,
});

const lzSendData = (d: LzSendData): Json => ({
  send_request_id: Number(d.sendRequestId),
  msglib_manager: d.msglibManager,
  msglib: d.msglib,
  uln: d.uln,
  native_fee: Number(d.nativeFee),
  zro_fee: Number(d.zroFee),
  endpoint: d.endpoint,
  channel: d.channel,
});

function layerZeroParts(block: Block): ActionParts {
  switch (block.type) {
    case 'layerzero_send': {
      const d = block.data as LzSendData;
      return {
        details: { initiator: d.initiator, layerzero_send_data: lzSendData(d), layerzero_packet_data: lzPacket(d.packet) },
        ends: [d.initiator, null, null, null],
      };
    }
    case 'layerzero_send_tokens': {
      const { transfer: t, send } = block.data as LzSendTokensData;
      return {
        details: {
          sender: t.sender,
          sender_wallet: t.senderWallet,
          oapp: t.receiver,
          oapp_wallet: t.receiverWallet,
          asset: t.asset,
          amount: str(t.amount),
          layerzero_send_data: lzSendData(send),
          layerzero_packet_data: lzPacket(send.packet),
        },
        ends: [t.sender, t.senderWallet, t.receiver, t.receiverWallet],
      };
    }
    case 'layerzero_receive': {
      const d = block.data as LzReceiveData;
      return {
        details: { sender: d.sender, oapp: d.oapp, channel: d.channel, layerzero_packet_data: lzPacket(d.packet) },
        ends: [d.sender, null, d.oapp, d.channel],
      };
    }
    case 'layerzero_commit_packet': {
      const d = block.data as LzCommitPacketData;
      return {
        details: {
          sender: d.sender,
          endpoint: d.endpoint,
          uln: d.uln,
          uln_connection: d.ulnConnection,
          channel: d.channel,
          msglib_connection: d.msglibConnection,
          layerzero_packet_data: lzPacket(d.packet),
        },
        // The channel and the msglib connection are toncenter's asset columns: no accounts of the action.
        ends: [d.sender, d.endpoint, d.uln, d.ulnConnection],
      };
    }
    default: {
      const d = block.data as LzDvnVerifyData;
      return {
        details: {
          initiator: d.sender,
          nonce: Number(d.nonce),
          status: d.status,
          dvn: d.dvn,
          proxy: d.proxy,
          uln: d.uln,
          uln_connection: d.ulnConnection,
        },
        ends: [d.sender, null, null, null],
      };
    }
  }
}

/**
 * An EVAA supply (`_fill_evaa_supply_action`, ton-index-go's ActionDetailsEvaaSupply): `sender_jetton_wallet` is a
 * column toncenter never fills (null; the sender's wallet is `source_wallet`); the asset null for TON.
 */
function evaaSupply(d: EvaaSupplyData): ActionParts {
  return {
    details: {
      sender_jetton_wallet: null,
      recipient_jetton_wallet: d.recipientJettonWallet,
      master_jetton_wallet: d.masterJettonWallet,
      master: d.master,
      asset_id: evaaAssetIdHex(d.assetId),
      is_ton: d.isTon,
      source: d.sender,
      source_wallet: d.senderJettonWallet,
      recipient: d.recipient,
      recipient_contract: d.recipientContract,
      asset: d.asset,
      amount: str(d.amount),
    },
    ends: [d.sender, d.senderJettonWallet, d.recipient, d.recipientContract],
  };
}

/** An EVAA withdrawal (`_fill_evaa_withdraw_action`, ton-index-go's ActionDetailsEvaaWithdraw). */
function evaaWithdraw(d: EvaaWithdrawData): ActionParts {
  return {
    details: {
      recipient_jetton_wallet: d.recipientJettonWallet,
      master_jetton_wallet: d.masterJettonWallet,
      master: d.master,
      fail_reason: d.failReason,
      asset_id: evaaAssetIdHex(d.assetId),
      source: d.owner,
      recipient: d.recipient,
      owner_contract: d.ownerContract,
      asset: d.asset,
      amount: str(d.amount),
    },
    ends: [d.owner, null, d.recipient, d.ownerContract],
  };
}

/** Python's str() of toncenter's AccountId: the raw form in lowercase, "addr_none" for none. */
const pythonAccount = (address: string | null): string => (address === null ? 'addr_none' : address.toLowerCase());

/**
 * An EVAA liquidation (`_fill_evaa_liquidate_action`, ton-index-go's ActionDetailsEvaaLiquidate), toncenter's slips
 * kept: its filler writes the liquidator, borrower and borrower's contract with Python's str() (lowercase raw), and
 * the collateral's asset id in decimal as `collateral`; ton-index-go names the asset from its mainnet table. The ends
 * (the action's accounts) stay in the raw uppercase form every other account has.
 */
function evaaLiquidate(d: EvaaLiquidateData): ActionParts {
  const assetId = evaaAssetIdHex(d.collateralAssetId);
  const isTon = d.collateralAssetId === EVAA_TON_ASSET_ID;
  const asset = isTon ? null : (EVAA_MAINNET_ASSETS.get(assetId) ?? null);
  return {
    details: {
      fail_reason: d.failReason,
      debt_amount: str(d.debtAmount),
      source: pythonAccount(d.liquidator),
      borrower: pythonAccount(d.borrower),
      borrower_contract: d.borrowerContract === null ? null : pythonAccount(d.borrowerContract),
      collateral: d.collateralAssetId.toString(),
      asset_id: assetId,
      asset,
      is_known_asset: isTon || asset !== null,
      amount: str(d.collateralAmount),
    },
    ends: [d.liquidator, null, d.borrower, d.borrowerContract],
  };
}

/** A JVault stake (`_fill_jvault_stake`): `minted_stake_jettons` is a column toncenter never fills (null). */
function jvaultStake(d: JvaultStakeData): ActionParts {
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
function jvaultUnstake(d: JvaultUnstakeData): ActionParts {
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
function jvaultClaim(d: JvaultClaimData): ActionParts {
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

/** A cocoon action's details: ton-index-go's struct for its type (`ActionDetailsCocoon*`), its fields in their order. */
function cocoon(type: string, d: CocoonData): ActionParts {
  const query = { query_id: str(d.queryId) };
  const route = { source: d.source, destination: d.destination };
  const amount = { amount: str(d.amount) };
  const signed = { new_tokens_used: str(d.newTokensUsed), expected_address: d.expectedAddress ?? null };
  let details: Json;
  switch (type) {
    case 'cocoon_worker_payout':
      details = {
        payout_type: d.payoutType,
        ...query,
        new_tokens: str(d.newTokens),
        worker_state: d.workerState,
        worker_tokens: str(d.workerTokens),
        ...route,
        ...amount,
      };
      break;
    case 'cocoon_proxy_payout':
      details = { ...query, ...route };
      break;
    case 'cocoon_proxy_charge':
      details = { ...query, ...signed, ...route };
      break;
    case 'cocoon_client_top_up':
      details = { ...query, ...route, ...amount };
      break;
    case 'cocoon_register_proxy':
      details = { ...query, destination: d.destination };
      break;
    case 'cocoon_unregister_proxy':
      details = { ...query, seqno: d.seqno, destination: d.destination };
      break;
    case 'cocoon_client_register':
      details = { ...query, nonce: str(d.nonce), ...route };
      break;
    case 'cocoon_client_change_secret_hash':
      details = { ...query, new_secret_hash: d.newSecretHash, ...route };
      break;
    case 'cocoon_client_request_refund':
      details = { ...query, via_wallet: d.viaWallet, ...route };
      break;
    case 'cocoon_grant_refund':
      details = { ...query, ...signed, ...route, ...amount };
      break;
    case 'cocoon_client_increase_stake':
      details = { ...query, new_stake: str(d.newStake), ...route, ...amount };
      break;
    case 'cocoon_client_withdraw':
      details = { ...query, withdraw_amount: str(d.withdrawAmount), ...route, ...amount };
      break;
    default:
      throw new Error(`no cocoon details for ${type}`);
  }
  return { details, ends: [d.source, d.sourceSecondary, d.destination, d.destinationSecondary] };
}

/**
 * tgBTC's details (ton-index-go's `ActionDetailsTgbtc*`, the txid and public keys from the action's `extra`); a
 * fallback is answered as `<type>_fallback` while its block type makes its id. The ends are toncenter's columns (a
 * new key's public key and timestamp are in none).
 */
function tgbtc(block: Block): ActionParts {
  const fallback = (f: boolean) => (f ? { type: `${block.type}_fallback` } : {});
  switch (block.type) {
    case 'tgbtc_mint': {
      const d = block.data as TgbtcMintData;
      return {
        ...fallback(d.fallback),
        details: {
          source: d.sender,
          destination: d.recipient,
          amount: str(d.amount),
          asset: d.asset,
          bitcoin_tx_id: d.bitcoinTxId,
          destination_wallet: d.recipientWallet,
        },
        ends: [d.sender, d.teleport, d.recipient, d.recipientWallet],
      };
    }
    case 'tgbtc_burn': {
      const d = block.data as TgbtcBurnData;
      return {
        ...fallback(d.fallback),
        details: { source: d.sender, source_wallet: d.wallet, destination: d.pegout, amount: str(d.amount), asset: d.asset },
        ends: [d.sender, d.wallet, d.pegout, null],
      };
    }
    case 'tgbtc_new_key': {
      const d = block.data as TgbtcNewKeyData;
      return {
        ...fallback(d.fallback),
        details: { source: d.teleport, pubkey: d.pubkey, coordinator: d.coordinator, pegout: d.pegout, amount: str(d.amount), asset: null },
        ends: [d.teleport, null, d.coordinator, d.pegout],
      };
    }
    default: {
      const d = block.data as TgbtcDkgLogData;
      return {
        type: 'tgbtc_dkg_log_fallback',
        details: { coordinator: d.coordinator, pubkey: d.pubkey, timestamp: str(d.timestamp) },
        ends: [d.coordinator, null, null, null],
      };
    }
  }
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
      return nftPurchase(block.data as NftPurchaseData);
    case 'nft_put_on_sale':
      return nftPutOnSale(block.data as NftPutOnSaleData);
    case 'nft_cancel_sale':
      return nftCancelSale(block.data as NftCancelSaleData);
    case 'nft_put_on_auction':
    case 'teleitem_start_auction':
      return nftPutOnAuction(block.data as NftPutOnAuctionData);
    case 'nft_update_sale':
      return nftUpdateSale(block.data as NftUpdateSaleData);
    case 'dns_purchase':
      return dnsPurchase(block.data as DnsPurchaseData);
    case 'dns_release':
      return dnsRelease(block.data as DnsReleaseData);
    case 'auction_bid':
      return auctionBid(block.data as AuctionBidData);
    case 'auction_outbid':
      return auctionOutbid(block.data as AuctionOutbidData);
    case 'nft_cancel_auction':
    case 'nft_finish_auction':
    case 'teleitem_cancel_auction':
      return nftAuctionTrade(block.data as NftAuctionTradeData);
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
      return evaaSupply(block.data as EvaaSupplyData);
    case 'evaa_withdraw':
      return evaaWithdraw(block.data as EvaaWithdrawData);
    case 'evaa_liquidate':
      return evaaLiquidate(block.data as EvaaLiquidateData);
    case 'jvault_stake':
      return jvaultStake(block.data as JvaultStakeData);
    case 'jvault_unstake':
    case 'jvault_unstake_request':
      return jvaultUnstake(block.data as JvaultUnstakeData);
    case 'jvault_claim':
      return jvaultClaim(block.data as JvaultClaimData);
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
    case 'multisig_create_order': {
      const d = block.data as MultisigCreateOrderData;
      return {
        details: {
          query_id: str(d.queryId),
          order_seqno: str(d.orderSeqno),
          is_created_by_signer: d.isCreatedBySigner,
          is_signed_by_creator: d.creatorApproved,
          creator_index: d.creatorIndex,
          expiration_date: d.expirationDate,
          order_boc: d.orderBoc,
          source: d.createdBy,
          destination: d.multisig,
          destination_order: d.order,
        },
        ends: [d.createdBy, null, d.multisig, d.order],
        accounts: d.signers,
      };
    }
    case 'multisig_approve': {
      const d = block.data as MultisigApproveData;
      return {
        details: { signer_index: d.signerIndex, exit_code: d.exitCode, source: d.signer, destination: d.order },
        ends: [d.signer, null, d.order, null],
        accounts: d.signers,
      };
    }
    case 'multisig_execute': {
      const d = block.data as MultisigExecuteData;
      return {
        details: {
          query_id: str(d.queryId),
          order_seqno: str(d.orderSeqno),
          expiration_date: d.expirationDate,
          approvals_num: d.approvalsNum,
          signers_hash: d.signersHash,
          order_boc: d.orderBoc,
          source: d.order,
          destination: d.multisig,
        },
        ends: [d.order, null, d.multisig, null],
        accounts: d.signers,
      };
    }
    case 'vesting_send_message': {
      const d = block.data as VestingSendMessageData;
      return {
        details: {
          query_id: str(d.queryId),
          message_boc: d.messageBoc,
          source: d.sender,
          vesting: d.vesting,
          destination: d.messageDestination,
          amount: str(d.messageValue),
        },
        ends: [d.sender, null, d.vesting, d.messageDestination],
      };
    }
    case 'vesting_add_whitelist': {
      const d = block.data as VestingAddWhitelistData;
      return {
        details: { query_id: str(d.queryId), accounts_added: d.accountsAdded, source: d.adder, vesting: d.vesting },
        ends: [d.adder, null, d.vesting, null],
      };
    }
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
      return tgbtc(block);
    default:
      if (block.type.startsWith('cocoon_')) return cocoon(block.type, block.data as CocoonData);
      throw new Error(`no details for action type ${block.type}`);
  }
}

/** What ton-index-go answers for a type it has no details for (the `unknown` action among them). */
export const unsupportedDetails = (type: string): Json => ({ error: `unsupported action type: '${type}'` });
