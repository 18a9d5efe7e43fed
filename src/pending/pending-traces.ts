/**
 * The messages a network accepted and has not sealed yet, as traces: a trace starts with the transaction that
 * processed an accepted external message and grows with every open-block transaction that receives one of its
 * internal messages (a local chain executes them while it builds the block: chain.onOpenTransaction). What is
 * known of it is what was executed, so its transactions are real ones, only not in a block yet.
 *
 *  - announced: once it has nothing left to execute in the open block (no internal message of it waits), or at
 *    the latest when the block sealing it is handed over: listeners hear `pending` once per trace, before any
 *    confirmed or finalized news of it;
 *  - gone: when a sealed block holds its root transaction (what the index then shows replaces it); listeners hear
 *    `landed` with the transactions that block holds. A trace whose internal messages are still on their way is
 *    followed on by those messages alone: each later block holding some of its transactions is told as `landed`
 *    again, with those, until none is left open (or `invalidateAfterBlocks` blocks passed), so a stream confirms
 *    them at their seal as it does the first block's;
 *  - invalidated: when `invalidateAfterBlocks` masterchain blocks were sealed since it was accepted and none
 *    holds its root (a message emulated on acceptance that never lands: listeners hear `invalidated`).
 *
 * Every step is a few Map operations per transaction: nothing is parsed or rendered here (render.ts does it, on
 * demand). Hashes are base64 text, as the v3 answers write them.
 */
import type { Chain, OpenBlockTransaction, SealedBlock } from '../chain/types.js';
import { formatRawUpper } from '../ton/address.js';
import { normalizedExternalHash } from '../ton/normalized-external-hash.js';

/** Blocks a pending trace may wait for its root to be sealed before it is invalidated (toncenter: a TTL of 30 s). */
export const DEFAULT_INVALIDATE_AFTER_BLOCKS = 30;

export interface PendingTx {
  source: OpenBlockTransaction;
  hash: string;
  /** Raw uppercase. */
  account: string;
  lt: bigint;
  now: number;
  /**
   * The masterchain seqno of the block it was executed for: the one expected to seal it (a local chain seals its
   * open block as the next seqno). What is prepared ahead of the seal for that seqno is checked against it there.
   */
  openBlock: number;
  inMsg: string | null;
  /** Every message it sent (internal and external-out), in order. */
  outMsgs: string[];
  /** Its v3 JSON text once rendered (render.ts), shared by every answer and stream. */
  rendered?: string;
  /** The masterchain seqno of the sealed block holding it, once told as `landed` (a trace may span several). */
  sealedIn?: number;
}

export class PendingTrace {
  readonly txs: PendingTx[] = [];
  /** Internal messages sent and not received yet (by hash). */
  readonly openEdges = new Set<string>();
  /** Completed edges: the external message, every internal message received, every external-out message. */
  messages = 1;
  announced = false;
  /** How many of `txs` sealed blocks hold (told as `landed`); the rest are in the open block. */
  sealedTxs = 0;
  /** The masterchain seqno of the block that sealed its root. */
  landedAt = 0;
  private norm?: string;

  constructor(
    readonly traceId: string,
    readonly externalHash: string,
    private readonly external: OpenBlockTransaction['inMsg'] & object,
    /** The last sealed masterchain seqno when it was accepted. */
    readonly acceptedAfter: number,
  ) {}

  /** TEP-467 normalized hash of its external message (computed once, when first asked: most traces are never looked up by it). */
  get externalHashNorm(): string {
    if (this.norm === undefined) {
      const info = this.external.message.info;
      this.norm =
        info.type === 'external-in' ? normalizedExternalHash(info.dest, this.external.message.body).toString('base64') : this.externalHash;
    }
    return this.norm;
  }

  get root(): PendingTx {
    return this.txs[0];
  }

  hasAccount(account: string): boolean {
    return this.txs.some((tx) => tx.account === account);
  }
}

export interface PendingListener {
  /**
   * A transaction of a live trace was executed in the open block (its root, or one its internal messages started),
   * before the trace is announced when it still has messages to execute: what is done for it now is not left to the
   * seal (a trace whose internal messages run in the next block is announced only then).
   */
  executed?(trace: PendingTrace, tx: PendingTx): void;
  pending?(trace: PendingTrace): void;
  /**
   * A sealed block (masterchain seqno `seqno`) holds `sealed`, transactions of the trace: its root and what the open
   * block had of it at first, then, block by block, the transactions its internal messages started later.
   */
  landed?(trace: PendingTrace, seqno: number, sealed: PendingTx[]): void;
  invalidated?(trace: PendingTrace): void;
}

