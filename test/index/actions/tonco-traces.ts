/**
 * TONCO message bodies for traces built by hand (support.ts): what the router, the pool and a wTTON wallet send.
 * Shared by the classifier's TONCO tests (tonco.test.ts: swaps; tonco-liquidity.test.ts: liquidity).
 */
import { beginCell, type Cell } from '@ton/core';
import { address } from './support.js';
import { op, USER } from './dedust-traces.js';

/** TONCO's wTTON master on mainnet (toncenter's pTON list). */
export const WTTON = '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E';

/** ROUTERV3_PAY_TO from the pool: the exit code and what each of the router's wallets pays. */
export const payTo = (exitCode: number, amount0: bigint, wallet0: string, amount1: bigint, wallet1: string): Cell =>
  op(0xa1daa96d)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeUint(exitCode, 32)
    .storeUint(1, 64)
    .storeMaybeRef(
      beginCell().storeCoins(amount0).storeAddress(address(wallet0)).storeCoins(amount1).storeAddress(address(wallet1)).endCell(),
    )
    .storeMaybeRef(null)
    .endCell();

/** ton_transfer#01f3835d of a wTTON wallet: the TON it passes on, and a forward payload. */
export const tonTransfer = (amount: bigint, payload: Cell | null = null): Cell =>
  op(0x01f3835d).storeCoins(amount).storeAddress(address(USER)).storeMaybeRef(payload).endCell();

/** A jetton transfer the router's wallet is asked to make to `to`. */
export const routerTransfer = (amount: bigint, to: string): Cell =>
  op(0x0f8a7ea5).storeCoins(amount).storeAddress(address(to)).storeAddress(address(USER)).storeBit(0).storeCoins(1n).storeBit(0).endCell();
