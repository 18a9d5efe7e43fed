/**
 * Jetton rows as toncenter's v3 writes them (ton-index-go models/jetton.go: field order, lts as strings,
 * hashes and BoCs in base64, null for what is absent). Custom and forward payloads are decoded as toncenter's
 * marker decodes them (src/ton/decoded).
 */
import { Cell } from '@ton/core';
import type { JettonBurnRecord, JettonMasterRecord, JettonTransferRecord, JettonWalletRecord } from '../../../index/tokens/reader.js';
import { decodeMessageBody } from '../../../ton/decoded/decode.js';

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

/**
 * A payload cell as toncenter's marker decodes it (src/ton/decoded: text comments in their legacy form,
 * standard schemes), null when absent or not decodable (never an error).
 */
export function decodedPayload(boc: Buffer | null): object | null {
  if (!boc) return null;
  try {
    return decodeMessageBody(Cell.fromBoc(boc)[0]);
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
    decoded_custom_payload: decodedPayload(t.customPayload),
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
    decoded_custom_payload: decodedPayload(b.customPayload),
    trace_id: b64(b.traceId),
  };
}
