/**
 * tongate's multisig v2 wallet and orders (wallet.fc.ts, order.fc.ts): data, StateInit, addresses and message bodies
 * in multisig v2's layouts. The code is the caller's (tests compile the sources with func-js).
 */
import {
  beginCell,
  contractAddress,
  Dictionary,
  storeMessageRelaxed,
  type Address,
  type Cell,
  type MessageRelaxed,
  type StateInit,
} from '@ton/core';

export const MULTISIG_OP = {
  newOrder: 0xf718510f,
  execute: 0x75097f5d,
  executeInternal: 0xa32c59bf,
  init: 0x9c73fba2,
  approve: 0xa762230f,
  approveAccepted: 0x82609bf6,
  approveRejected: 0xafaf283e,
  sendMessage: 0xf1381e5b,
  updateMultisigParams: 0x1d0cfbd3,
} as const;

/** new_order's order_seqno meaning "the wallet's next one". */
export const NEXT_ORDER_SEQNO = (1n << 256n) - 1n;
/** What a new order must carry (wallet.fc.ts). */
export const ORDER_MIN_VALUE = 100_000_000n;

export interface MultisigParams {
  threshold: number;
  signers: Address[];
  proposers: Address[];
  allowArbitrarySeqno?: boolean;
}

/** Addresses as multisig v2 keeps them: a dictionary keyed 0, 1, 2, ... */
export function addressDict(addresses: Address[]): Dictionary<number, Address> {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  addresses.forEach((address, i) => dict.set(i, address));
  return dict;
}

export const signersCell = (signers: Address[]): Cell => beginCell().storeDictDirect(addressDict(signers)).endCell();

export function multisigData(p: MultisigParams, nextOrderSeqno = 0n): Cell {
  return beginCell()
    .storeUint(nextOrderSeqno, 256)
    .storeUint(p.threshold, 8)
    .storeRef(signersCell(p.signers))
    .storeUint(p.signers.length, 8)
    .storeDict(p.proposers.length > 0 ? addressDict(p.proposers) : null)
    .storeBit(p.allowArbitrarySeqno ?? false)
    .endCell();
}

export const multisigInit = (code: Cell, p: MultisigParams): StateInit => ({ code, data: multisigData(p) });
export const multisigAddress = (code: Cell, p: MultisigParams): Address => contractAddress(0, multisigInit(code, p));

export const orderData = (multisig: Address, orderSeqno: bigint): Cell =>
  beginCell().storeAddress(multisig).storeUint(orderSeqno, 256).endCell();
export const orderAddress = (orderCode: Cell, multisig: Address, orderSeqno: bigint): Address =>
  contractAddress(0, { code: orderCode, data: orderData(multisig, orderSeqno) });

export type OrderAction =
  | { type: 'transfer'; sendMode: number; message: MessageRelaxed }
  | { type: 'update'; threshold: number; signers: Address[]; proposers: Address[] };

function actionCell(action: OrderAction): Cell {
  if (action.type === 'transfer') {
    return beginCell()
      .storeUint(MULTISIG_OP.sendMessage, 32)
      .storeUint(action.sendMode, 8)
      .storeRef(beginCell().store(storeMessageRelaxed(action.message)).endCell())
      .endCell();
  }
  return beginCell()
    .storeUint(MULTISIG_OP.updateMultisigParams, 32)
    .storeUint(action.threshold, 8)
    .storeRef(signersCell(action.signers))
    .storeDict(action.proposers.length > 0 ? addressDict(action.proposers) : null)
    .endCell();
}

/** An order: its actions in a dictionary keyed 0, 1, 2, ..., each a reference (at most 255). */
export function packOrder(actions: OrderAction[]): Cell {
  if (actions.length === 0 || actions.length > 255) throw new Error('an order has 1 to 255 actions');
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  actions.forEach((action, i) => dict.set(i, actionCell(action)));
  return beginCell().storeDictDirect(dict).endCell();
}

export interface NewOrder {
  order: Cell;
  expirationDate: number;
  /** Signer (true) or proposer (false), and the index in that list. */
  isSigner: boolean;
  index: number;
  orderSeqno?: bigint;
  queryId?: bigint;
}

export const newOrderBody = (o: NewOrder): Cell =>
  beginCell()
    .storeUint(MULTISIG_OP.newOrder, 32)
    .storeUint(o.queryId ?? 0n, 64)
    .storeUint(o.orderSeqno ?? NEXT_ORDER_SEQNO, 256)
    .storeBit(o.isSigner)
    .storeUint(o.index, 8)
    .storeUint(o.expirationDate, 48)
    .storeRef(o.order)
    .endCell();

export const approveBody = (signerIndex: number, queryId = 0n): Cell =>
  beginCell().storeUint(MULTISIG_OP.approve, 32).storeUint(queryId, 64).storeUint(signerIndex, 8).endCell();

/** The text comment any signer may send an order instead of approve#a762230f. */
export const approveCommentBody = (): Cell => beginCell().storeUint(0, 32).storeStringTail('approve').endCell();
