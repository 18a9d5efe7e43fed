/**
 * swap.coffee swaps (ton-indexer's `CoffeeSwapBlockMatcher` in `blocks/swaps.py`, bodies of `messages/coffee.py`),
 * one `jetton_swap` with dex `coffee`:
 *
 *   what the user offered reaches the asset's vault: a jetton transfer (its notification to the vault), or TON with
 *   swap_native#c0ffee00; the vault sends swap_internal#c0ffee20 to the first pool, which logs
 *   swap_successful_event#c0ffee30 (the asset in, the amounts in and out) and either passes swap_internal on to the
 *   next pool of the route or sends payout_internal#c0ffee21 to the vault of the asset out, which pays the user:
 *   TON with payout#c0ffee32 (or notification#c0ffee36), or a jetton transfer.
 *
 * Kept as toncenter decides it: every pool must have logged its success (a refused step makes no swap at all, so a
 * swap is never failed); a TON payout is as much as payout_internal names (its sender, the last pool, is the
 * source), not the value the vault sent; `asset_in` / `asset_out` are the transfers' assets (TON: null);
 * `peer_swaps` lists each pool's step of a route through more than one pool, each step's asset out the next one's
 * asset in. Needs no contract known but the jetton wallets of a jetton transfer in or out.
 */
import type { Cell, Slice } from '@ton/core';
import { findCallContract, folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher, type MatcherOptions } from './matcher.js';
import type { JettonSwapData, PeerSwap, SwapTransfer } from './swaps.js';

export const COFFEE_OP = {
  swapNative: 0xc0ffee00,
  swapInternal: 0xc0ffee20,
  swapSuccessful: 0xc0ffee30,
  payoutInternal: 0xc0ffee21,
  payout: 0xc0ffee32,
  notification: 0xc0ffee36,
} as const;

/** An asset as swap.coffee writes it: native$00, jetton$01 chain:uint8 hash:uint256 (extra$10: not read). */
export function coffeeAsset(cs: Slice): string | null {
  const tag = cs.loadUint(2);
  if (tag === 0) return null;
  if (tag !== 1) throw new Error('a swap.coffee asset toncenter does not read');
  const chain = cs.loadUint(8);
  const workchain = chain > 127 ? chain - 256 : chain;
  return `${workchain}:${cs.loadBuffer(32).toString('hex').toUpperCase()}`;
}

/** swap_successful_event#c0ffee30 query_id input:Asset input_amount:Coins output_amount:Coins reserves. */
function successEvent(body: Cell): { assetIn: string | null; amountIn: bigint; amountOut: bigint } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const assetIn = coffeeAsset(cs);
  const amountIn = cs.loadCoins();
  const amountOut = cs.loadCoins();
  // The pool's reserves follow inline; toncenter reads them, so a body without them is no swap there either.
  cs.loadCoins();
  cs.loadCoins();
  return { assetIn, amountIn, amountOut };
}

/** payout_internal#c0ffee21 query_id recipient amount:Coins ...: whom the vault pays, and how much. */
function payoutInternal(body: Cell): { recipient: string | null; amount: bigint } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return { recipient: readAddress(cs), amount: cs.loadCoins() };
}

/** swap_native#c0ffee00 query_id amount:Coins pool_address_hash:uint256 min_output_amount:Coins ...: the TON offered. */
function swapNativeAmount(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  cs.loadUintBig(256);
  cs.loadCoins();
  return amount;
}

/**
 * The route's further pools (toncenter's `RecursiveMatcher`): from a pool's swap_internal, each swap_internal with
 * its success log after it, until one of the blocks reached is the payout to the vault of the asset out.
 */
class RouteMatcher extends Matcher {
  constructor(
    private readonly hop: Matcher,
    private readonly exit: Matcher,
    options: MatcherOptions = {},
  ) {
    super(options);
  }

  override test(block: Block): boolean {
    return this.hop.test(block);
  }

  override tryBuild(block: Block | null): Block[] | null {
    if (block === null || !this.test(block)) return null;
    const found: Block[] = [];
    let current: Block[] = [block];
    let done = false;
    while (!done && current.length > 0) {
      const checking = current;
      current = [];
      for (const candidate of checking) {
        const exit = this.exit.tryBuild(candidate);
        if (exit) {
          found.push(...exit);
          done = true;
          break;
        }
        const hop = this.hop.tryBuild(candidate);
        if (hop) {
          found.push(...hop);
          for (const b of hop) current.push(...b.nextBlocks);
          break;
        }
      }
    }
    return found.length > 0 ? [block, ...new Set(found)] : null;
  }
}

