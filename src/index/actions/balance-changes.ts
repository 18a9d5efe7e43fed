/**
 * What a trace, or one of its actions, did to balances, as ton-index-go computes it for `/api/v3/balanceChanges`
 * (`index/crud/balances.go`, at read time, from the trace's transactions): per account its TON change net of fees
 * (`changes`), the fees it paid (`fees`: its transactions' total fees and the forwarding fees of what it sent), and per
 * account and jetton the jettons it sent or received by `transfer` (the sender's and receiver's jetton wallets must be
 * known). An action's changes are those of its transactions but the one that started it. Pure.
 *
 * Kept from toncenter: a log's forwarding fee counted twice (once as the sender's out message, once as the log's own
 * event), a bounced jetton transfer still counted as moved. Left out: the entries toncenter keys by an empty address
 * when a jetton wallet is not known.
 */
import { jettonTransfer, OP } from './bodies.js';
import type { ActionMessage, ActionTransaction, JettonWalletInfo, TraceInput } from './trace-input.js';

export interface Changes {
  value: Map<string, bigint>;
  fees: Map<string, bigint>;
  /** account -> jetton master -> amount */
  jettons: Map<string, Map<string, bigint>>;
}

const empty = (): Changes => ({ value: new Map(), fees: new Map(), jettons: new Map() });
const add = (map: Map<string, bigint>, key: string, amount: bigint) => map.set(key, (map.get(key) ?? 0n) + amount);

function merge(into: Changes, from: Changes): void {
  for (const [k, v] of from.value) add(into.value, k, v);
  for (const [k, v] of from.fees) add(into.fees, k, v);
  for (const [account, jettons] of from.jettons) {
    const mine = into.jettons.get(account) ?? new Map<string, bigint>();
    for (const [jetton, v] of jettons) add(mine, jetton, v);
    into.jettons.set(account, mine);
  }
}

interface Node {
  message: ActionMessage | null;
  /** The transaction the message went into; for a log, the one that sent it. */
  tx: ActionTransaction;
  inbound: boolean;
  previous: Node | null;
  next: Node[];
  changes: Changes | null;
}

/** One node per transaction (its inbound message) and per log, linked as the messages went. */
function nodesOf(transactions: readonly ActionTransaction[]): { root: Node; byTx: Map<string, Node> } {
  const byLt = [...transactions].sort((a, b) => (a.lt === b.lt ? 0 : a.lt > b.lt ? -1 : 1));
  const byTx = new Map<string, Node>();
  const receiver = new Map<string, Node>();
  const link = (from: Node, to: Node) => {
    from.next.push(to);
    to.previous = from;
  };
  for (const tx of byLt) {
    const node: Node = { message: tx.inMsg, tx, inbound: true, previous: null, next: [], changes: null };
    byTx.set(tx.hash, node);
    if (tx.inMsg) receiver.set(tx.inMsg.hash, node);
    for (const out of tx.outMsgs) {
      if (out.destination === null) link(node, { message: out, tx, inbound: false, previous: null, next: [], changes: null });
      else {
        const to = receiver.get(out.hash);
        if (to) link(node, to);
      }
    }
  }
  return { root: byTx.get(byLt[byLt.length - 1].hash)!, byTx };
}

function* breadthFirst(root: Node): Generator<Node> {
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    yield queue[i];
    queue.push(...queue[i].next);
  }
}

/** The transfer a message asks for, or null when its body does not read as one. */
function readTransfer(m: ActionMessage): ReturnType<typeof jettonTransfer> | null {
  try {
    return jettonTransfer(m.body());
  } catch {
    return null;
  }
}

export interface ActionTransactions {
  actionId: string;
  type: string;
  /** base64 hashes */
  transactions: string[];
}

export interface BalanceChanges {
  trace: Changes;
  /** By action id (not for deployments, as toncenter). */
  actions: Map<string, Changes>;
}

