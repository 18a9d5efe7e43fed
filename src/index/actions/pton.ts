/**
 * pTON, STON.fi's "proxy TON" jetton: its wallets hold no jettons but pass TON on (ton_transfer#01f3835d), so a
 * transfer to a pTON wallet has no internal transfer. toncenter knows pTON by its masters' mainnet addresses
 * (ton-indexer's `PTonTransferMatcher.pton_masters`, kept here as facts) and makes such a transfer a
 * `jetton_transfer` without sender's or receiver's wallet (`PTonTransferMatcher`, matched right after the jetton
 * transfer): the TON legs of STON.fi v2 and TONCO swaps (stonfi-v2-swaps.ts, tonco-swaps.ts) and of STON.fi v2
 * liquidity (liquidity.ts) are read from it.
 */
import type { Cell, Slice } from '@ton/core';
import { folded, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, jettonTransfer, OP, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { ContractMatcher, type Matcher } from './matcher.js';
import type { SwapTransfer } from './swaps.js';
import type { KnownContracts } from './trace-input.js';

/** pTON v1, pTON v2 and TONCO's wTTON masters on mainnet (raw), as toncenter lists them. */
export const PTON_MASTERS: ReadonlySet<string> = new Set([
  '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C',
  '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3',
  '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E',
]);

/** ton_transfer#01f3835d: what a pTON wallet sends with the TON it passes on. */
export const PTON_TON_TRANSFER = 0x01f3835d;

/** ton_transfer#01f3835d query_id ton_amount:Coins refund_address forward_payload:(Maybe ^Cell | inline). */
export function ptonTonTransfer(body: Cell): { tonAmount: bigint; payloadOp: number | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const tonAmount = cs.loadCoins();
  readAddress(cs);
  let payload: Slice | null = null;
  if (cs.remainingBits > 0) {
    const inRef = cs.loadBit();
    if (inRef && cs.remainingRefs > 0) payload = cs.loadRef().beginParse();
  }
  if (payload === null && cs.remainingRefs > 0) payload = cs;
  const payloadOp = payload !== null && payload.remainingBits >= 32 ? payload.loadUint(32) >>> 0 : null;
  return { tonAmount, payloadOp };
}

/** The TON a pTON wallet passed on (ton_transfer's ton_amount). */
export const ptonTonAmount = (body: Cell): bigint => ptonTonTransfer(body).tonAmount;

/** A jetton master as a swap's asset: TON (null) for a pTON master. */
export const swapAsset = (jetton: string | null): string | null => (jetton !== null && PTON_MASTERS.has(jetton) ? null : jetton);

/** A jetton transfer as one side of a swap (pTON: TON), as STON.fi v2's and TONCO's matchers read what was offered. */
export function swapTransferOf(t: JettonTransferData): SwapTransfer {
  return {
    asset: swapAsset(t.asset),
    amount: t.amount,
    source: t.sender,
    sourceJettonWallet: t.senderWallet,
    destination: t.receiver,
    destinationJettonWallet: t.receiverWallet,
  };
}

class PtonTransferMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP.jettonTransfer, { child: new ContractMatcher(OP.jettonNotify, { optional: true }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const wallet = block.message.destination === null ? undefined : this.contracts.jettonWallets.get(block.message.destination);
    if (!wallet || !PTON_MASTERS.has(wallet.jetton)) return [];
    const body = jettonTransfer(block.message.body());
    const data: JettonTransferData = {
      sender: block.message.source,
      senderWallet: null,
      receiver: body.destination,
      receiverWallet: null,
      response: body.response,
      forwardAmount: body.forwardAmount,
      queryId: body.queryId,
      asset: wallet.jetton,
      amount: body.amount,
      forwardPayload: body.forwardPayload,
      customPayload: body.customPayload,
      comment: body.comment,
      encryptedComment: body.encryptedComment,
      pton: true,
    };
    return folded('jetton_transfer', data, [block, ...others], block.failed);
  }
}

export const ptonTransferMatcher = (contracts: KnownContracts): Matcher => new PtonTransferMatcher(contracts);
