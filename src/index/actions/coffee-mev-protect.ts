/**
 * swap.coffee's MEV protection (ton-indexer's `CoffeeMevProtectHoldFundsMatcher` and
 * `CoffeeMevProtectFailedSwapMatcher` in `blocks/liquidity.py`, bodies of `messages/coffee.py`):
 *
 *   coffee_mev_protect_hold_funds   funds handed to the MEV protector to hold: TON with mev_protect_hold_funds#6bc79e7e,
 *                                   or a jetton transfer whose forward payload starts with it; the request that sent it
 *                                   taken along when it also paid swap.coffee's service_fee#c0ffeea0
 *   coffee_mev_protect_failed_swap  funds the protector gives back after a swap it did not make: TON with
 *                                   mev_protect_failed_swap#ee51ce51 (the recipient), or a jetton transfer whose
 *                                   forward payload starts with it
 *
 * Kept as toncenter decides it: never failed; `mev_contract_jetton_wallet` is never filled (null), and for TON the
 * amount is the value the message carried. ton-index-go has no details for a failed swap: it answers them as for any
 * type it does not know (`unsupported action type`), and its only ends are the recipient.
 */
import { Cell } from '@ton/core';
import { folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { ContractMatcher, Matcher } from './matcher.js';
import { str, type ActionParts } from './details-common.js';

export const COFFEE_MEV_OP = { holdFunds: 0x6bc79e7e, failedSwap: 0xee51ce51, serviceFee: 0xc0ffeea0 } as const;

export interface CoffeeMevHoldFundsData {
  sender: string | null;
  senderWallet: string | null;
  mevContract: string | null;
  /** TON: null. */
  asset: string | null;
  amount: bigint | null;
}

export interface CoffeeMevFailedSwapData {
  recipient: string | null;
  asset: string | null;
}

/** The first 32 bits of a jetton transfer's forward payload, when it has them. */
function payloadOpcode(transfer: JettonTransferData): number | null {
  if (transfer.forwardPayload === null) return null;
  const cs = Cell.fromBase64(transfer.forwardPayload).beginParse();
  return cs.remainingBits >= 32 ? cs.loadUint(32) : null;
}

/** A call with `opcode`, or a jetton transfer whose forward payload starts with it. */
function carries(block: Block, opcode: number): boolean {
  if (isCallContract(block, opcode)) return true;
  return block.type === 'jetton_transfer' && payloadOpcode(block.data as JettonTransferData) === opcode;
}

class CoffeeMevHoldFundsMatcher extends Matcher {
  constructor() {
    // Any request (an external into a wallet, mostly) that also paid the service fee is taken along.
    super({ parent: new Matcher({ optional: true, child: new ContractMatcher(COFFEE_MEV_OP.serviceFee) }) });
  }

  override test(block: Block): boolean {
    return carries(block, COFFEE_MEV_OP.holdFunds);
  }

  override build(block: Block, others: Block[]): Block[] {
    let data: CoffeeMevHoldFundsData;
    if (block.type === 'jetton_transfer') {
      const t = block.data as JettonTransferData;
      data = { sender: t.sender, senderWallet: t.senderWallet, mevContract: t.receiver, asset: t.asset, amount: t.amount };
    } else {
      const m = (block as CallContractBlock).message;
      data = { sender: m.source, senderWallet: null, mevContract: m.destination, asset: null, amount: m.value };
    }
    return folded('coffee_mev_protect_hold_funds', data, [block, ...others], false);
  }
}

/** mev_protect_failed_swap#ee51ce51 query_id:uint64 recipient: whom the funds go back to. */
function failedSwapRecipient(body: Cell): string | null {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return readAddress(cs);
}

class CoffeeMevFailedSwapMatcher extends Matcher {
  override test(block: Block): boolean {
    return carries(block, COFFEE_MEV_OP.failedSwap);
  }

  override build(block: Block, others: Block[]): Block[] {
    let data: CoffeeMevFailedSwapData;
    if (block.type === 'jetton_transfer') {
      const t = block.data as JettonTransferData;
      data = { recipient: failedSwapRecipient(Cell.fromBase64(t.forwardPayload ?? '')), asset: t.asset };
    } else {
      data = { recipient: failedSwapRecipient((block as CallContractBlock).message.body()), asset: null };
    }
    return folded('coffee_mev_protect_failed_swap', data, [block, ...others], false);
  }
}

export const coffeeMevHoldFundsMatcher = (): Matcher => new CoffeeMevHoldFundsMatcher();
export const coffeeMevFailedSwapMatcher = (): Matcher => new CoffeeMevFailedSwapMatcher();

/**
 * Funds held by swap.coffee's MEV protector (`_fill_coffee_mev_protect_hold_funds`, ton-index-go's
 * ActionDetailsCoffeeMevProtectHoldFunds): the protector's jetton wallet is a column toncenter never fills (null).
 */
export function coffeeMevHoldFundsParts(d: CoffeeMevHoldFundsData): ActionParts {
  return {
    details: {
      source: d.sender,
      source_jetton_wallet: d.senderWallet,
      mev_contract: d.mevContract,
      mev_contract_jetton_wallet: null,
      asset: d.asset,
      amount: str(d.amount),
    },
    ends: [d.sender, d.senderWallet, d.mevContract, null],
  };
}
