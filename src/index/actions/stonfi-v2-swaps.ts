/**
 * STON.fi v2 swaps (ton-indexer's `StonfiV2SwapBlockMatcher` in `blocks/swaps.py`), one `jetton_swap` with dex
 * `stonfi_v2`:
 *
 *   what the user offered reaches the router: a jetton transfer (its notification), or TON through the router's
 *   pTON wallet (ton_transfer#01f3835d, then the wallet's notification); the router sends swap#6664de2a to the
 *   pool, the pool answers pay_to#657b54f5, and the router pays out: a jetton transfer, or a transfer of pTON whose
 *   wallet passes the TON on (ton_transfer#01f3835d). A route through more pools goes on from a pay_to with the
 *   next swap (directly, or after a jetton transfer between the router's wallets, or through pTON).
 *
 * A pay_to whose exit code is not swap_ok (0xc64370e5) fails the swap (its payout is the refund); the asset asked
 * for is then the one the last pool's wallet holds (the swap's own route), else the one the notification's payload
 * names. pTON is TON (pton.ts). Each step's pool wallet must be known to name the step's asset, as toncenter's
 * `extract_pool_wallets_stonfi_v2` loads them (`stonfiV2SwapWallets`, looked up with the trace's accounts).
 */
import { Cell, type Slice } from '@ton/core';
import { folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, OP, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import { PTON_TON_TRANSFER, ptonTonTransfer as ptonTransfer, swapAsset, swapTransferOf } from './pton.js';
import type { JettonSwapData, PeerSwap, SwapTransfer } from './swaps.js';
import type { ActionTransaction, KnownContracts } from './trace-input.js';

export const STONFI_V2_SWAP_OP = { swap: 0x6664de2a, payTo: 0x657b54f5, crossSwap: 0x69cf1a5b } as const;
const SWAP_OK = 0xc64370e5;

/** swap#6664de2a as the router sends it to the pool: the pool's wallet of the offered token, and the route on. */
function swapMessage(body: Cell): { tokenWallet: string | null; customPayload: Cell | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  readAddress(cs); // from_user
  cs.loadCoins(); // left_amount
  cs.loadCoins(); // right_amount
  const dex = cs.loadRef().beginParse();
  dex.loadUint(32); // transferred_op
  const tokenWallet = readAddress(dex);
  readAddress(dex); // refund_address
  readAddress(dex); // excesses_address
  dex.loadUintBig(64); // tx_deadline
  const swap = dex.loadRef().beginParse();
  swap.loadCoins(); // min_out
  readAddress(swap); // receiver
  swap.loadCoins(); // fwd_gas
  return { tokenWallet, customPayload: swap.loadMaybeRef() };
}

/** The pool wallets of the route: the first step's, then each cross swap's its custom payload names. */
function routeWallets(body: Cell): string[] {
  const { tokenWallet, customPayload } = swapMessage(body);
  const wallets = tokenWallet === null ? [] : [tokenWallet];
  let cs: Slice | null = customPayload?.beginParse() ?? null;
  while (cs !== null && cs.remainingBits >= 32) {
    const op = cs.loadUint(32) >>> 0;
    if (op !== STONFI_V2_SWAP_OP.swap && op !== STONFI_V2_SWAP_OP.crossSwap) break;
    const wallet = readAddress(cs);
    if (wallet !== null) wallets.push(wallet);
    if (cs.remainingRefs === 0) break;
    const cross = cs.loadRef().beginParse();
    cross.loadCoins(); // min_out
    cross.loadCoins();
    const next = cross.remainingRefs > 0 ? cross.loadMaybeRef() : null;
    cs = next === null ? null : next.beginParse();
  }
  return wallets;
}

/** pay_to#657b54f5: the exit code and both amounts out with their pool wallets. */
function payTo(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  readAddress(cs); // to_address
  readAddress(cs); // excesses_address
  readAddress(cs); // original_caller
  const exitCode = cs.loadUint(32) >>> 0;
  cs.loadMaybeRef(); // custom_payload
  const info = cs.loadRef().beginParse();
  info.loadCoins(); // fwd_ton_amount
  const amount0 = info.loadCoins();
  const token0 = readAddress(info);
  const amount1 = info.loadCoins();
  const token1 = readAddress(info);
  return { exitCode, amount0, token0, amount1, token1 };
}

/** The pool wallet a notification's swap payload names (toncenter's `extract_target_wallet_stonfi_v2_swap`). */
function notifiedWallet(body: Cell): string | null {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadCoins();
  readAddress(cs);
  const payload = cs.loadBit() ? cs.loadRef().beginParse() : cs;
  if (payload.remainingBits < 32 || payload.loadUint(32) >>> 0 !== STONFI_V2_SWAP_OP.swap) return null;
  return readAddress(payload);
}

/**
 * The wallets a transaction's inbound message names that a STON.fi v2 swap's classification must know though the
 * trace may not reach them: a swap's route, a notification's asked-for wallet.
 */
export function stonfiV2SwapWallets(tx: ActionTransaction): string[] {
  const m = tx.inMsg;
  try {
    if (m?.opcode === STONFI_V2_SWAP_OP.swap) return routeWallets(m.body());
    if (m?.opcode === OP.jettonNotify) {
      const wallet = notifiedWallet(m.body());
      return wallet === null ? [] : [wallet];
    }
  } catch {
    // Not a STON.fi v2 body.
  }
  return [];
}

const transferOf = (block: Block): JettonTransferData => block.data as JettonTransferData;
const lt = (block: Block): bigint => block.eventNodes[0].message.createdLt ?? block.eventNodes[0].tx.lt;
const byLt = (a: Block, b: Block): number => (lt(a) < lt(b) ? -1 : lt(a) > lt(b) ? 1 : 0);

/** A pTON transfer between the router's wallets whose TON carries the next swap (a route through TON). */
class IntermediatePtonMatcher extends Matcher {
  override test(block: Block): boolean {
    if (!isCallContract(block, PTON_TON_TRANSFER) || block.previousBlock?.type !== 'jetton_transfer') return false;
    const before = transferOf(block.previousBlock);
    if (!before.pton || before.receiver !== block.message.destination) return false;
    try {
      return ptonTransfer(block.message.body()).payloadOp === STONFI_V2_SWAP_OP.swap;
    } catch {
      return false;
    }
  }
}

class StonfiV2SwapMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    const payout = new ContractMatcher(STONFI_V2_SWAP_OP.payTo);
    const peerSwap = new ContractMatcher(STONFI_V2_SWAP_OP.swap, { child: payout, optional: true });
    const verified = new IntermediatePtonMatcher({ child: new ContractMatcher(OP.jettonNotify, { child: peerSwap }), optional: true });
    const intermediate = new (class extends Matcher {
      override test(block: Block): boolean {
        return block.type === 'jetton_transfer' && transferOf(block).pton === true;
      }
    })({ child: verified });
    payout.options.child = new OrMatcher([
      intermediate,
      new BlockTypeMatcher('jetton_transfer', { child: peerSwap, optional: true }),
      peerSwap,
    ]);
    const inPton = new ContractMatcher(OP.jettonNotify, { parent: new ContractMatcher(PTON_TON_TRANSFER) });
    super({ parent: new OrMatcher([new BlockTypeMatcher('jetton_transfer'), inPton]), child: payout });
  }

  override test(block: Block): boolean {
    return isCallContract(block, STONFI_V2_SWAP_OP.swap);
  }

  private assetOfWallet(wallet: string | null): { known: boolean; asset: string | null } {
    const info = wallet === null ? undefined : this.contracts.jettonWallets.get(wallet);
    return info ? { known: true, asset: swapAsset(info.jetton) } : { known: false, asset: null };
  }

  override build(block: Block, found: Block[]): Block[] {
    const all = [block, ...found];
    const included = new Set(all);
    // Each step: a swap and its pool's pay_to, in the order they happened.
    const steps = all
      .filter((b): b is CallContractBlock => isCallContract(b, STONFI_V2_SWAP_OP.swap))
      .sort(byLt)
      .map((swap) => {
        const answer = swap.nextBlocks.find((b): b is CallContractBlock => included.has(b) && isCallContract(b, STONFI_V2_SWAP_OP.payTo));
        if (!answer) throw new Error('a STON.fi v2 swap without its pay_to');
        return { swap, pay: payTo(answer.message.body()), answer };
      });
    const ok = steps.every((s) => s.pay.exitCode === SWAP_OK);

    const route = routeWallets(steps[0].swap.message.body());
    const target = this.assetOfWallet(route[route.length - 1] ?? null);
    const stepAssets = new Map<string, string | null>();
    for (const s of steps) {
      const wallet = swapMessage(s.swap.message.body()).tokenWallet;
      const known = this.assetOfWallet(wallet);
      if (!known.known) {
        block.broken = true;
        stepAssets.clear();
        break;
      }
      stepAssets.set(wallet!, known.asset);
    }

    // What was offered.
    let incoming: SwapTransfer;
    const before = block.previousBlock!;
    if (before.type === 'jetton_transfer') {
      incoming = swapTransferOf(transferOf(before));
    } else {
      const ton = before.previousBlock as CallContractBlock;
      const m = ton.message;
      incoming = {
        asset: null,
        amount: m.opcode === PTON_TON_TRANSFER ? ptonTransfer(m.body()).tonAmount : (m.value ?? 0n),
        source: m.source,
        sourceJettonWallet: null,
        destination: (block as CallContractBlock).message.source,
        destinationJettonWallet: m.destination,
      };
    }

    // Each pool's step of a route: the larger amount out of each pay_to, the steps after a failed first one left out.
    const peerSwaps: PeerSwap[] = [];
    if (steps.length > 1) {
      const out = (pay: ReturnType<typeof payTo>) => {
        const [amount, wallet] = pay.amount0 >= pay.amount1 ? [pay.amount0, pay.token0] : [pay.amount1, pay.token1];
        if (wallet === null || !stepAssets.has(wallet)) throw new Error('a route step through a wallet the index does not know');
        return { amount, asset: stepAssets.get(wallet)! };
      };
      const first = out(steps[0].pay);
      peerSwaps.push({ assetIn: incoming.asset, amountIn: incoming.amount, assetOut: first.asset, amountOut: first.amount });
      if (steps[0].pay.exitCode === SWAP_OK) {
        for (const s of steps.slice(1)) {
          if (s.pay.exitCode !== SWAP_OK) continue;
          const next = out(s.pay);
          const last = peerSwaps[peerSwaps.length - 1];
          peerSwaps.push({ assetIn: last.assetOut, amountIn: last.amountOut, assetOut: next.asset, amountOut: next.amount });
        }
      }
    }

    // What was paid: the last transfer a pay_to led to, a jetton's or pTON's (then its TON).
    const outTransfer = steps
      .flatMap((s) => s.answer.nextBlocks.filter((b) => included.has(b) && b.type === 'jetton_transfer'))
      .sort(byLt)
      .pop();
    if (!outTransfer) throw new Error('a STON.fi v2 swap without a payout');
    const o = transferOf(outTransfer);
    const tonOut = outTransfer.nextBlocks.find((b): b is CallContractBlock => isCallContract(b, PTON_TON_TRANSFER));
    const extra: Block[] = [];
    let outgoing: SwapTransfer;
    if (!tonOut && !o.pton) {
      outgoing = swapTransferOf(o);
    } else {
      if (!tonOut) throw new Error('a pTON payout without its TON');
      extra.push(tonOut);
      outgoing = {
        asset: null,
        amount: ptonTransfer(tonOut.message.body()).tonAmount,
        source: o.sender,
        sourceJettonWallet: o.senderWallet,
        destination: tonOut.message.destination,
        destinationJettonWallet: null,
      };
    }

    let asked = outgoing.asset;
    if (!ok) {
      if (target.known) asked = target.asset;
      else {
        const notified = isCallContract(before, OP.jettonNotify) ? before : null;
        const wallet = notified ? safe(() => notifiedWallet(notified.message.body())) : null;
        const known = this.assetOfWallet(wallet);
        if (known.known) asked = known.asset;
      }
    }
    const data: JettonSwapData = {
      dex: 'stonfi_v2',
      sender: incoming.source,
      incoming,
      outgoing,
      destinationAsset: asked,
      destinationWallet: null,
      assets: { in: incoming.asset, out: asked },
      peerSwaps: peerSwaps.length > 1 ? peerSwaps : [],
    };
    return folded('jetton_swap', data, [...all, ...extra], !ok);
  }
}

function safe<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

export const stonfiV2SwapMatcher = (contracts: KnownContracts): Matcher => new StonfiV2SwapMatcher(contracts);
