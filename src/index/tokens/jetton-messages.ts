/**
 * The two inbound messages of a jetton wallet that make rows (TEP-74, ton-indexer's tokens.tlb):
 *   transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 *     response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 *     forward_payload:(Either Cell ^Cell)
 *   burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress
 *     custom_payload:(Maybe ^Cell)
 * Read as ton-indexer reads them (trailing data allowed); a body that does not parse gives null (no
 * row), never an error. Addresses come out raw uppercase (addr_none and external addresses: null).
 */
import { Address, type Cell, type Slice } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';

export const JETTON_TRANSFER = 0x0f8a7ea5;
export const JETTON_BURN = 0x595f07bc;

export interface JettonTransferBody {
  queryId: string;
  amount: string;
  destination: string | null;
  responseDestination: string | null;
  customPayload: Buffer | null;
  forwardTonAmount: string;
  forwardPayload: Buffer | null;
}

export interface JettonBurnBody {
  queryId: string;
  amount: string;
  responseDestination: string | null;
  customPayload: Buffer | null;
}

/** BoC bytes as toncenter writes them (CRC32C, no index). */
export const boc = (cell: Cell): Buffer => cell.toBoc({ idx: false, crc32: true });

export function address(cs: Slice): string | null {
  const value = cs.loadAddressAny();
  return value && Address.isAddress(value) ? formatRawUpper(value) : null;
}

export function maybeRef(cs: Slice): Buffer | null {
  const ref = cs.loadMaybeRef();
  return ref ? boc(ref) : null;
}

export function opened(body: Cell, opcode: number): Slice | null {
  const cs = body.beginParse();
  if (cs.remainingBits < 32 || cs.loadUint(32) !== opcode) return null;
  return cs;
}

export function parseJettonTransfer(body: Cell): JettonTransferBody | null {
  try {
    const cs = opened(body, JETTON_TRANSFER);
    if (!cs) return null;
    const queryId = cs.loadUintBig(64).toString();
    const amount = cs.loadCoins().toString();
    const destination = address(cs);
    const responseDestination = address(cs);
    const customPayload = maybeRef(cs);
    const forwardTonAmount = cs.loadCoins().toString();
    // Either Cell ^Cell: 0 = the rest of this cell, 1 = the next reference.
    const forwardPayload = cs.loadBit() ? boc(cs.loadRef()) : boc(cs.asCell());
    return { queryId, amount, destination, responseDestination, customPayload, forwardTonAmount, forwardPayload };
  } catch {
    return null;
  }
}

export function parseJettonBurn(body: Cell): JettonBurnBody | null {
  try {
    const cs = opened(body, JETTON_BURN);
    if (!cs) return null;
    const queryId = cs.loadUintBig(64).toString();
    const amount = cs.loadCoins().toString();
    const responseDestination = address(cs);
    const customPayload = maybeRef(cs);
    return { queryId, amount, responseDestination, customPayload };
  } catch {
    return null;
  }
}
