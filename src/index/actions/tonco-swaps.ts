/**
 * TONCO swaps (ton-indexer's `ToncoSwapBlockMatcher` in `blocks/swaps.py`, bodies of `messages/swaps.py`), one
 * `jetton_swap` with dex `tonco`:
 *
 *   what the user offered reaches the router: a jetton transfer (its notification), or TON through the router's
 *   wTTON wallet (ton_transfer#01f3835d, then the wallet's notification); the router sends POOLV3_SWAP#a7fb58f8 to
 *   the pool, the pool answers ROUTERV3_PAY_TO#a1daa96d, and the router pays out a jetton transfer (wTTON's, a pTON
 *   transfer whose wallet passes the TON on, is TON). A route through more pools is one swap after another: the
 *   router pays itself (a jetton transfer to its own wallet, or wTTON through ton_transfer and a notification) and
 *   sends the next POOLV3_SWAP.
 *
 * A pay_to whose exit code is neither 0 nor 200 fails the swap (its payout is the refund). Kept as toncenter reads
 * them: the asked-for asset of a failed swap is read from the swap payload of a TON (wTTON) offer only (toncenter
 * looks for a jetton offer's payload where its transfer block holds none), else it is what was paid; each step of
 * a route takes the larger amount of its pay_to, named by the router wallets the trace showed (the swaps' source
 * wallets, the payout's wallets), a later step whose wallet is unknown being TON.
 */
import type { Cell, Slice } from '@ton/core';
import { folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, OP, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import { PTON_TON_TRANSFER, swapAsset, swapTransferOf } from './pton.js';
import type { JettonSwapData, PeerSwap, SwapTransfer } from './swaps.js';
import type { ActionTransaction, KnownContracts } from './trace-input.js';

export const TONCO_OP = { swap: 0xa7fb58f8, payTo: 0xa1daa96d } as const;
/** pay_to exit codes of a swap that went through (200: with the pool's swap info). */
const SWAP_OK = new Set([0, 200]);

/** POOLV3_SWAP#a7fb58f8 query_id owner source_wallet ^[amount price_limit min_out] ^[target ok_fwd ... ret_fwd ...]. */
function poolSwap(body: Cell): { sourceWallet: string | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  readAddress(cs);
  const sourceWallet = readAddress(cs);
  const params = cs.loadRef().beginParse();
  params.loadCoins();
  params.loadUintBig(160);
  params.loadCoins();
  const payloads = cs.loadRef().beginParse();
  readAddress(payloads);
  payloads.loadCoins();
  payloads.loadMaybeRef();
  payloads.loadCoins();
  payloads.loadMaybeRef();
  return { sourceWallet };
}

export interface PayTo {
  /** Who each side is paid to. */
  receivers: [string | null, string | null];
  exitCode: number;
  /** From the coins info cell, when the message has one: amounts and the router's wallets they are paid from. */
  coins: { amount0: bigint; wallet0: string | null; amount1: bigint; wallet1: string | null } | null;
}

/** ROUTERV3_PAY_TO#a1daa96d query_id receiver0 receiver1 exit_code:uint32 seqno:uint64 coins:(Maybe ^[...]) ... */
export function payTo(body: Cell): PayTo {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const receivers: PayTo['receivers'] = [readAddress(cs), readAddress(cs)];
  const exitCode = cs.loadUint(32);
  cs.loadUintBig(64);
  const info = cs.loadMaybeRef();
  let coins: PayTo['coins'] = null;
  if (info !== null) {
    const c = info.beginParse();
    const amount0 = c.loadCoins();
    const wallet0 = readAddress(c);
    const amount1 = c.loadCoins();
    coins = { amount0, wallet0, amount1, wallet1: readAddress(c) };
  }
  // The pool's swap info (200) or burn info (201) follow in a Maybe ref each.
  if (exitCode === 200 || exitCode === 201) {
    const extra = cs.loadMaybeRef();
    if (extra !== null) {
      const e = extra.beginParse();
      if (exitCode === 200) {
        e.loadUintBig(128);
        e.loadUintBig(160);
        e.loadInt(24);
        e.loadIntBig(256);
        e.loadIntBig(256);
      } else {
        e.loadUintBig(64);
        e.loadUintBig(128);
        e.loadInt(24);
        e.loadInt(24);
        e.loadInt(24);
      }
    }
  }
  return { receivers, exitCode, coins };
}

/**
 * The router wallets a swap payload (POOLV3_SWAP as a forward payload) names, with their minimum outs, hop by hop.
 * As toncenter reads it, the first opcode is not checked (an inner payload's is).
 */
function payloadTargets(cs: Slice): { wallet: string; minOut: bigint }[] {
  cs.loadUint(32);
  const wallet = readAddress(cs);
  cs.loadUintBig(160);
  const minOut = cs.loadCoins();
  readAddress(cs);
  const next = cs.loadMaybeRef();
  const targets = wallet === null ? [] : [{ wallet, minOut }];
  if (next !== null) {
    try {
      const inner = next.beginParse();
      if (inner.remainingBits >= 32 && inner.preloadUint(32) >>> 0 === TONCO_OP.swap) targets.push(...payloadTargets(inner));
    } catch {
      // An inner payload that does not read ends the route there (toncenter's reading stops too).
    }
  }
  return targets;
}

/** ton_transfer#01f3835d query_id ton_amount refund forward_payload: the amount and the payload (a ref, or inline). */
function tonTransfer(body: Cell): { tonAmount: bigint; payload: Slice | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const tonAmount = cs.loadCoins();
  readAddress(cs);
  const inRef = cs.loadMaybeRef();
  if (inRef !== null) return { tonAmount, payload: inRef.beginParse() };
  return { tonAmount, payload: cs.remainingRefs > 0 ? cs : null };
}

/** The forward payload's router wallets a notification to the router names (toncenter's `extract_target_wallet_tonco_swap`). */
function notifiedTargets(body: Cell): string[] {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadCoins();
  readAddress(cs);
  const payload = cs.loadBit() ? cs.loadRef().beginParse() : cs;
  if (payload.remainingBits <= 32 || payload.preloadUint(32) >>> 0 !== TONCO_OP.swap) return [];
  return payloadTargets(payload).map((t) => t.wallet);
}

/**
 * The router wallets a transaction's inbound message names that a TONCO swap's classification must know though the
 * trace may not reach them (toncenter's address selectors): a notification's swap payload, a pay_to's coins info.
 */
export function toncoSwapWallets(tx: ActionTransaction): string[] {
  const m = tx.inMsg;
  try {
    if (m?.opcode === OP.jettonNotify) return notifiedTargets(m.body());
    if (m?.opcode === TONCO_OP.payTo) {
      const { coins } = payTo(m.body());
      return coins === null ? [] : [coins.wallet0, coins.wallet1].filter((w): w is string => w !== null);
    }
  } catch {
    // Not a TONCO body.
  }
  return [];
}

const transferOf = (block: Block): JettonTransferData => block.data as JettonTransferData;
const byMinLt = (a: Block, b: Block): number => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0);

class ToncoSwapMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    const payout = new ContractMatcher(TONCO_OP.payTo);
    const peerSwap = new ContractMatcher(TONCO_OP.swap, { child: payout });
    // What may follow a pay_to, in toncenter's order: transfers that lead to the next swap, then a final one.
    payout.options.child = new OrMatcher([
      new BlockTypeMatcher('jetton_transfer', {
        child: new ContractMatcher(PTON_TON_TRANSFER, { child: new ContractMatcher(OP.jettonNotify, { child: peerSwap }) }),
      }),
      new BlockTypeMatcher('jetton_transfer', { child: peerSwap }),
      new ContractMatcher(OP.jettonTransfer, { optional: true, child: new ContractMatcher(PTON_TON_TRANSFER) }),
      new BlockTypeMatcher('jetton_transfer', { optional: true }),
    ]);
    const inTon = new ContractMatcher(OP.jettonNotify, { parent: new ContractMatcher(PTON_TON_TRANSFER) });
    super({ parent: new OrMatcher([new BlockTypeMatcher('jetton_transfer'), inTon]), child: payout });
  }

  override test(block: Block): boolean {
    return isCallContract(block, TONCO_OP.swap);
  }

  /** A router wallet's asset as the index knows it (wTTON/pTON: TON), or undefined. */
  private walletAsset(wallet: string | null): string | null | undefined {
    const info = wallet === null ? undefined : this.contracts.jettonWallets.get(wallet);
    return info ? swapAsset(info.jetton) : undefined;
  }

  override build(block: CallContractBlock, found: Block[]): Block[] {
    const included = new Set([block, ...found]);
    const swaps = [block, ...found.filter((b) => b !== block && isCallContract(b, TONCO_OP.swap))].sort(byMinLt);
    const payouts = found.filter((b): b is CallContractBlock => isCallContract(b, TONCO_OP.payTo)).sort(byMinLt);
    const before = block.previousBlock!;
    const inTransfer = before.type === 'jetton_transfer' ? before : before.previousBlock;
    // toncenter builds nothing when a swap lacks its pay_to.
    if (inTransfer === null || swaps.length !== payouts.length) return [];

    // Each step, its success, and the asset of the router wallet it took in.
    let ok = true;
    const steps: PayTo[] = [];
    const walletAssets = new Map<string, string | null>();
    swaps.forEach((swap, i) => {
      try {
        const { sourceWallet } = poolSwap((swap as CallContractBlock).message.body());
        const pay = payTo(payouts[i].message.body());
        if (!SWAP_OK.has(pay.exitCode)) ok = false;
        steps.push(pay);
        const asset = this.walletAsset(sourceWallet);
        if (sourceWallet !== null && asset !== undefined && !walletAssets.has(sourceWallet)) walletAssets.set(sourceWallet, asset);
      } catch {
        ok = false;
      }
    });

    // What was offered.
    let incoming: SwapTransfer;
    let offerPayload: Slice | null = null;
    if (inTransfer.type === 'jetton_transfer') {
      incoming = swapTransferOf(transferOf(inTransfer));
    } else {
      if (!isCallContract(inTransfer)) return [];
      const m = inTransfer.message;
      let amount = m.value ?? 0n;
      if (m.opcode === PTON_TON_TRANSFER) {
        const read = tonTransfer(m.body());
        [amount, offerPayload] = [read.tonAmount, read.payload];
      }
      incoming = {
        asset: null,
        amount,
        source: m.source,
        sourceJettonWallet: null,
        destination: block.message.source,
        destinationJettonWallet: m.destination,
      };
    }

    // What was paid: the last transfer a pay_to ended with (not one that led to the next swap).
    const leadsOn = (b: Block): boolean =>
      b.nextBlocks.some(
        (n) =>
          included.has(n) &&
          (isCallContract(n, TONCO_OP.swap) ||
            (isCallContract(n, PTON_TON_TRANSFER) &&
              n.nextBlocks.some(
                (m) =>
                  included.has(m) &&
                  isCallContract(m, OP.jettonNotify) &&
                  m.nextBlocks.some((s) => included.has(s) && isCallContract(s, TONCO_OP.swap)),
              ))),
      );
    const outs = payouts
      .flatMap((p) =>
        p.nextBlocks.filter(
          (b) => included.has(b) && (b.type === 'jetton_transfer' || isCallContract(b, OP.jettonTransfer)) && !leadsOn(b),
        ),
      )
      .sort(byMinLt);
    const out = outs[outs.length - 1];
    if (out?.type !== 'jetton_transfer') return [];
    // The TON a wTTON payout passed on (and an intermediate one's) is part of the swap.
    const extra = [out, ...found.filter((b) => b.type === 'jetton_transfer')].flatMap((b) =>
      b.nextBlocks.filter((n) => isCallContract(n, PTON_TON_TRANSFER)).slice(0, 1),
    );
    const o = transferOf(out);
    const outgoing = swapTransferOf(o);
    if (o.receiverWallet !== null) walletAssets.set(o.receiverWallet, outgoing.asset);
    if (o.senderWallet !== null) walletAssets.set(o.senderWallet, outgoing.asset);

    // Each pool's step of a route: the larger amount of its pay_to, named by the wallets seen.
    const peerSwaps: PeerSwap[] = [];
    const larger = (pay: PayTo): { amount: bigint; wallet: string } | null => {
      const c = pay.coins;
      const candidates =
        c === null
          ? []
          : (
              [
                [c.amount0, c.wallet0],
                [c.amount1, c.wallet1],
              ] as const
            ).filter(([, w]) => w !== null);
      if (candidates.length === 0) return null;
      const [amount, wallet] = candidates.length === 2 && candidates[1][0] > candidates[0][0] ? candidates[1] : candidates[0];
      return { amount, wallet: wallet! };
    };
    if (steps.length > 1) {
      const first = larger(steps[0]);
      const firstAsset = first === null ? undefined : walletAssets.get(first.wallet);
      if (first !== null && firstAsset !== undefined) {
        peerSwaps.push({ assetIn: incoming.asset, amountIn: incoming.amount, assetOut: firstAsset, amountOut: first.amount });
        for (const step of steps.slice(1)) {
          if (!SWAP_OK.has(step.exitCode)) continue;
          const next = larger(step);
          if (next === null) continue;
          const last = peerSwaps[peerSwaps.length - 1];
          peerSwaps.push({
            assetIn: last.assetOut,
            amountIn: last.amountOut,
            assetOut: walletAssets.get(next.wallet) ?? null,
            amountOut: next.amount,
          });
        }
      }
    }

    // A failed swap asked for the last router wallet its payload names, with that hop's minimum out (read where
    // toncenter finds a payload); otherwise `min_out_amount` is what was paid, as toncenter writes it.
    let asked = outgoing.asset;
    let minOutAmount: bigint | null = outgoing.amount;
    if (!ok && steps.length > 0 && offerPayload !== null) {
      try {
        const targets = payloadTargets(offerPayload);
        const target = targets[targets.length - 1];
        minOutAmount = target?.minOut ?? null;
        if (target !== undefined) {
          const asset = walletAssets.has(target.wallet) ? walletAssets.get(target.wallet) : this.walletAsset(target.wallet);
          if (asset !== undefined) asked = asset;
        }
      } catch {
        // No route to read: what was paid stands.
      }
    }

    const data: JettonSwapData = {
      dex: 'tonco',
      sender: incoming.source,
      incoming,
      outgoing,
      destinationAsset: asked,
      destinationWallet: null,
      assets: { in: incoming.asset, out: asked },
      peerSwaps,
      minOutAmount,
    };
    return folded('jetton_swap', data, [block, ...found, ...extra], !ok);
  }
}

export const toncoSwapMatcher = (contracts: KnownContracts): Matcher => new ToncoSwapMatcher(contracts);
