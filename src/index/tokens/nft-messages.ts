/**
 * The inbound message of an NFT item that makes a row (TEP-62, ton-indexer's tokens.tlb):
 *   transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 *     custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 * Read like the jetton bodies (jetton-messages.ts): trailing data allowed, a body that does not parse: null.
 */
import type { Cell } from '@ton/core';
import { address, boc, maybeRef, opened } from './jetton-messages.js';

export const NFT_TRANSFER = 0x5fcc3d14;

export interface NftTransferBody {
  queryId: string;
  newOwner: string | null;
  responseDestination: string | null;
  customPayload: Buffer | null;
  forwardAmount: string;
  forwardPayload: Buffer | null;
}

export function parseNftTransfer(body: Cell): NftTransferBody | null {
  try {
    const cs = opened(body, NFT_TRANSFER);
    if (!cs) return null;
    const queryId = cs.loadUintBig(64).toString();
    const newOwner = address(cs);
    const responseDestination = address(cs);
    const customPayload = maybeRef(cs);
    const forwardAmount = cs.loadCoins().toString();
    const forwardPayload = cs.loadBit() ? boc(cs.loadRef()) : boc(cs.asCell());
    return { queryId, newOwner, responseDestination, customPayload, forwardAmount, forwardPayload };
  } catch {
    return null;
  }
}