export class PendingTraces {
  /** Live traces by root transaction hash, oldest first (Map order): invalidation scans from the front. */
  private readonly traces = new Map<string, PendingTrace>();
  /**
   * The same traces by their root transaction's hash, its first four bytes as the key and the rest compared on a
   * match: a sealed block's transactions (~1,600 a block at full speed, in the seal's turn before any `confirmed`
   * leaves) are looked up without a base64 text made and hashed for each. Two live roots sharing those bytes share
   * an entry (a list).
   */
  private readonly byRoot = new Map<number, PendingTrace | PendingTrace[]>();
  private readonly byExternal = new Map<string, PendingTrace>();
  private readonly edges = new Map<string, PendingTrace>();
  /** Landed traces whose internal messages are still on their way, followed by those messages (edges) alone. */
  private readonly landing = new Set<PendingTrace>();
  private readonly listeners = new Set<PendingListener>();
  private lastSealed: number;

  constructor(
    lastSealedSeqno: number,
    private readonly invalidateAfterBlocks = DEFAULT_INVALIDATE_AFTER_BLOCKS,
  ) {
    this.lastSealed = lastSealedSeqno;
  }

  /** Follows a chain that reports its open block's transactions; the unsubscribe function (undefined: it reports none). */
  static follow(chain: Chain, invalidateAfterBlocks?: number): { traces: PendingTraces; stop: () => void } | undefined {
    if (!chain.onOpenTransaction) return undefined;
    const traces = new PendingTraces(chain.masterchainInfo().last.id.seqno, invalidateAfterBlocks);
    const offOpen = chain.onOpenTransaction((tx) => traces.executed(tx));
    const offSealed = chain.onBlock((block) => traces.sealed(block));
    return {
      traces,
      stop: () => {
        offOpen();
        offSealed();
      },
    };
  }

  listen(listener: PendingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.traces.size;
  }

  /** A transaction applied to the open block: a new trace (an accepted external message) or the next step of one. */
  executed(source: OpenBlockTransaction): void {
    const inMsg = source.inMsg;
    if (!inMsg) return;
    const inHash = inMsg.hash.toString('base64');
    let trace: PendingTrace | undefined;
    if (inMsg.message.info.type === 'external-in') {
      trace = new PendingTrace(source.hash.toString('base64'), inHash, inMsg, this.lastSealed);
      this.traces.set(trace.traceId, trace);
      this.byExternal.set(inHash, trace);
      this.indexRoot(trace, source.hash);
    } else {
      trace = this.edges.get(inHash);
      if (!trace) return;
      this.edges.delete(inHash);
      trace.openEdges.delete(inHash);
      trace.messages += 1;
    }
    const tx: PendingTx = {
      source,
      hash: source.hash.toString('base64'),
      account: formatRawUpper(source.account),
      lt: source.lt,
      now: source.now,
      openBlock: this.lastSealed + 1,
      inMsg: inHash,
      outMsgs: source.outMsgs.map((m) => m.hash.toString('base64')),
    };
    trace.txs.push(tx);
    for (const listener of this.listeners) listener.executed?.(trace, tx);
    source.outMsgs.forEach((m, i) => {
      if (m.message.info.type === 'internal') {
        trace.openEdges.add(tx.outMsgs[i]);
        this.edges.set(tx.outMsgs[i], trace);
      } else {
        trace.messages += 1;
      }
    });
    if (trace.openEdges.size === 0) this.announce(trace);
  }

  /** A sealed block: the traces whose root it holds are pending no more; those waiting too long are invalidated. */
  sealed(block: SealedBlock): void {
    this.lastSealed = block.masterchain.id.seqno;
    // Landed traces first (what the open block executed of them is in this block), then the roots this block holds.
    for (const trace of this.landing) {
      this.tellSealed(trace);
      if (trace.openEdges.size === 0 || this.lastSealed - trace.landedAt >= this.invalidateAfterBlocks) {
        this.landing.delete(trace);
        for (const edge of trace.openEdges) this.edges.delete(edge);
      }
    }
    if (this.traces.size === 0) return;
    for (const tx of block.transactions) {
      const trace = this.rootedBy(tx.hash);
      if (!trace) continue;
      this.announce(trace);
      this.drop(trace, true);
      trace.landedAt = this.lastSealed;
      this.tellSealed(trace);
    }
    for (const trace of this.traces.values()) {
      if (this.lastSealed - trace.acceptedAfter < this.invalidateAfterBlocks) break;
      this.drop(trace);
      for (const listener of this.listeners) listener.invalidated?.(trace);
    }
  }

