/**
 * DEX swaps (ton-indexer's `blocks/swaps.py`, bodies of `messages/swaps.py`). Built: STON.fi v1, whose recognition
 * needs only opcodes, message layouts and the jetton wallets the index detected (no router address, no code hash):
 *
 *   a jetton transfer into the router's jetton wallet (its notification makes the router act), then the router's
 *   swap#25938561 to the pool, the pool's pay_to#f93bb43f (payment request) back to the router, and the router's
 *   jetton transfer out -> one `jetton_swap` (dex `stonfi`). The incoming side is the swap message's amount from
 *   its real sender to the router's wallet of the offered token; the outgoing side the transfer the payment request
 *   led to. The pay_to exit code decides `success`: swap_ok#c64370e5 succeeded; a refund (no liquidity #5ffe1295,
 *   reserve error #38976e9b) failed, its transfer back being the outgoing side. A referral payment
 *   (#45078540) is not part of the swap.
 *
 * STON.fi v2: stonfi-v2-swaps.ts; DeDust: dedust-swaps.ts; TONCO: tonco-swaps.ts. Not built: Coffee. Liquidity:
 * liquidity.ts, dedust-liquidity.ts.
 */
import { Cell } from '@ton/core';
import { isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { folded } from './blocks.js';
import { afterOpcode, jettonTransfer, OP, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher } from './matcher.js';
import type { ActionTransaction, KnownContracts } from './trace-input.js';

export const STONFI_OP = { swap: 0x25938561, paymentRequest: 0xf93bb43f } as const;
const EXIT = { ok: 0xc64370e5, okReferral: 0x45078540, noLiquidity: 0x5ffe1295, reserveError: 0x38976e9b } as const;
const SENDER_EXITS: readonly number[] = [EXIT.reserveError, EXIT.noLiquidity, EXIT.ok];

/** One side of a swap as toncenter writes it (asset: a jetton master, null for TON). */
export interface SwapTransfer {
  asset: string | null;
  amount: bigint;
  source: string | null;
  sourceJettonWallet: string | null;
  destination: string | null;
  destinationJettonWallet: string | null;
}

export interface JettonSwapData {
  dex: string;
  sender: string | null;
  incoming: SwapTransfer;
  outgoing: SwapTransfer;
  /** The asset asked for, when the swap payload names a wallet the index knows. */
  destinationAsset: string | null;
  /** The router's wallet of the asked token, as the swap payload names it. */
  destinationWallet: string | null;
  /**
   * What the swap offered and asked for, where the DEX's own steps say it (DeDust, STON.fi v2: toncenter's
   * `source_asset` / `destination_asset`, TON as null); absent: `incoming.asset` and `destinationAsset`.
   */
  assets?: { in: string | null; out: string | null };
  /** Each pool's step of a multi-hop swap (DeDust); absent or one step: []. */
  peerSwaps?: PeerSwap[];
  /** TONCO's and DeDust v2's only (ton-index-go answers `min_out_amount` for those alone): present, even when null. */
  minOutAmount?: bigint | null;
}

/** One pool's step as toncenter writes it (`_convert_peer_swap`). */
export interface PeerSwap {
  assetIn: string | null;
  amountIn: bigint;
  assetOut: string | null;
  amountOut: bigint;
}

/** swap#25938561 as the router sends it to the pool. */
function swapMessage(body: Cell) {
  const cs = afterOpcode(body);
  const queryId = cs.loadUintBig(64);
  const fromUser = readAddress(cs);
  const tokenWallet = readAddress(cs);
  const amount = cs.loadCoins();
  const minOut = cs.loadCoins();
  const hasRef = cs.loadBit();
  const ref = cs.loadRef().beginParse();
  const fromRealUser = readAddress(ref);
  const referral = hasRef ? readAddress(ref) : null;
  return { queryId, fromUser, tokenWallet, amount, minOut, fromRealUser, referral };
}

/** pay_to#f93bb43f (the payment request) as the pool sends it to the router. */
function paymentRequest(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const owner = readAddress(cs);
  const exitCode = cs.loadUint(32) >>> 0;
  const ref = cs.loadRef().beginParse();
  const amount0 = ref.loadCoins();
  const token0 = readAddress(ref);
  const amount1 = ref.loadCoins();
  const token1 = readAddress(ref);
  return { owner, exitCode, amount0, token0, amount1, token1 };
}

/** The router's wallet a jetton transfer's forward payload asks for (swap#25938561 token_wallet ...), or null. */
function askedWallet(forwardPayload: string | null): string | null {
  if (forwardPayload === null) return null;
  try {
    const cs = Cell.fromBase64(forwardPayload).beginParse();
    if (cs.remainingBits < 32 || cs.loadUint(32) >>> 0 !== STONFI_OP.swap) return null;
    const wallet = readAddress(cs);
    cs.loadCoins(); // min_out
    readAddress(cs); // user_address
    return wallet;
  } catch {
    return null;
  }
}

/**
 * The router's wallet a jetton transfer received by `tx` asks a STON.fi swap for: an account the classifier must
 * know (the asked asset) though the trace may not reach it, as toncenter's `extract_target_wallet_stonfi_swap`
 * adds it to the interfaces it loads.
 */
export function swapTargetWallets(tx: ActionTransaction): string[] {
  if (tx.inMsg?.opcode !== OP.jettonTransfer) return [];
  try {
    const wallet = askedWallet(jettonTransfer(tx.inMsg.body()).forwardPayload);
    return wallet === null ? [] : [wallet];
  } catch {
    return [];
  }
}

const transferOf = (block: Block): JettonTransferData => block.data as JettonTransferData;

class StonfiSwapMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    const out = new BlockTypeMatcher('jetton_transfer');
    const payment = new ContractMatcher(STONFI_OP.paymentRequest, { child: out });
    super({ child: new ContractMatcher(STONFI_OP.swap, { child: payment }) });
  }

  override test(block: Block): boolean {
    return block.type === 'jetton_transfer';
  }

  override build(block: Block, found: Block[]): Block[] {
    let others = [...found];
    const swapCall = others.find((b): b is CallContractBlock => isCallContract(b, STONFI_OP.swap))!;
    const swap = swapMessage(swapCall.message.body());
    const requests = others.filter((b): b is CallContractBlock => isCallContract(b, STONFI_OP.paymentRequest));
    if (requests.length === 0) throw new Error('a swap without a payment request');
    let outAmount: bigint | null = null;
    let outWallet: string | null = null;
    let outgoing: Block | undefined;
    let success = false;
    for (const request of requests) {
      const pay = paymentRequest(request.message.body());
      const [amount, wallet] = pay.amount0 > 0n ? [pay.amount0, pay.token0] : [pay.amount1, pay.token1];
      if (SENDER_EXITS.includes(pay.exitCode)) {
        success = pay.exitCode === EXIT.ok;
        if (outAmount === null || outAmount < amount) {
          outgoing = request.nextBlocks.find((b) => b.type === 'jetton_transfer');
          if (!outgoing) throw new Error('a payment request without its jetton transfer');
          outAmount = amount;
          outWallet = wallet;
        }
      } else if (pay.exitCode === EXIT.okReferral) {
        // The referral's payment is not part of the swap.
        const referral = new Set(request.bfs());
        others = others.filter((b) => !referral.has(b));
      }
    }
    if (outAmount === null || outgoing === undefined || outWallet === null) throw new Error('no payment to the sender');
    const incomingTransfer = transferOf(swapCall.previousBlock!);
    const asked = askedWallet(transferOf(block).forwardPayload) ?? outWallet;
    const wallets = this.contracts.jettonWallets;
    const dexInWallet = swap.tokenWallet === null ? undefined : wallets.get(swap.tokenWallet);
    if (!dexInWallet) throw new Error("the router's wallet of the offered token is not known");
    const out = transferOf(outgoing);
    const data: JettonSwapData = {
      dex: 'stonfi',
      sender: swap.fromRealUser,
      incoming: {
        asset: dexInWallet.jetton,
        amount: swap.amount,
        source: swap.fromRealUser,
        sourceJettonWallet: incomingTransfer.senderWallet,
        destination: dexInWallet.owner,
        destinationJettonWallet: swap.tokenWallet,
      },
      outgoing: {
        asset: wallets.get(outWallet)?.jetton ?? null,
        amount: outAmount,
        source: out.sender,
        sourceJettonWallet: out.senderWallet,
        destination: out.receiver,
        destinationJettonWallet: out.receiverWallet,
      },
      destinationAsset: wallets.get(asked)?.jetton ?? null,
      destinationWallet: asked,
    };
    return folded('jetton_swap', data, [block, ...others], !success);
  }
}

export const stonfiSwapMatcher = (contracts: KnownContracts): Matcher => new StonfiSwapMatcher(contracts);
