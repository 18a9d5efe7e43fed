/**
 * Multisig wallets and orders, and vesting wallets, as toncenter's v3 writes them (ton-index-go models/multisig.go,
 * vesting.go: field order, lts and big numbers as strings, hashes in base64). An order's `actions` are null unless
 * they were asked for (`parse_actions`): then read from its order_boc (index/multisig/order-actions.ts).
 */
import type { OrderActionJson } from '../../../index/multisig/order-actions.js';
import type { MultisigOrderRecord, MultisigRecord } from '../../../index/multisig/reader.js';
import type { VestingRecord } from '../../../index/vesting/reader.js';
import { b64 } from './jettons.js';

/** `actions`: the order's parsed actions when parse_actions asked for them (orderActions), else null. */
export function multisigOrderJson(o: MultisigOrderRecord, actions: OrderActionJson[] | null = null) {
  return {
    address: o.address,
    multisig_address: o.multisigAddress,
    order_seqno: o.orderSeqno,
    threshold: o.threshold,
    sent_for_execution: o.sentForExecution,
    approvals_mask: o.approvalsMask,
    approvals_num: o.approvalsNum,
    expiration_date: o.expirationDate,
    order_boc: o.orderBoc,
    signers: o.signers,
    last_transaction_lt: o.lastTransactionLt.toString(),
    code_hash: b64(o.codeHash),
    data_hash: b64(o.dataHash),
    actions,
  };
}

/** `orders`: the wallet's orders when they were asked for (include_orders), else null as toncenter writes it. */
export function multisigJson(m: MultisigRecord, orders: MultisigOrderRecord[] | null) {
  return {
    address: m.address,
    next_order_seqno: m.nextOrderSeqno,
    threshold: m.threshold,
    signers: m.signers,
    proposers: m.proposers,
    last_transaction_lt: m.lastTransactionLt.toString(),
    code_hash: b64(m.codeHash),
    data_hash: b64(m.dataHash),
    orders: orders ? orders.map((o) => multisigOrderJson(o)) : null,
  };
}

export function vestingJson(v: VestingRecord) {
  return {
    address: v.address,
    start_time: v.startTime,
    total_duration: v.totalDuration,
    unlock_period: v.unlockPeriod,
    cliff_duration: v.cliffDuration,
    sender_address: v.senderAddress,
    owner_address: v.ownerAddress,
    total_amount: v.totalAmount,
    whitelist: v.whitelist,
  };
}
