/**
 * The classifier's working structure, as ton-indexer's (`indexer/events/blocks/core.py`, `utils/tree_utils.py`):
 * a trace is a tree of event nodes (one per message and the transaction it led to), each first wrapped in a basic
 * block (a TON transfer, a contract call, a tick-tock); matchers then fold connected blocks into one typed block
 * (a jetton transfer takes its transfer, internal transfer, notification and excess blocks as children). Blocks
 * are linked both ways (`next` and `previous`) and a folded block takes the place of the blocks it merged: the
 * block before them points at it, it points at the blocks after them. What is left reachable from the root at the
 * end are the actions.
 *
 * Orders toncenter leaves to Python's sets are kept in insertion order here (the tree's order: a transaction's
 * messages as it sent them), so the same trace always classifies the same way.
 */
import type { ActionMessage, ActionTransaction } from './trace-input.js';

/** One message and the transaction it led to (or, for a log, the transaction that sent it; for a tick-tock, no message). */
export class EventNode {
  parent: EventNode | null = null;
  readonly children: EventNode[] = [];
  failed: boolean;

  /** `kind`: `in` the transaction's inbound message, `out` an external-out message it sent, `tick_tock` none. */
  constructor(
    readonly message: ActionMessage,
    readonly tx: ActionTransaction,
    readonly kind: 'in' | 'out' | 'tick_tock',
    readonly ghost = false,
  ) {
    this.failed = tx.aborted;
  }

  get isTickTock(): boolean {
    return this.kind === 'tick_tock';
  }

  opcode(): number | null {
    return this.message.opcode;
  }

  /** When the event started: the message's creation, else (an external-in, a tick-tock) the transaction. */
  lt(): bigint {
    return this.isTickTock ? this.tx.lt : (this.message.createdLt ?? this.tx.lt);
  }

  utime(): number {
    return this.isTickTock || this.message.createdLt === null ? this.tx.now : (this.message.createdAt ?? this.tx.now);
  }

  addChild(child: EventNode): void {
    this.children.push(child);
    child.parent = this;
  }
}

export class Block {
  failed = false;
  /** The trace holds something the matcher did not expect (toncenter: classification_state `broken`). */
  broken = false;
  readonly childrenBlocks: Block[] = [];
  nextBlocks: Block[] = [];
  previousBlock: Block | null = null;
  parent: Block | null = null;
  readonly contractDeployments = new Set<string>();
  initiatingEventNode: EventNode | null = null;
  isGhostBlock = false;
  minLt = 0n;
  maxLt = 0n;
  minUtime = 0;
  maxUtime = 0;
  minLtWithoutInitiatingTx = 0n;

  constructor(
    public type: string,
    readonly eventNodes: EventNode[],
    public data: unknown = null,
  ) {
    const [first] = eventNodes;
    if (eventNodes.length === 1) {
      this.isGhostBlock = first.ghost;
      this.minLt = first.lt();
      this.maxLt = first.tx.lt;
      this.minUtime = first.utime();
      this.maxUtime = first.tx.now;
      this.minLtWithoutInitiatingTx = first.tx.lt;
      this.initiatingEventNode = first.parent;
    }
    for (const node of eventNodes)
      if (node.tx.origStatus !== 'active' && node.tx.endStatus === 'active') this.contractDeployments.add(node.tx.account);
  }

  connect(other: Block): void {
    this.nextBlocks.push(other);
    other.previousBlock = this;
  }

  /**
   * Puts `inserted` between this block and some of the blocks after it (toncenter's `insert_between`): what a
   * matcher does to fold blocks that are siblings without their common parent (an empty block standing for it).
   */
  insertBetween(after: Block[], inserted: Block): void {
    if (!after.every((b) => this.nextBlocks.includes(b))) throw new Error('not blocks after this one');
    for (const child of this.childrenBlocks)
      child.nextBlocks = child.nextBlocks.map((b) => (after.includes(b) ? inserted : b)).filter((b, i, all) => all.indexOf(b) === i);
    this.nextBlocks = this.nextBlocks.filter((b) => !after.includes(b));
    for (const next of after) for (const child of next.childrenBlocks) if (child.previousBlock === next) child.previousBlock = inserted;
    this.connect(inserted);
    for (const next of after) inserted.connect(next);
  }

  topmostParent(): Block {
    return this.parent ? this.parent.topmostParent() : this;
  }

  /** The blocks after this one, now the outermost blocks they belong to. */
  compactConnections(): void {
    const next: Block[] = [];
    for (const block of this.nextBlocks) {
      if (block === this || this.childrenBlocks.includes(block)) continue;
      const top = block.topmostParent();
      if (!next.includes(top)) next.push(top);
    }
    this.nextBlocks = next;
  }

