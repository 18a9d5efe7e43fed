/**
 * Jettons (TEP-74) on tongate's own master and wallet (master.fc.ts, wallet.fc.ts): StateInits, addresses and
 * the message bodies people send them. The layouts are those the FunC headers give.
 */
import { Address, beginCell, contractAddress, type Builder, type Cell, type StateInit } from '@ton/core';
import { jettonMasterCode, jettonWalletCode } from './code.js';

export const JETTON_OP = {
  transfer: 0x0f8a7ea5,
  transferNotification: 0x7362d09c,
  internalTransfer: 0x178d4519,
  excesses: 0xd53276db,
  burn: 0x595f07bc,
  burnNotification: 0x7bdd97de,
  provideWalletAddress: 0x2c76b973,
  takeWalletAddress: 0xd1735400,
  mint: 21,
  changeAdmin: 3,
  changeContent: 4,
} as const;

export interface JettonMasterParams {
  admin: Address | null;
  /** TEP-64 content (src/contracts/content.ts). */
  content: Cell;
  totalSupply?: bigint;
  /** Defaults to tongate's wallet (code.ts). */
  walletCode?: Cell;
}

/** data: total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell */
export function jettonMasterData(params: JettonMasterParams): Cell {
  return beginCell()
    .storeCoins(params.totalSupply ?? 0n)
    .storeAddress(params.admin)
    .storeRef(params.content)
    .storeRef(params.walletCode ?? jettonWalletCode())
    .endCell();
}

export function jettonMasterInit(params: JettonMasterParams, code: Cell = jettonMasterCode()): StateInit & { code: Cell; data: Cell } {
  return { code, data: jettonMasterData(params) };
}

/** data: balance:Coins owner:MsgAddress master:MsgAddress wallet_code:^Cell */
export function jettonWalletData(owner: Address, master: Address, walletCode: Cell = jettonWalletCode(), balance = 0n): Cell {
  return beginCell().storeCoins(balance).storeAddress(owner).storeAddress(master).storeRef(walletCode).endCell();
}

export function jettonWalletInit(owner: Address, master: Address, walletCode: Cell = jettonWalletCode()): StateInit {
  return { code: walletCode, data: jettonWalletData(owner, master, walletCode) };
}

/** What the master's get_wallet_address(owner) answers (always on the basechain). */
export function jettonWalletAddress(owner: Address, master: Address, walletCode: Cell = jettonWalletCode()): Address {
  return contractAddress(0, jettonWalletInit(owner, master, walletCode));
}

/** forward_payload:(Either Cell ^Cell): as a ref when given, else an empty inline payload. */
function storeForwardPayload(payload: Cell | undefined) {
  return (b: Builder) => (payload ? b.storeBit(1).storeRef(payload) : b.storeBit(0));
}

export interface MintParams {
  to: Address;
  amount: bigint;
  /** TON the master sends on with the tokens (pays the new wallet's deployment and the excesses). */
  tonAmount: bigint;
  queryId?: bigint;
  /** Who gets the excesses (and, with forwardTonAmount, a transfer_notification from addr_none). */
  response?: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell;
}

/** mint#15 query_id:uint64 to:MsgAddress ton_amount:Coins ^internal_transfer (the layout tonweb's JettonMinter sends). */
export function mintBody(params: MintParams): Cell {
  const transfer = beginCell()
    .storeUint(JETTON_OP.internalTransfer, 32)
    .storeUint(params.queryId ?? 0n, 64)
    .storeCoins(params.amount)
    .storeAddress(null) // from: a mint comes from no one
    .storeAddress(params.response ?? null)
    .storeCoins(params.forwardTonAmount ?? 0n)
    .store(storeForwardPayload(params.forwardPayload))
    .endCell();
  return beginCell()
    .storeUint(JETTON_OP.mint, 32)
    .storeUint(params.queryId ?? 0n, 64)
    .storeAddress(params.to)
    .storeCoins(params.tonAmount)
    .storeRef(transfer)
    .endCell();
}

export interface TransferParams {
  /** The receiving owner (not their jetton wallet). */
  to: Address;
  amount: bigint;
  response?: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell;
  customPayload?: Cell;
  queryId?: bigint;
}

/** transfer#0f8a7ea5, sent by the owner to their own jetton wallet. */
export function jettonTransferBody(params: TransferParams): Cell {
  return beginCell()
    .storeUint(JETTON_OP.transfer, 32)
    .storeUint(params.queryId ?? 0n, 64)
    .storeCoins(params.amount)
    .storeAddress(params.to)
    .storeAddress(params.response ?? null)
    .storeMaybeRef(params.customPayload ?? null)
    .storeCoins(params.forwardTonAmount ?? 0n)
    .store(storeForwardPayload(params.forwardPayload))
    .endCell();
}

/** burn#595f07bc, sent by the owner to their own jetton wallet. */
export function jettonBurnBody(params: { amount: bigint; response?: Address | null; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(JETTON_OP.burn, 32)
    .storeUint(params.queryId ?? 0n, 64)
    .storeCoins(params.amount)
    .storeAddress(params.response ?? null)
    .storeMaybeRef(null)
    .endCell();
}

export function changeAdminBody(newAdmin: Address | null, queryId = 0n): Cell {
  return beginCell().storeUint(JETTON_OP.changeAdmin, 32).storeUint(queryId, 64).storeAddress(newAdmin).endCell();
}

export function changeContentBody(content: Cell, queryId = 0n): Cell {
  return beginCell().storeUint(JETTON_OP.changeContent, 32).storeUint(queryId, 64).storeRef(content).endCell();
}

/** provide_wallet_address#2c76b973 (TEP-89): the master answers take_wallet_address to the sender. */
export function provideWalletAddressBody(owner: Address, includeAddress: boolean, queryId = 0n): Cell {
  return beginCell()
    .storeUint(JETTON_OP.provideWalletAddress, 32)
    .storeUint(queryId, 64)
    .storeAddress(owner)
    .storeBit(includeAddress)
    .endCell();
}
