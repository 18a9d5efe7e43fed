/**
 * Jetton actions (ton-indexer's `blocks/jettons.py`): a transfer (transfer -> internal_transfer -> optional
 * notification, onto a known jetton wallet), a burn (burn -> optional burn_notification, on a known wallet) and a
 * mint (the master's mint -> internal_transfer onto the new holder's wallet). The jetton wallets are the index's
 * own detection (tokens/): a wallet it has not detected makes no jetton action, only contract calls.
 */
import { findCallContract, folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import {
  jettonBurnAmount,
  jettonInternalTransfer,
  jettonMint,
  jettonTransfer,
  looseAccount,
  OP,
  type JettonTransferBody,
} from './bodies.js';
import { ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import type { KnownContracts } from './trace-input.js';

export interface JettonTransferData {
  sender: string | null;
  senderWallet: string | null;
  receiver: string | null;
  receiverWallet: string | null;
  response: string | null;
  forwardAmount: bigint;
  queryId: bigint;
  /** null: a requested transfer whose jetton wallet the index does not know. */
  asset: string | null;
  amount: bigint;
  forwardPayload: string | null;
  customPayload: string | null;
  comment: string | null;
  encryptedComment: boolean;
  /** A transfer to a pTON wallet (pton.ts): no internal transfer, no wallets. */
  pton?: true;
}

export interface JettonBurnData {
  owner: string;
  wallet: string | null;
  amount: bigint;
  asset: string;
}

export interface JettonMintData {
  to: string | null;
  toWallet: string | null;
  amount: bigint | null;
  tonAmount: bigint;
  asset: string | null;
}

/** The jetton wallet the index knows at `address`, if any. */
const walletAt = (contracts: KnownContracts, address: string | null) =>
  address === null ? undefined : contracts.jettonWallets.get(address);

/** A transfer's data: the request's fields, and what the matcher found out (who got it, what arrived). */
function transferData(
  block: CallContractBlock,
  body: JettonTransferBody,
  found: Pick<JettonTransferData, 'receiver' | 'receiverWallet' | 'asset' | 'amount' | 'forwardAmount'>,
): JettonTransferData {
  const { queryId, response, forwardPayload, customPayload, comment, encryptedComment } = body;
  return {
    sender: block.message.source,
    senderWallet: block.message.destination,
    ...found,
    queryId,
    response,
    forwardPayload,
    customPayload,
    comment,
    encryptedComment,
  };
}

class JettonTransferMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP.jettonTransfer, {
      child: new ContractMatcher(OP.jettonInternalTransfer, { child: new ContractMatcher(OP.jettonNotify, { optional: true }) }),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const body = jettonTransfer(block.message.body());
    const internal = findCallContract(others, OP.jettonInternalTransfer)!;
    let { amount, forwardAmount } = body;
    try {
      ({ amount, forwardAmount } = jettonInternalTransfer(internal.message.body()));
    } catch {
      // The internal transfer's own amounts when it reads; the request's otherwise.
    }
    const receiverWallet = internal.message.destination;
    const wallet = walletAt(this.contracts, receiverWallet);
    if (!wallet) return [];
    let receiver = body.destination;
    // The owner the receiving wallet names is who got the jettons, whatever the request said.
    if (wallet.owner !== receiver) {
      block.broken = true;
      receiver = wallet.owner;
    }
    const data = transferData(block, body, { receiver, receiverWallet, asset: wallet.jetton, amount, forwardAmount });
    return folded('jetton_transfer', data, [block, ...others], block.failed || internal.failed);
  }
}

class JettonBurnMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP.jettonBurn, { child: new ContractMatcher(OP.jettonBurnNotification, { optional: true }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const amount = jettonBurnAmount(block.message.body());
    const address = block.message.destination;
    const wallet = walletAt(this.contracts, address);
    if (!wallet) throw new Error('a burn on a wallet the index does not know');
    return folded(
      'jetton_burn',
      { owner: wallet.owner, wallet: address, amount, asset: wallet.jetton } satisfies JettonBurnData,
      [block, ...others],
      block.failed,
    );
  }
}

class JettonMintMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    const notify = () => new ContractMatcher(OP.jettonNotify, { optional: true });
    super({
      child: new OrMatcher([notify(), new ContractMatcher(OP.jettonInternalTransfer, { optional: true, child: notify() })], {
        optional: true,
      }),
    });
  }

  override test(block: Block): boolean {
    return isCallContract(block, OP.jettonMint) || isCallContract(block, OP.minterJettonMint);
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const mint = jettonMint(block.message.body(), block.opcode!);
    const internal = findCallContract(others, OP.jettonInternalTransfer);
    let data: JettonMintData;
    let failed: boolean;
    if (!block.failed && internal) {
      const { amount } = jettonInternalTransfer(internal.message.body());
      const address = internal.message.destination;
      const wallet = walletAt(this.contracts, address);
      if (!wallet) throw new Error('a mint onto a wallet the index does not know');
      data = { to: wallet.owner, toWallet: address, amount, tonAmount: mint.tonAmount, asset: wallet.jetton };
      failed = internal.failed;
    } else {
      // The master did not pass the tokens on: what was asked for, and a failure.
      data = {
        to: looseAccount(mint.to),
        toWallet: null,
        amount: mint.masterAmount,
        tonAmount: mint.tonAmount,
        asset: block.message.destination,
      };
      failed = true;
    }
    return folded('jetton_mint', data, [block, ...others], failed);
  }
}

/**
 * A transfer a wallet was asked for and did not send (ghosts.ts): the request's own fields, the asset when the sender's
 * jetton wallet is known, no receiving wallet (toncenter's FallbackJettonTransferBlockMatcher).
 */
class RequestedJettonTransferMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP.jettonTransfer);
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const body = jettonTransfer(block.message.body());
    const senderWallet = block.message.destination;
    const wallet = walletAt(this.contracts, senderWallet);
    const data = transferData(block, body, {
      receiver: body.destination,
      receiverWallet: null,
      asset: wallet?.jetton ?? null,
      amount: body.amount,
      forwardAmount: body.forwardAmount,
    });
    return folded('jetton_transfer', data, [block, ...others], block.failed);
  }
}

export const requestedJettonTransferMatcher = (contracts: KnownContracts): Matcher => new RequestedJettonTransferMatcher(contracts);
export const jettonTransferMatcher = (contracts: KnownContracts): Matcher => new JettonTransferMatcher(contracts);
export const jettonBurnMatcher = (contracts: KnownContracts): Matcher => new JettonBurnMatcher(contracts);
export const jettonMintMatcher = (contracts: KnownContracts): Matcher => new JettonMintMatcher(contracts);
