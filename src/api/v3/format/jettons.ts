/**
 * Jetton rows as toncenter's v3 writes them (ton-index-go models/jetton.go: field order, lts as strings,
 * hashes and BoCs in base64, null for what is absent). A forward payload that is a text comment is
 * decoded as toncenter's marker decodes it today; any other payload gives null.
 */
import { Cell } from '@ton/core';
import type { JettonBurnRecord, JettonMasterRecord, JettonTransferRecord, JettonWalletRecord } from '../../../index/tokens/reader.js';
import { commentBytes } from '../../../ton/message-body.js';

export const b64 = (bytes: Buffer | null) => (bytes ? bytes.toString('base64') : null);

export function jettonMasterJson(m: JettonMasterRecord) {
  return {
    address: m.address,
    total_supply: m.totalSupply,
    mintable: m.mintable,
    admin_address: m.adminAddress,
    jetton_content: JSON.parse(m.jettonContent) as Record<string, string>,
    jetton_wallet_code_hash: b64(m.jettonWalletCodeHash),
    code_hash: b64(m.codeHash),
    data_hash: b64(m.dataHash),
    last_transaction_lt: m.lastTransactionLt.toString(),
  };
}

export function jettonWalletJson(w: JettonWalletRecord) {
  return {
    address: w.address,
    balance: w.balance,
    owner: w.owner,
    jetton: w.jetton,
    last_transaction_lt: w.lastTransactionLt.toString(),
    code_hash: b64(w.codeHash),
    data_hash: b64(w.dataHash),
  };
}

/** `{"@type":"text_comment",...}` for a text comment payload, else null (never an error). */
export function decodedPayload(boc: Buffer | null): object | null {
  if (!boc) return null;
  try {
    const bytes = commentBytes(Cell.fromBoc(boc)[0]);
    if (!bytes) return null;
    const comment = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { '@type': 'text_comment', comment, type: 'text_comment' };
  } catch {
    return null;
  }
}

export function jettonTransferJson(t: JettonTransferRecord) {
  return {
    query_id: t.queryId,
    source: t.source,
    destination: t.destination,
    amount: t.amount,
    source_wallet: t.jettonWallet,
    jetton_master: t.jettonMaster,
    transaction_hash: b64(t.txHash),
    transaction_lt: t.txLt.toString(),
    transaction_now: t.txNow,
    transaction_aborted: t.txAborted,
    response_destination: t.responseDestination,
    custom_payload: b64(t.customPayload),
    decoded_custom_payload: null,
    forward_ton_amount: t.forwardTonAmount,
    forward_payload: b64(t.forwardPayload),
    decoded_forward_payload: decodedPayload(t.forwardPayload),
    trace_id: b64(t.traceId),
  };
}

export function jettonBurnJson(b: JettonBurnRecord) {
  return {
    query_id: b.queryId,
    owner: b.owner,
    jetton_wallet: b.jettonWallet,
    jetton_master: b.jettonMaster,
    transaction_hash: b64(b.txHash),
    transaction_lt: b.txLt.toString(),
    transaction_now: b.txNow,
    transaction_aborted: b.txAborted,
    amount: b.amount,
    response_destination: b.responseDestination,
    custom_payload: b64(b.customPayload),
    decoded_custom_payload: null,
    trace_id: b64(b.traceId),
  };
}
