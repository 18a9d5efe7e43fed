/**
 * EVAA's details (`_fill_evaa_*`, ton-index-go's ActionDetailsEvaa*), beside `evaa.ts` (its matchers, already the
 * room's largest file): asset ids in hex, named from ton-index-go's mainnet table where toncenter names them.
 */
import {
  EVAA_MAINNET_ASSETS,
  EVAA_TON_ASSET_ID,
  evaaAssetIdHex,
  type EvaaLiquidateData,
  type EvaaSupplyData,
  type EvaaWithdrawData,
} from './evaa.js';
import { str, type ActionParts } from './details-common.js';

/**
 * An EVAA supply (`_fill_evaa_supply_action`, ton-index-go's ActionDetailsEvaaSupply): `sender_jetton_wallet` is a
 * column toncenter never fills (null; the sender's wallet is `source_wallet`); the asset null for TON.
 */
export function evaaSupplyParts(d: EvaaSupplyData): ActionParts {
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
export function evaaWithdrawParts(d: EvaaWithdrawData): ActionParts {
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
export function evaaLiquidateParts(d: EvaaLiquidateData): ActionParts {
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
