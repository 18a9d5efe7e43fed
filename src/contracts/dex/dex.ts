/**
 * tongate's swap router and pool (router.fc.ts, pool.fc.ts: STON.fi v1's message layouts): data, StateInits and the
 * bodies people send. The code is the caller's (tests compile the sources with func-js).
 */
import { beginCell, contractAddress, type Address, type Cell, type StateInit } from '@ton/core';

export const DEX_OP = { swap: 0x25938561, payTo: 0xf93bb43f, setPool: 1 } as const;
/** The pool's pay_to exit codes (STON.fi v1's). */
export const DEX_EXIT = { swapOk: 0xc64370e5, refundNoLiquidity: 0x5ffe1295, refundReserveError: 0x38976e9b } as const;

/** A router with no pool yet (set_pool names it). */
export function dexRouterInit(code: Cell, admin: Address): StateInit {
  return { code, data: beginCell().storeAddress(admin).storeAddress(null).endCell() };
}

export interface DexPoolParams {
  router: Address;
  /** The router's jetton wallets of the two tokens. */
  token0: Address;
  token1: Address;
  reserve0: bigint;
  reserve1: bigint;
}

export function dexPoolInit(code: Cell, p: DexPoolParams): StateInit {
  return {
    code,
    data: beginCell()
      .storeAddress(p.router)
      .storeAddress(p.token0)
      .storeAddress(p.token1)
      .storeCoins(p.reserve0)
      .storeCoins(p.reserve1)
      .endCell(),
  };
}

export const dexAddress = (init: StateInit): Address => contractAddress(0, init);

export const setPoolBody = (pool: Address, queryId = 0n): Cell =>
  beginCell().storeUint(DEX_OP.setPool, 32).storeUint(queryId, 64).storeAddress(pool).endCell();

/**
 * The jetton transfer's forward payload asking the router for a swap: swap#25938561 token_wallet1 (the router's
 * jetton wallet of the token wanted) min_out to_address has_ref (ref_address).
 */
export function swapPayload(p: { askWallet: Address; minOut: bigint; to: Address; referral?: Address }): Cell {
  const b = beginCell().storeUint(DEX_OP.swap, 32).storeAddress(p.askWallet).storeCoins(p.minOut).storeAddress(p.to);
  return (p.referral ? b.storeBit(1).storeAddress(p.referral) : b.storeBit(0)).endCell();
}

/** What the pool pays for `amount` in, reserves (in, out): the constant-product rule pool.fc.ts applies. */
export const swapOut = (amount: bigint, reserveIn: bigint, reserveOut: bigint): bigint => (amount * reserveOut) / (reserveIn + amount);

/** A pool of dedust-pool.fc.ts: its factory, type (0 volatile, 1 stable) and two Asset cells (dex/dedust-pools.ts). */
export function dedustPoolInit(code: Cell, p: { factory: Address; poolType: number; assets: [Cell, Cell] }): StateInit {
  return {
    code,
    data: beginCell().storeAddress(p.factory).storeUint(p.poolType, 8).storeRef(p.assets[0]).storeRef(p.assets[1]).endCell(),
  };
}

/** The factory of dedust-factory.fc.ts, for pools of `poolCode`. */
export const dedustFactoryInit = (code: Cell, poolCode: Cell): StateInit => ({ code, data: beginCell().storeRef(poolCode).endCell() });
