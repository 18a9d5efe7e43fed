/**
 * tongate's vesting wallet (wallet.fc.ts, the standard vesting wallet's layout): data, StateInit, address and
 * message bodies. The code is the caller's (tests compile the source with func-js).
 */
import { beginCell, contractAddress, storeMessageRelaxed, type Address, type Cell, type MessageRelaxed, type StateInit } from '@ton/core';

export const VESTING_OP = {
  addWhitelist: 0x7258a69b,
  addWhitelistResponse: 0xf258a69b,
  send: 0xa7733acd,
  sendResponse: 0xf7733acd,
} as const;

export interface VestingParams {
  subwalletId: number;
  publicKey: Buffer;
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  sender: Address;
  owner: Address;
}

/** As deployed: seqno 0, an empty whitelist. */
export function vestingData(p: VestingParams): Cell {
  return beginCell()
    .storeUint(0, 32)
    .storeUint(p.subwalletId, 32)
    .storeBuffer(p.publicKey, 32)
    .storeBit(false)
    .storeRef(
      beginCell()
        .storeUint(p.startTime, 64)
        .storeUint(p.totalDuration, 32)
        .storeUint(p.unlockPeriod, 32)
        .storeUint(p.cliffDuration, 32)
        .storeCoins(p.totalAmount)
        .storeAddress(p.sender)
        .storeAddress(p.owner)
        .endCell(),
    )
    .endCell();
}

export const vestingInit = (code: Cell, p: VestingParams): StateInit => ({ code, data: vestingData(p) });
export const vestingAddress = (code: Cell, p: VestingParams): Address => contractAddress(0, vestingInit(code, p));

/** What the owner sends the vesting wallet to have it send `message` (with `sendMode`). */
export const vestingSendBody = (message: MessageRelaxed, sendMode: number, queryId = 0n): Cell =>
  beginCell()
    .storeUint(VESTING_OP.send, 32)
    .storeUint(queryId, 64)
    .storeUint(sendMode, 8)
    .storeRef(beginCell().store(storeMessageRelaxed(message)).endCell())
    .endCell();

/** add_whitelist: the first address in the body, each next one in a reference of the one before. */
export function addWhitelistBody(addresses: Address[], queryId = 0n): Cell {
  if (addresses.length === 0) throw new Error('add_whitelist needs at least one address');
  let tail: Cell | null = null;
  for (let i = addresses.length - 1; i >= 1; i--) {
    const cell = beginCell().storeAddress(addresses[i]);
    if (tail) cell.storeRef(tail);
    tail = cell.endCell();
  }
  const root = beginCell().storeUint(VESTING_OP.addWhitelist, 32).storeUint(queryId, 64).storeAddress(addresses[0]);
  if (tail) root.storeRef(tail);
  return root.endCell();
}