const transferOf = (block: Block): JettonTransferData => block.data as JettonTransferData;
const lt = (block: Block): bigint => block.eventNodes[0].message.createdLt ?? block.eventNodes[0].tx.lt;

class CoffeeSwapMatcher extends ContractMatcher {
  constructor() {
    const outTransfer = new OrMatcher([
      new BlockTypeMatcher('jetton_transfer'),
      new ContractMatcher(COFFEE_OP.payout),
      new ContractMatcher(COFFEE_OP.notification),
    ]);
    const payout = new ContractMatcher(COFFEE_OP.payoutInternal, { child: outTransfer });
    const hop = new ContractMatcher(COFFEE_OP.swapInternal, { child: new ContractMatcher(COFFEE_OP.swapSuccessful) });
    const inTransfer = new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(COFFEE_OP.swapNative)]);
    super(COFFEE_OP.swapInternal, {
      parent: inTransfer,
      children: [new ContractMatcher(COFFEE_OP.swapSuccessful), new OrMatcher([new RouteMatcher(hop, payout, { optional: true }), payout])],
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const included = new Set<Block>([block, ...others]);
    const before = block.previousBlock;
    const pay = findCallContract(others, COFFEE_OP.payoutInternal);
    if (!before || !included.has(before) || !pay) throw new Error('a swap.coffee swap without its transfer in or payout');
    const out = pay.nextBlocks.find(
      (b) =>
        included.has(b) &&
        (b.type === 'jetton_transfer' || isCallContract(b, COFFEE_OP.payout) || isCallContract(b, COFFEE_OP.notification)),
    );
    if (!out) throw new Error('a swap.coffee payout without its transfer out');

    // Each pool's step, in the order they happened, from its success log.
    const steps: PeerSwap[] = [];
    let ok = true;
    const hops = [...included]
      .filter((b): b is CallContractBlock => isCallContract(b, COFFEE_OP.swapInternal))
      .sort((a, b) => (lt(a) < lt(b) ? -1 : 1));
    for (const hop of hops) {
      const log = findCallContract(hop.nextBlocks, COFFEE_OP.swapSuccessful);
      if (!log) {
        ok = false;
        continue;
      }
      const event = successEvent(log.message.body());
      steps.push({ assetIn: event.assetIn, amountIn: event.amountIn, assetOut: null, amountOut: event.amountOut });
    }
    if (steps.length === 0) throw new Error('a swap.coffee swap without a logged step');

    let incoming: SwapTransfer;
    if (before.type === 'jetton_transfer') {
      const t = transferOf(before);
      incoming = {
        asset: t.asset,
        amount: t.amount,
        source: t.sender,
        sourceJettonWallet: t.senderWallet,
        destination: t.receiver,
        destinationJettonWallet: t.receiverWallet,
      };
    } else {
      const m = (before as CallContractBlock).message;
      incoming = {
        asset: null,
        amount: swapNativeAmount(m.body()),
        source: m.source,
        sourceJettonWallet: null,
        destination: m.destination,
        destinationJettonWallet: null,
      };
    }

    let outgoing: SwapTransfer;
    if (out.type === 'jetton_transfer') {
      const t = transferOf(out);
      outgoing = {
        asset: t.asset,
        amount: t.amount,
        source: t.sender,
        sourceJettonWallet: t.senderWallet,
        destination: t.receiver,
        destinationJettonWallet: t.receiverWallet,
      };
    } else if (isCallContract(out, COFFEE_OP.payout)) {
      const paid = payoutInternal(pay.message.body());
      outgoing = {
        asset: null,
        amount: paid.amount,
        source: pay.message.source,
        sourceJettonWallet: null,
        destination: paid.recipient,
        destinationJettonWallet: null,
      };
    } else {
      const m = (out as CallContractBlock).message;
      outgoing = {
        asset: null,
        amount: m.value ?? 0n,
        source: m.source,
        sourceJettonWallet: null,
        destination: m.destination,
        destinationJettonWallet: null,
      };
    }

    for (let i = 0; i < steps.length - 1; i++) steps[i].assetOut = steps[i + 1].assetIn;
    steps[steps.length - 1].assetOut = outgoing.asset;

    const data: JettonSwapData = {
      dex: 'coffee',
      sender: incoming.source,
      incoming,
      outgoing,
      destinationAsset: outgoing.asset,
      destinationWallet: null,
      assets: { in: incoming.asset, out: outgoing.asset },
      peerSwaps: steps.length > 1 ? steps : [],
    };
    return folded('jetton_swap', data, [block, ...others], !ok);
  }
}

export const coffeeSwapMatcher = (): Matcher => new CoffeeSwapMatcher();
