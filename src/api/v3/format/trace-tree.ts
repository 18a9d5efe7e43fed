/**
 * A trace's tree from its transactions in (lt, account) order, as toncenter assembles it: each
 * transaction hangs under the one that sent its inbound message; the first transaction with no sender
 * in the trace is the root, a later one is reported ("missing node in trace found") and left out.
 * A node without children is written `"children": []` (toncenter writes null for a node whose sent
 * messages none of the trace's transactions received, a Go nil slice; [] is what its schema says).
 */

export interface TreeTransaction {
  hash: string;
  inMsg: string | null;
  outMsgs: string[];
}

export interface TraceNode {
  tx_hash: string;
  in_msg_hash?: string;
  children: TraceNode[];
}

export function traceTree(ordered: readonly TreeTransaction[]): { root: TraceNode | null; warning?: string } {
  const senders = new Map<string, TraceNode>();
  let root: TraceNode | null = null;
  let warning: string | undefined;
  for (const tx of ordered) {
    const node: TraceNode = { tx_hash: tx.hash, ...(tx.inMsg ? { in_msg_hash: tx.inMsg } : {}), children: [] };
    for (const out of tx.outMsgs) senders.set(out, node);
    const parent = tx.inMsg ? senders.get(tx.inMsg) : undefined;
    if (parent) {
      senders.delete(tx.inMsg!);
      parent.children.push(node);
    } else if (root === null) {
      root = node;
    } else {
      warning = 'missing node in trace found';
    }
  }
  return warning ? { root, warning } : { root };
}