  /**
   * The live trace of external message `hash` (base64) is in a sealed block (masterchain seqno `seqno`): for a
   * network that emulated it on acceptance (lite-source.ts), whose sealed root is another transaction (another lt
   * and time) than the one emulated, so `sealed` cannot match it by its hash.
   */
  landedExternal(hash: string, seqno: number): void {
    const trace = this.byExternal.get(hash);
    if (!trace) return;
    this.announce(trace);
    this.drop(trace);
    for (const listener of this.listeners) listener.landed?.(trace, seqno, trace.txs);
  }

  /** A live trace given up (its message never landed within the network's bound: lite-source.ts). */
  invalidate(trace: PendingTrace): void {
    if (this.traces.get(trace.traceId) !== trace) return;
    this.drop(trace);
    for (const listener of this.listeners) listener.invalidated?.(trace);
  }

  /** Live traces with a transaction of `account` (raw uppercase), oldest first. */
  ofAccount(account: string): PendingTrace[] {
    return [...this.traces.values()].filter((trace) => trace.hasAccount(account));
  }

  /** The live trace of an external message, by its hash or its normalized hash. */
  ofExternal(hash: string): PendingTrace | undefined {
    const exact = this.byExternal.get(hash);
    if (exact) return exact;
    for (const trace of this.traces.values()) if (trace.externalHashNorm === hash) return trace;
    return undefined;
  }

  ofTraceId(traceId: string): PendingTrace | undefined {
    return this.traces.get(traceId);
  }

  private announce(trace: PendingTrace): void {
    if (trace.announced) return;
    trace.announced = true;
    for (const listener of this.listeners) listener.pending?.(trace);
  }

  /** Its transactions a sealed block holds and no `landed` told yet, told now. */
  private tellSealed(trace: PendingTrace): void {
    if (trace.txs.length === trace.sealedTxs) return;
    // All of it at once, nothing of it left to come (no open message: nothing is added to it any more): its own
    // list, not a copy (the seal's usual case, ~800 traces a block).
    const sealed = trace.sealedTxs === 0 && trace.openEdges.size === 0 ? trace.txs : trace.txs.slice(trace.sealedTxs);
    trace.sealedTxs = trace.txs.length;
    for (const tx of sealed) tx.sealedIn = this.lastSealed;
    for (const listener of this.listeners) listener.landed?.(trace, this.lastSealed, sealed);
  }

  private indexRoot(trace: PendingTrace, hash: Buffer): void {
    const key = hash.readInt32LE(0);
    const at = this.byRoot.get(key);
    this.byRoot.set(key, at === undefined ? trace : Array.isArray(at) ? [...at, trace] : [at, trace]);
  }

  /** The live trace whose root transaction has this hash. */
  private rootedBy(hash: Buffer): PendingTrace | undefined {
    const at = this.byRoot.get(hash.readInt32LE(0));
    if (at === undefined) return undefined;
    if (!Array.isArray(at)) return sameHash(at.root.source.hash, hash) ? at : undefined;
    return at.find((trace) => sameHash(trace.root.source.hash, hash));
  }

  /** Leaves the index (nothing when it is not there: an entry is another trace, or a list without it). */
  private unindexRoot(trace: PendingTrace): void {
    const key = trace.root.source.hash.readInt32LE(0);
    const at = this.byRoot.get(key);
    if (at === trace) this.byRoot.delete(key);
    else if (Array.isArray(at)) {
      const rest = at.filter((t) => t !== trace);
      if (rest.length === 1) this.byRoot.set(key, rest[0]);
      else this.byRoot.set(key, rest);
    }
  }

  /** No longer pending; `followOn`: its open internal messages are still followed (it landed), else forgotten. */
  private drop(trace: PendingTrace, followOn = false): void {
    this.unindexRoot(trace);
    this.traces.delete(trace.traceId);
    this.byExternal.delete(trace.externalHash);
    if (followOn && trace.openEdges.size > 0) this.landing.add(trace);
    else for (const edge of trace.openEdges) this.edges.delete(edge);
  }
}

/** The same transaction hash: the chain hands a sealed transaction the Buffer it executed it with, else compared. */
const sameHash = (a: Buffer, b: Buffer): boolean => a === b || a.equals(b);