  /** Breadth first through `nextBlocks`, this block first. */
  *bfs(): Generator<Block> {
    const queue: Block[] = [this];
    for (let i = 0; i < queue.length; i++) {
      yield queue[i];
      queue.push(...queue[i].nextBlocks);
    }
  }

  /**
   * Breadth first from `nextBlocks`: with `stopAtUnmatched`, not through a block `filter` refuses; with
   * `yieldUnmatched`, the refused blocks are the ones yielded (the frontier of a merged group).
   */
  *findNext(filter: (block: Block) => boolean, stopAtUnmatched = false, yieldUnmatched = false): Generator<Block> {
    const queue = [...this.nextBlocks];
    for (let i = 0; i < queue.length; i++) {
      const block = queue[i];
      const matched = filter(block);
      if (matched !== yieldUnmatched) yield block;
      if (!stopAtUnmatched || matched) queue.push(...block.nextBlocks);
    }
  }

  recalculateBounds(): void {
    const nodes = this.eventNodes;
    this.minLt = nodes.reduce((min, n) => (n.lt() < min ? n.lt() : min), nodes[0].lt());
    this.minLtWithoutInitiatingTx = this.minLt;
    this.minUtime = Math.min(...nodes.map((n) => n.utime()));
    this.maxLt = nodes.reduce((max, n) => (n.tx.lt > max ? n.tx.lt : max), nodes[0].tx.lt);
    this.maxUtime = Math.max(...nodes.map((n) => n.tx.now));
  }

  /**
   * Takes `blocks` in as children, in place of them in the graph: they must hang together from the earliest of
   * them (else it throws, and the matcher that asked does not match).
   */
  mergeBlocks(blocks: Block[]): void {
    const merging = [...new Set(blocks)];
    const earliest = earliestCommonBlock(merging);
    if (!earliest) throw new Error('the blocks to merge do not hang together');
    for (const block of merging) {
      block.parent = this;
      for (const node of block.eventNodes) if (!this.eventNodes.includes(node)) this.eventNodes.push(node);
      this.childrenBlocks.push(block);
    }
    for (const block of earliest.findNext((b) => merging.includes(b), true, true)) {
      this.nextBlocks.push(block);
      for (const account of block.contractDeployments) this.contractDeployments.add(account);
      block.previousBlock = this;
    }
    this.previousBlock = earliest.previousBlock;
    earliest.previousBlock?.compactConnections();
    this.initiatingEventNode = earliest.initiatingEventNode;
    this.recalculateBounds();
    if (this.eventNodes.some((n) => n.ghost)) this.isGhostBlock = true;
  }
}

/** 0 for one inbound event, 1 for one log, 2 for a merged block: what breaks a tie between blocks of one lt. */
function directionRank(block: Block): number {
  if (block.eventNodes.length !== 1) return 2;
  return block.eventNodes[0].kind === 'out' ? 1 : 0;
}

/** The earliest of `blocks` when each of the others follows one already taken, else null. */
function earliestCommonBlock(blocks: Block[]): Block | null {
  const sorted = [...blocks].sort((a, b) =>
    a.minLtWithoutInitiatingTx === b.minLtWithoutInitiatingTx
      ? directionRank(a) - directionRank(b)
      : a.minLtWithoutInitiatingTx < b.minLtWithoutInitiatingTx
        ? -1
        : 1,
  );
  const connected = [sorted[0]];
  for (const block of sorted) {
    if (connected.includes(block)) continue;
    if (block.previousBlock === null) continue;
    if (!connected.includes(block.previousBlock)) return null;
    connected.push(block);
  }
  return sorted[0];
}

/** A typed block made of `blocks` (a matcher's result), failed or not: the one-element list a matcher returns. */
export function folded(type: string, data: unknown, blocks: Block[], failed: boolean): Block[] {
  const built = new Block(type, [], data);
  built.mergeBlocks(blocks);
  built.failed = failed;
  return [built];
}

/** A block that is a message to a contract (no TON transfer): its opcode decides most matches. */
export class CallContractBlock extends Block {
  constructor(
    node: EventNode,
    readonly opcode: number | null,
  ) {
    super('call_contract', [node]);
  }

  get message(): ActionMessage {
    return this.eventNodes[0].message;
  }
}

export class TonTransferBlock extends Block {
  constructor(
    node: EventNode,
    readonly comment: string | null,
    readonly encrypted: boolean,
  ) {
    super('ton_transfer', [node]);
  }

  get message(): ActionMessage {
    return this.eventNodes[0].message;
  }
}

export const isCallContract = (block: Block | null, opcode?: number): block is CallContractBlock =>
  block instanceof CallContractBlock && (opcode === undefined || block.opcode === opcode);

/** The first contract call among `blocks` with this opcode. */
export const findCallContract = (blocks: Block[], opcode: number): CallContractBlock | undefined =>
  blocks.find((b): b is CallContractBlock => isCallContract(b, opcode));