export function balanceChanges(
  trace: TraceInput,
  wallets: ReadonlyMap<string, JettonWalletInfo>,
  actions: readonly ActionTransactions[],
): BalanceChanges {
  const { root, byTx } = nodesOf(trace.transactions);
  const total = empty();
  for (const node of breadthFirst(root)) {
    const m = node.message;
    if (!m) continue;
    const changes = (node.changes = empty());
    const sentBy = node.previous?.message ? node.previous.tx : null;
    const sent = sentBy?.outMsgs.find((o) => o.hash === m.hash);
    if (sent && m.source !== null) add(changes.fees, m.source, sent.fwdFee ?? 0n);
    if (node.inbound && m.destination !== null) {
      add(changes.fees, m.destination, node.tx.totalFees);
      if (m.value !== null && m.source !== null) {
        add(changes.value, m.source, -m.value);
        add(changes.value, m.destination, m.value);
      }
      for (const out of node.tx.outMsgs) if (out.destination === null && out.fwdFee !== null) add(changes.fees, m.destination, out.fwdFee);
    }
    if (m.opcode === OP.jettonTransfer && m.source !== null && m.destination !== null) {
      const wallet = wallets.get(m.destination);
      const body = readTransfer(m);
      const owners = new Map([...wallets.values()].filter((w) => w.jetton === wallet?.jetton).map((w) => [w.owner, w]));
      if (wallet && body) {
        const [sender, receiver] = [owners.get(m.source), body.destination === null ? undefined : owners.get(body.destination)];
        const jetton = (account: string) => changes.jettons.get(account) ?? changes.jettons.set(account, new Map()).get(account)!;
        if (sender) add(jetton(sender.owner), wallet.jetton, -body.amount);
        if (receiver) add(jetton(receiver.owner), wallet.jetton, body.amount);
      }
    }
    merge(total, changes);
  }
  const ofActions = new Map<string, Changes>();
  for (const action of actions) {
    if (action.type === 'contract_deploy') continue;
    const txs = action.transactions.map((h) => byTx.get(h)?.tx).filter((tx): tx is ActionTransaction => tx !== undefined);
    txs.sort((a, b) => (a.lt === b.lt ? 0 : a.lt > b.lt ? -1 : 1));
    // The transaction that started the action (a wallet sending it) is not part of its changes.
    if (txs.length > 0 && txs[txs.length - 1].inMsg?.source != null) txs.pop();
    const changes = empty();
    for (const tx of txs) {
      const node = byTx.get(tx.hash);
      if (node?.changes) merge(changes, node.changes);
    }
    ofActions.set(action.actionId, changes);
  }
  return { trace: total, actions: ofActions };
}

/** The jetton wallets a trace's transfers name (what `balanceChanges` needs looked up). */
export function jettonWalletCandidates(trace: TraceInput): string[] {
  const found = new Set<string>();
  for (const tx of trace.transactions) {
    const m = tx.inMsg;
    if (!m) continue;
    if (m.opcode === OP.jettonTransfer && m.destination) found.add(m.destination);
    if (m.opcode === OP.jettonInternalTransfer) for (const a of [m.source, m.destination]) if (a) found.add(a);
  }
  return [...found];
}

/** ton-index-go's BalanceChangesResult as JSON text: Go writes map keys sorted and int64 amounts as JSON numbers (exact here). */
export function balanceChangesText(changes: Changes | null): string {
  if (!changes) return '{"changes":null,"fees":null,"jettons":null}';
  const sorted = <V>(map: Map<string, V>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const object = <V>(map: Map<string, V>, value: (v: V) => string) =>
    `{${sorted(map)
      .map(([k, v]) => `${JSON.stringify(k)}:${value(v)}`)
      .join(',')}}`;
  const net = new Map(changes.value);
  for (const [k, v] of changes.fees) add(net, k, -v);
  const number = (v: bigint) => v.toString();
  const jettons = object(changes.jettons, (j) => object(j, (v) => JSON.stringify(v.toString())));
  return `{"changes":${object(net, number)},"fees":${object(changes.fees, number)},"jettons":${jettons}}`;
}
