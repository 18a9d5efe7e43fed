/**
 * DeDust traces built by hand (support.ts) with DeDust's and Tether's mainnet addresses: the message bodies of a swap
 * (vault requests, swap_external, the pool's swap log, payouts) and a USDT-for-TON swap through a route of pools.
 * Shared by the classifier's tests (dedust.test.ts) and the pool detection's (test/index/dex-pools.test.ts).
 */
import { Address, beginCell, type Builder, type Cell } from '@ton/core';
import { account, address, buildTrace, op } from './support.js';

export { op };

const raw = (friendly: string): string => Address.parse(friendly).toRawString().toUpperCase();
/** DeDust's native (TON) vault and its TON/USDT pool on mainnet; Tether's USDT master. */
export const NATIVE_VAULT = raw('EQDa4VOnTYlLvDJ0gZjNYm5PXfSmmtL6Vs6A_CZEtXCNICq_');
export const TON_USDT_POOL = raw('EQA-X_yo3fzzbDbJ_0bzFWKqtRuZFIRa1sJsveZJ1YpViO3r');
export const USDT = raw('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs');
export const [USER, USER_USDT, USDT_VAULT, VAULT_USDT, OTHER_JETTON, OTHER_POOL] = [0xa11ce, 0xa11c1, 0x7a, 0x7b, 0x07, 0x0b].map(account);

/** SwapStep: pool, kind (given in), limit, next step. */
export const step = (pool: string, next: Cell | null = null): Builder =>
  beginCell().storeAddress(address(pool)).storeBit(0).storeCoins(0n).storeMaybeRef(next);
export const jettonAsset = (b: Builder, master: string): Builder =>
  b.storeUint(1, 4).storeInt(Address.parseRaw(master).workChain, 8).storeBuffer(Address.parseRaw(master).hash);
export const asset = (b: Builder, master: string | null): Builder => (master === null ? b.storeUint(0, 4) : jettonAsset(b, master));
/** The pool's swap log (swap#9c610de3). */
export const swapLog = (assetIn: string | null, assetOut: string | null, amountIn: bigint, amountOut: bigint): Cell =>
  asset(asset(beginCell().storeUint(0x9c610de3, 32), assetIn), assetOut)
    .storeCoins(amountIn)
    .storeCoins(amountOut)
    .storeRef(beginCell().storeAddress(address(USER)).storeAddress(null).storeCoins(1n).storeCoins(2n))
    .endCell();
export const payoutFromPool = (amount: bigint): Cell =>
  op(0xad4eb6f5).storeRef(beginCell().endCell()).storeCoins(amount).storeAddress(address(USER)).storeMaybeRef(null).endCell();
export const payout = (): Cell => op(0x474f86cf).storeRef(beginCell().endCell()).endCell();
export const swapExternal = (): Cell => op(0x61ee542d).endCell();
export const internalTransfer = (amount: bigint, from: string) =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(0).storeBit(0).endCell();
export const notify = (amount: bigint, from: string, payload: Cell) =>
  op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(1).storeRef(payload).endCell();
export const transfer = (amount: bigint, to: string, payload: Cell) =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(200_000_000n)
    .storeBit(1)
    .storeRef(payload)
    .endCell();
/** swap#e3a0d482 step swap_params: the jetton transfer's forward payload. */
export const swapPayload = (first: Cell): Cell =>
  beginCell().storeUint(0xe3a0d482, 32).storeSlice(first.beginParse()).storeRef(beginCell().endCell()).endCell();

/** USDT into DeDust's USDT vault, swapped on `pools` (the route), paid in TON by the native vault. */
export function usdtForTon(pools: string[], logs: Cell[][]) {
  let route: Cell | null = null;
  for (const pool of [...pools].reverse()) route = step(pool, route).endCell();
  const payload = swapPayload(route!);
  // The pool chain: swap_external to the first, swap_peer onward, the last pays through the native vault.
  type S = Parameters<typeof buildTrace>[1][number];
  let hop: S = { to: NATIVE_VAULT, body: payoutFromPool(990n), then: [{ to: USER, body: payout(), value: 990n }] };
  for (let i = pools.length - 1; i >= 0; i--) {
    hop = { to: pools[i], body: i === 0 ? swapExternal() : op(0x72aca8aa).endCell(), logBodies: logs[i], then: [hop] };
  }
  return buildTrace(USER, [
    {
      to: USER_USDT,
      body: transfer(1_000n, USDT_VAULT, payload),
      then: [
        {
          to: VAULT_USDT,
          body: internalTransfer(1_000n, USER),
          then: [{ to: USDT_VAULT, body: notify(1_000n, USER, payload), then: [hop] }],
        },
      ],
    },
  ]);
}
