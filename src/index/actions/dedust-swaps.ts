/**
 * DeDust swaps (ton-indexer's `DedustSwapBlockMatcher` in `blocks/swaps.py`, bodies of `messages/swaps.py`), one
 * `jetton_swap` with dex `dedust`:
 *
 *   what the user offered reaches a vault: a jetton transfer into a jetton vault whose forward payload is
 *   swap#e3a0d482, or TON into the native vault with swap#ea06185d; the vault sends swap_external#61ee542d to the
 *   first pool; each pool logs swap#9c610de3 (the notification: assets and amounts of its step) and either passes
 *   on to the next pool (swap_peer#72aca8aa) or asks the vault of the asset it pays with for the payout
 *   (payout_from_pool#ad4eb6f5), which pays TON (payout#474f86cf) or sends a jetton transfer.
 *
 * A step without its notification failed (the pool refused: the limit was not met), and the payout is then the
 * refund of what was offered; the action is failed. The asset asked for (`asset_out`) is read from the swap's steps
 * against the pools' assets (`KnownContracts.dexPools`: toncenter's `dex_pools`); a step through a pool the index
 * does not know makes no swap (toncenter's matcher throws there too), and the blocks stay contract calls.
 */
import { Cell, type Slice } from '@ton/core';
import { isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { folded } from './blocks.js';
import { afterOpcode, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import type { JettonSwapData, PeerSwap } from './swaps.js';
import type { KnownContracts } from './trace-input.js';

export const DEDUST_OP = {
  /** The jetton transfer's forward payload asking a jetton vault for a swap. */
  swapPayload: 0xe3a0d482,
  /** TON into the native vault. */
  swapTon: 0xea06185d,
  swapExternal: 0x61ee542d,
  swapPeer: 0x72aca8aa,
  notification: 0x9c610de3,
  payoutFromPool: 0xad4eb6f5,
  payout: 0x474f86cf,
} as const;

/** Asset: native$0000, jetton$0001 workchain:int8 address:uint256 (a jetton master, raw uppercase); TON is null. */
export function readAsset(cs: Slice): string | null {
  if (cs.loadUint(4) === 0) return null;
  const workchain = cs.loadInt(8);
  return `${workchain}:${cs.loadBuffer(32).toString('hex').toUpperCase()}`;
}

/** The pool's swap log: one step's assets and amounts. */
function notification(body: Cell): PeerSwap {
  const cs = afterOpcode(body);
  const assetIn = readAsset(cs);
  const assetOut = readAsset(cs);
  return { assetIn, assetOut, amountIn: cs.loadCoins(), amountOut: cs.loadCoins() };
}

/** payout_from_pool#ad4eb6f5 query_id proof:^Cell amount:Coins ...: the amount paid. */
export function payoutAmount(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadRef();
  return cs.loadCoins();
}

/** SwapStep: pool, kind bit, limit, next step (Maybe ^SwapStep): the pools in order. */
function stepPools(cs: Slice): string[] {
  const pools: string[] = [];
  let step: Slice | null = cs;
  while (step !== null) {
    const pool = readAddress(step);
    if (pool === null) throw new Error('a swap step without a pool');
    pools.push(pool);
    step.loadBit();
    step.loadCoins();
    const next = step.loadMaybeRef();
    step = next === null ? null : next.beginParse();
  }
  return pools;
}

/** The asset each step leads to, from the offered one: the last is what the swap asked for. */
function askedAsset(pools: string[], offered: string | null, contracts: KnownContracts): string | null {
  let previous = offered;
  for (const address of pools) {
    const pool = contracts.dexPools?.get(address);
    if (!pool) throw new Error(`the DeDust pool ${address} is not known`);
    const other = pool.assets.find((asset) => asset !== previous);
    if (other !== undefined) previous = other;
  }
  return previous;
}

/**
 * Pool steps from a block: a swap (external or peer) with its optional notification, repeated through the pools
 * until a pool's payout (ton-indexer's RecursiveMatcher of DeDust peers).
 */
class DedustHopsMatcher extends Matcher {
  constructor(
    private readonly step: Matcher,
    private readonly exit: Matcher,
  ) {
    super();
  }

  override test(block: Block): boolean {
    return this.step.test(block);
  }

  override tryBuild(block: Block | null): Block[] | null {
    if (block === null || !this.test(block)) return null;
    const found = new Set<Block>();
    let current = [block];
    for (;;) {
      let next: Block[] = [];
      let finished = false;
      for (const candidate of current) {
        const exit = this.exit.tryBuild(candidate);
        if (exit) {
          exit.forEach((b) => found.add(b));
          finished = true;
          break;
        }
        const hop = this.step.tryBuild(candidate);
        if (hop) {
          hop.forEach((b) => found.add(b));
          next = hop.flatMap((b) => b.nextBlocks);
          break;
        }
      }
      if (finished) return [...found];
      if (next.length === 0) return null;
      current = next;
    }
  }
}

const transferOf = (block: Block): JettonTransferData => block.data as JettonTransferData;
const lt = (block: Block): bigint => block.eventNodes[0].message.createdLt ?? block.eventNodes[0].tx.lt;

class DedustSwapMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    const notified = () => ({ children: [new ContractMatcher(DEDUST_OP.notification, { optional: true })] });
    const step = new OrMatcher([
      new ContractMatcher(DEDUST_OP.swapPeer, notified()),
      new ContractMatcher(DEDUST_OP.swapExternal, notified()),
    ]);
    const payout = new ContractMatcher(DEDUST_OP.payoutFromPool, {
      child: new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(DEDUST_OP.payout)]),
    });
    super({
      children: [
        new OrMatcher([payout, new DedustHopsMatcher(step, payout)]),
        new ContractMatcher(DEDUST_OP.notification, { optional: true }),
      ],
      parent: new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(DEDUST_OP.swapTon)]),
    });
  }

  override test(block: Block): boolean {
    return isCallContract(block, DEDUST_OP.swapExternal);
  }

  override build(block: Block, found: Block[]): Block[] {
    const include = new Set([block, ...found]);
    const peerSwaps = found
      .filter((b): b is CallContractBlock => isCallContract(b, DEDUST_OP.notification))
      .sort((a, b) => (lt(a) < lt(b) ? -1 : lt(a) > lt(b) ? 1 : 0))
      .map((b) => notification(b.message.body()));

    // What was offered: a jetton transfer into a vault carrying the swap payload, or TON with swap#ea06185d.
    let sender: string | null;
    let senderWallet: string | null = null;
    let vault: string | null;
    let vaultWallet: string | null = null;
    let amountIn: bigint;
    let assetIn: string | null;
    let steps: Slice;
    const before = block.previousBlock;
    if (before !== null && before.type === 'jetton_transfer' && include.has(before)) {
      const transfer = transferOf(before);
      if (transfer.forwardPayload === null) throw new Error('a jetton transfer into a vault without a swap payload');
      steps = Cell.fromBase64(transfer.forwardPayload).beginParse();
      if (steps.loadUint(32) >>> 0 !== DEDUST_OP.swapPayload) throw new Error('not a DeDust swap payload');
      [sender, senderWallet, vault, vaultWallet] = [transfer.sender, transfer.senderWallet, transfer.receiver, transfer.receiverWallet];
      [amountIn, assetIn] = [transfer.amount, transfer.asset];
    } else {
      const request = found.find((b): b is CallContractBlock => isCallContract(b, DEDUST_OP.swapTon));
      if (!request) throw new Error('a DeDust swap without what it offered');
      [sender, vault] = [request.message.source, request.message.destination];
      steps = afterOpcode(request.message.body());
      steps.loadUintBig(64);
      amountIn = steps.loadCoins();
      assetIn = null;
    }

    // What was paid: the one payout_from_pool, then TON (payout) or a jetton transfer out of the vault.
    const payouts = found.filter((b): b is CallContractBlock => isCallContract(b, DEDUST_OP.payoutFromPool));
    if (payouts.length !== 1) throw new Error('a DeDust swap without exactly one payout from a pool');
    let receiver = sender;
    let receiverWallet: string | null = null;
    let payer: string | null = null;
    let payerWallet: string | null = null;
    let amountOut = payoutAmount(payouts[0].message.body());
    let assetOut: string | null = null;
    for (const paid of payouts[0].nextBlocks) {
      if (!include.has(paid)) continue;
      if (paid.type === 'jetton_transfer') {
        const t = transferOf(paid);
        [receiver, receiverWallet, payer, payerWallet, assetOut, amountOut] = [
          t.receiver,
          t.receiverWallet,
          t.sender,
          t.senderWallet,
          t.asset,
          t.amount,
        ];
      } else if (isCallContract(paid, DEDUST_OP.payout)) {
        [payer, receiver, assetOut] = [paid.message.source, paid.message.destination, null];
      }
    }

    const asked = askedAsset(stepPools(steps), assetIn, this.contracts);
    const swaps: PeerSwap[] = peerSwaps.length > 0 ? peerSwaps : [{ assetIn, amountIn, assetOut, amountOut }];
    // A pool's step without its notification: the pool refused, the payout is a refund.
    const failed = [block, ...found].some(
      (b) =>
        (isCallContract(b, DEDUST_OP.swapExternal) || isCallContract(b, DEDUST_OP.swapPeer)) &&
        !b.nextBlocks.some((n) => include.has(n) && isCallContract(n, DEDUST_OP.notification)),
    );
    const first = swaps[0];
    const last = swaps[swaps.length - 1];
    const data: JettonSwapData = {
      dex: 'dedust',
      sender,
      incoming: {
        asset: first.assetIn,
        amount: first.amountIn,
        source: sender,
        sourceJettonWallet: senderWallet,
        destination: vault,
        destinationJettonWallet: vaultWallet,
      },
      outgoing: {
        asset: last.assetOut,
        amount: last.amountOut,
        source: payer,
        sourceJettonWallet: payerWallet,
        destination: receiver,
        destinationJettonWallet: receiverWallet,
      },
      destinationAsset: asked,
      destinationWallet: null,
      assets: { in: assetIn, out: asked },
      peerSwaps: swaps.length > 1 ? swaps : [],
    };
    return folded('jetton_swap', data, [...include], failed);
  }
}

export const dedustSwapMatcher = (contracts: KnownContracts): Matcher => new DedustSwapMatcher(contracts);
