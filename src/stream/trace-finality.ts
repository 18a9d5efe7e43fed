/**
 * The finality a whole trace reached, as toncenter's stream computes it for its `actions` and `trace` notifications
 * (ton-streaming-go v2, the classified-trace handler): the lowest finality of its transactions, leaving out the
 * leaves that only take a note: a transaction without any outgoing message whose inbound message is a jetton
 * `transfer_notification`, an NFT `ownership_assigned` or an `excesses`. A jetton transfer is thus confirmed once its
 * jetton wallets' transactions are, whatever block the receiver's notification and the sender's excess land in.
 * `transactions` notifications do not follow it (each transaction is told at its own finality). README: "Order".
 */
import type { Cell } from '@ton/core';
import type { PendingTrace, PendingTx } from '../pending/pending-traces.js';

/** transfer_notification (TEP-74), ownership_assigned (TEP-62), excesses (TEP-74). */
const NOTE_OPCODES = new Set([0x7362d09c, 0x05138d91, 0xd53276db]);

/** The first 32 bits of a message body, or null when it is shorter (toncenter's `opcode`). */
function opcodeOf(body: Cell): number | null {
  const slice = body.beginParse();
  return slice.remainingBits >= 32 ? slice.loadUint(32) : null;
}

/** Whether a transaction is one of the leaves a trace's finality does not wait for. */
export function isNoteLeaf(inBody: Cell | undefined, outMessages: number): boolean {
  if (outMessages > 0 || inBody === undefined) return false;
  const opcode = opcodeOf(inBody);
  return opcode !== null && NOTE_OPCODES.has(opcode);
}

function isPendingNoteLeaf(tx: PendingTx): boolean {
  return isNoteLeaf(tx.source.inMsg?.message.body, tx.source.outMsgs.length);
}

/**
 * Whether a landed trace the pending layer follows reached `confirmed` as a whole: nothing of it left to execute
 * (an internal message not executed yet may start a transaction that counts: only its execution tells), and every
 * transaction no sealed block holds yet is a note leaf. Its root's block has been sealed (`sealedTxs` > 0).
 */
export function confirmedAsWhole(trace: PendingTrace): boolean {
  if (trace.sealedTxs === 0 || trace.openEdges.size > 0) return false;
  for (let i = trace.sealedTxs; i < trace.txs.length; i++) if (!isPendingNoteLeaf(trace.txs[i])) return false;
  return true;
}
