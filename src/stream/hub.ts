/**
 * The streaming of one network: its connections, indexed by the addresses and traces they follow, fed by the
 * pending layer (accepted messages: finality `pending`) and by sealed blocks (a local chain's sealed block is
 * confirmed and final at once: `confirmed`, then `finalized`; a lite network's blocks are read from its index by
 * lite-feed.ts and handed over through `enqueue`).
 *
 * Order, as toncenter sends it: every trace first at `pending` (when its message was accepted), then, per sealed
 * block and per finality, each trace's `transactions`, `actions`, `trace`, then the block's `account_state_change`
 * and `jettons_change`. A trace the pending layer followed is sent at `pending` and `confirmed` from what the open
 * block executed (rendered on the pending layer's render thread); `finalized`, and `confirmed` of anything else, is
 * read from the index once it holds the block (block-traces.ts: a `trace` client's traces as trace pages, the other
 * clients' followed transactions alone), so it is what `/api/v3/traces` resp. `/api/v3/transactions` answer; blocks
 * are delivered one after the other, in seqno order. A `transactions` client is told each block's transactions with
 * that block; an `actions` client a trace's actions once per finality, once all of it reached it, when one of their
 * accounts is one it follows (actionFollowers); a `trace` client is told a trace once per finality, complete (at
 * `confirmed` when the pending layer has nothing of it left open but note leaves: trace-finality.ts, at `finalized`
 * with the block the index completes it in).
 *
 * What block production pays: per open-block transaction and per sealed block, one lookup per transaction (is its
 * account followed?); nothing at all while nobody is connected. While a `trace` client is connected, each block's
 * completed traces are read from the index (block-traces.ts), after the seal; while an `actions` client is, who
 * the actions stored with each block concern (withActions).
 * Rendering happens on other threads, and a slow client only fills its own socket (connection.ts).
 */
import { loadShardAccount } from '@ton/core';
import type { NetworkContext } from '../http/network-context.js';
import { jettonWalletJson } from '../api/v3/format/jettons.js';
import type { SealedBlock } from '../chain/types.js';
import type { PendingTrace, PendingTraces, PendingTx } from '../pending/pending-traces.js';
import { mentionedAccounts, pendingOrder, pendingTransactionText, pendingTreeOf, sealedTransactionText } from '../pending/render.js';
import { pendingRenderer } from '../pending/renderer.js';
import { addressBookFor } from '../pending/endpoints.js';
import { sealedActionParts } from '../pending/actions.js';
import { accountStateInfo, v3AccountState } from '../ton/account-state-json.js';
import { formatRawUpper } from '../ton/address.js';
import type { StreamActions } from './actions.js';
import type { StreamConnection } from './connection.js';
import {
  accountStateText,
  actionsText,
  invalidatedText,
  jettonText,
  traceText,
  transactionsText,
  type TraceEvent,
} from './notifications.js';
import { atFinality, byPageOrder, type Extras } from './sealed-traces.js';
import { landedTrace, type LandedTrace } from './finalized-early.js';
import { accountExtras, blockTraces, type BlockReads, type BlockTrace } from './block-traces.js';
import { aloneToEach, confirmedAhead, prepareConfirmed, tellAlone } from './confirmed-ahead.js';
import { FINALITIES, finalityRank, type Finality, type Subscription } from './subscription.js';
import { confirmedAsWhole } from './trace-finality.js';
import type { FramedText } from './ws-frame.js';

/** What a transaction's followers get of it before `finalized` (hub.earlyWants). */
const EARLY_TRANSACTIONS = 1;

export interface HubLogger {
  warn(object: object, message: string): void;
}

/** A trace's notifications ready to go out (undefined: nobody to tell). */
type Delivery = (() => void) | undefined;

/** What one sealed block asks of the index, gathered when it is handed over (or, on a lite network, once indexed: lite-feed.ts). */
export interface BlockWork extends BlockReads {
  sealedAt: number;
  states: SealedBlock['accountStates'];
  /** Followed accounts' new states as the index already renders them (a lite network's block: no cells here). */
  stateDocs?: { account: string; state: unknown }[];
  changed: string[];
  /** Its traces already sent at `confirmed` from the pending layer, by trace id (their `finalized` is told from them). */
  confirmedEarly: Map<string, LandedTrace>;
}

export interface HubOptions {
  network: NetworkContext;
  pending?: Pick<PendingTraces, 'listen'>;
  actions: StreamActions;
  logger?: HubLogger;
  /** Tests and benches: called once a block's notifications are all written (seqno, ms since it was handed over). */
  onDelivered?: (seqno: number, ms: number) => void;
}

export class StreamHub {
  readonly connections = new Set<StreamConnection>();
  private readonly byAddress = new Map<string, Set<StreamConnection>>();
  private readonly byTrace = new Map<string, Set<StreamConnection>>();
  /** Connections that get `actions` at each finality (following some address): the trace's actions are classified or read only then. */
  private readonly actionClients: Record<Finality, number> = { pending: 0, confirmed: 0, finalized: 0 };
  private tail: Promise<void> = Promise.resolve();
  private readonly stops: (() => void)[] = [];
  /**
   * Traces of the block being handed over already sent at `confirmed` (landed: the pending layer hears a block
   * first), as the pending layer told them: what `finalized` keeps of them (landedTrace) is made after the seal's writes.
   */
  private landedTraces: PendingTrace[] = [];
  /** Each landed trace's transactions the block sealed (beside landedTraces: no object per trace in the seal's turn). */
  private landedSealed: PendingTx[][] = [];
  /** Per trace, its deliveries not done yet, chained: while it has none, a ready one goes out at once. */
  private readonly traceQueues = new Map<string, { tail: Promise<void>; queued: number }>();
  /** Every delivery not done yet (what `finalized` waits for). */
  private readonly waiting = new Set<Promise<void>>();
  /** The last sealed seqno this hub heard of (what is made ahead for a block already sealed is not made). */
  private lastSealed = 0;
  /** Connections asking for `account_state_change` or `jettons_change`: while none is, a seal walks no account state. */
  private stateFollowers = 0;
  private jettonFollowers = 0;
  /** Landed traces whose `trace` and `actions` were told at `confirmed` (once: trace-finality.ts may say so before the seal). */
  private readonly confirmedWhole = new WeakSet<PendingTrace>();

  constructor(private readonly o: HubOptions) {
    this.stops.push(o.network.chain.onBlock((block) => this.sealed(block)));
    if (o.pending) {
      this.stops.push(
        o.pending.listen({
          executed: (trace, tx) => this.executed(trace, tx),
          pending: (trace) => this.pending(trace),
          landed: (trace, seqno, sealed) => this.landed(trace, seqno, sealed),
          invalidated: (trace) => this.invalidated(trace),
        }),
      );
    }
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Blocks handed over and not yet delivered finish first (tests wait on it). */
  idle(): Promise<void> {
    return this.tail;
  }

  add(connection: StreamConnection): void {
    this.connections.add(connection);
    this.index(connection, connection.subscription, 1);
  }

  remove(connection: StreamConnection): void {
    if (!this.connections.delete(connection)) return;
    this.index(connection, connection.subscription, -1);
  }

  /** Replaces a connection's subscription (WS subscribe, unsubscribe). */
  resubscribe(connection: StreamConnection, next: Subscription): void {
    if (this.connections.has(connection)) this.index(connection, connection.subscription, -1);
    connection.subscription = next;
    if (this.connections.has(connection)) this.index(connection, next, 1);
  }

  private index(connection: StreamConnection, subscription: Subscription, delta: 1 | -1): void {
    const update = (map: Map<string, Set<StreamConnection>>, key: string) => {
      let set = map.get(key);
      if (delta === 1) {
        if (!set) map.set(key, (set = new Set()));
        set.add(connection);
      } else if (set) {
        set.delete(connection);
        if (set.size === 0) map.delete(key);
      }
    };
    for (const address of subscription.addresses) update(this.byAddress, address);
    if (subscription.types.has('account_state_change') || subscription.types.has('jettons_change')) this.stateFollowers += delta;
    if (subscription.types.has('jettons_change')) this.jettonFollowers += delta;
    if (subscription.types.has('trace')) for (const trace of subscription.traces) update(this.byTrace, trace);
    if (subscription.types.has('actions') && subscription.addresses.size > 0)
      for (const f of FINALITIES) if (finalityRank(f) >= finalityRank(subscription.minFinality)) this.actionClients[f] += delta;
  }

  /** Whether a connected client gets `actions` at this finality (a trace's actions are classified or read only then). */
  followsActions(finality: Finality = 'finalized'): boolean {
    return this.actionClients[finality] > 0;
  }

  /**
   * Who a trace's actions reach, toncenter's rule (ton-streaming-go v2: an action is a client's when one of its
   * `accounts` is subscribed): the followers of any account of any of them that get `actions` at this finality,
   * whether or not the trace has a transaction of theirs (a jetton transfer's receiver: only his jetton wallet has
   * one). Each client's are picked from them by notifications.ts (actionsText) by the same rule.
   */
  private actionFollowers(accounts: Iterable<string>, finality: Finality): StreamConnection[] {
    const out = new Set<StreamConnection>();
    for (const account of accounts) for (const c of this.byAddress.get(account) ?? []) if (c.wants('actions', finality)) out.add(c);
    return [...out];
  }

  /** An account's followers (one function for every landed trace: confirmed-ahead.ts asks it per transaction). */
  private readonly followersOfAccount = (account: string): Set<StreamConnection> | undefined => this.byAddress.get(account);

  private followersOf(accounts: Iterable<string>): Set<StreamConnection> {
    const out = new Set<StreamConnection>();
    for (const account of accounts) for (const c of this.byAddress.get(account) ?? []) out.add(c);
    return out;
  }

  // ---- pending ----

  private pending(trace: PendingTrace): void {
    this.renderAhead(trace);
    this.later(trace.traceId, () => this.fromPending(trace, 'pending'));
  }

  /**
   * A transaction executed in the open block: rendered now, on the render thread, for whoever gets it before
   * `finalized` (at `pending` or `confirmed`: `finalized` is read from the index), so the seal finds its `confirmed`
   * text ready. Rendering it only once its trace is announced would leave every trace whose internal messages run
   * in the next block to the seal, which announces them all at once; asked for here, the render thread's work is
   * spread over the block (README: it did not shorten `confirmed`'s delay, which is the main thread's after the
   * seal). A Map lookup, and a look at each follower's subscription.
   */
  private executed(trace: PendingTrace, tx: PendingTx): void {
    if (this.connections.size === 0) return;
    // A landed trace whose last transactions are note leaves (trace-finality.ts) is confirmed as a whole now, for
    // its `trace` clients and the clients of `actions` before `finalized` (nobody else is told a trace as a whole).
    const toldWhole = this.byTrace.size > 0 || this.followsActions('confirmed');
    if (toldWhole && trace.sealedTxs > 0 && !this.confirmedWhole.has(trace) && confirmedAsWhole(trace)) this.confirmWhole(trace);
    const wants = this.earlyWants(tx.account);
    // A client of `actions` before `finalized`: every trace is classified (renderAhead), from its transactions' texts.
    if (!this.wholeTraceWanted(trace) && wants === 0 && !this.followsActions('confirmed')) return;
    const text = pendingRenderer.render(tx, trace);
    // Its `confirmed` made while the block is open (confirmed-ahead.ts): the seal then writes ready bytes.
    if (wants & EARLY_TRANSACTIONS)
      void text.then((pending) => {
        if (tx.openBlock > this.lastSealed) prepareConfirmed(trace, tx, pending);
      });
  }

  /**
   * A trace announced (nothing of it left to execute in the open block): its transactions' texts are asked for
   * (already on their way since they executed, unless a client came meanwhile) and, when a client gets actions
   * before `finalized` (any trace's actions may name an account it follows: actionFollowers), its actions classified.
   */
  private renderAhead(trace: PendingTrace): void {
    if (this.connections.size === 0) return;
    const whole = this.wholeTraceWanted(trace);
    for (const tx of trace.txs) if (whole || this.earlyWants(tx.account) !== 0) void pendingRenderer.render(tx, trace);
    if (whole || this.followsActions('confirmed')) this.o.actions.ofPending(this.o.network, trace).catch(() => undefined);
  }

  /** Whether a client following the trace itself gets it before `finalized` (each of its transactions then). */
  private wholeTraceWanted(trace: PendingTrace): boolean {
    if (this.byTrace.size === 0) return false;
    for (const c of this.byTrace.get(trace.externalHashNorm) ?? []) if (c.wants('trace', 'confirmed')) return true;
    return false;
  }

  /** What the followers of `account` get of its transactions before `finalized`: EARLY_TRANSACTIONS or 0. */
  private earlyWants(account: string): number {
    for (const c of this.byAddress.get(account) ?? []) if (c.wants('transactions', 'confirmed')) return EARLY_TRANSACTIONS;
    return 0;
  }

  /**
   * A followed trace's transactions are in the block being handed over (its root's block, or a later one its
   * internal messages reached): they are confirmed now, from what the open block executed (the same transactions:
   * only their block is new), without waiting for the index; `finalized` follows from the index (deliverBlock),
   * which skips the `confirmed` it would otherwise send for the trace. A `trace` client gets the trace once all of
   * it is sealed (no internal message of it left open) but its note leaves, as toncenter sends a trace at the finality
   * all of it reached (trace-finality.ts), and only once.
   */
  private landed(trace: PendingTrace, seqno: number, sealed: PendingTx[]): void {
    if (this.connections.size === 0) return;
    this.landedTraces.push(trace);
    this.landedSealed.push(sealed);
    const whole = !this.confirmedWhole.has(trace) && confirmedAsWhole(trace);
    if (whole) this.confirmedWhole.add(trace);
    // The seal's usual case, nothing of the trace waiting and nobody to tell it as a whole: its frames made ahead
    // written now (confirmed-ahead.ts tellAlone), without the delivery's closures and lists (~800 traces a block at full speed).
    if (!(whole && (this.byTrace.size > 0 || this.followsActions('confirmed'))) && !this.traceQueues.has(trace.traceId)) {
      try {
        if (tellAlone(sealed, seqno, this.followersOfAccount, trace.externalHashNorm)) return;
      } catch (err) {
        this.o.logger?.warn({ err }, 'stream: a pending trace could not be streamed');
        return;
      }
    }
    this.later(trace.traceId, () => this.fromPending(trace, 'confirmed', seqno, sealed, whole));
  }

  /**
   * A landed trace whose transactions not sealed yet are all note leaves, its last one just executed: toncenter's
   * trace finality (trace-finality.ts) is `confirmed` now, so its `trace` and `actions` clients are told, the leaves
   * at `pending` among its transactions (their `transactions` followers hear of them when a block seals them).
   */
  private confirmWhole(trace: PendingTrace): void {
    this.confirmedWhole.add(trace);
    const seqno = trace.txs[trace.sealedTxs - 1].sealedIn ?? trace.landedAt;
    // The leaves as they are now: rendered at delivery, which may come after the seal that holds them.
    const open = new Set(trace.txs.slice(trace.sealedTxs));
    this.later(trace.traceId, () => this.fromPending(trace, 'confirmed', seqno, [], true, open));
  }

  /**
   * What a chain event asks for: prepared at once (the transactions' texts asked of the render thread: the event
   * itself only looks up followers), delivered in the order the trace's events came (its `pending`, then each
   * block's `confirmed`), whatever order the renders finish in. Traces do not wait for each other: a trace whose
   * text is still on the render thread at the seal holds back its own notifications only, not the block's others
   * (bench:stream: 4 % of a block's `confirmed` notifications were written after the seal's turn, and the traces
   * queued behind them with them). A delivery prepared at once (its texts were ready and nothing is read for it:
   * the seal's usual case) goes out at once when none of its trace waits, without a round of promises.
   */
  private later(traceId: string, prepare: () => Delivery | Promise<Delivery>): void {
    let prepared: Delivery | Promise<Delivery>;
    const queue = this.traceQueues.get(traceId);
    try {
      prepared = prepare();
      if (typeof prepared !== 'object' && queue === undefined) {
        prepared?.();
        return;
      }
    } catch (err) {
      this.o.logger?.warn({ err }, 'stream: a pending trace could not be streamed');
      return;
    }
    const q = queue ?? { tail: Promise.resolve(), queued: 0 };
    if (queue === undefined) this.traceQueues.set(traceId, q);
    q.queued += 1;
    const tail: Promise<void> = q.tail
      .then(() => prepared)
      .then(
        (deliver) => deliver?.(),
        (err: unknown) => this.o.logger?.warn({ err }, 'stream: a pending trace could not be streamed'),
      )
      .then(() => {
        this.waiting.delete(tail);
        if (--q.queued === 0) this.traceQueues.delete(traceId);
      });
    q.tail = tail;
    this.waiting.add(tail);
  }

  /** Resolves once what was asked so far is delivered (a block's finalized news never overtakes its confirmed). */
  private whenDrained(): Promise<void> {
    return this.waiting.size === 0 ? Promise.resolve() : Promise.all(this.waiting).then(() => undefined);
  }

  /**
   * `sealed`: at `confirmed`, the transactions the block holds (the news); the trace's others were told before.
   * `whole`: the trace's `trace` clients are told too (at `confirmed`, only once all of it is sealed).
   * `open`: at `confirmed`, its note leaves not sealed when it was confirmed as a whole (told as they were, pending).
   */
  private fromPending(
    trace: PendingTrace,
    finality: Finality,
    seqno = 0,
    sealed: PendingTx[] = trace.txs,
    whole = true,
    open?: ReadonlySet<PendingTx>,
  ): Delivery | Promise<Delivery> {
    if (this.connections.size === 0) return undefined;
    const byTrace =
      whole && this.byTrace.size > 0 ? [...(this.byTrace.get(trace.externalHashNorm) ?? [])].filter((c) => c.wants('trace', finality)) : [];
    // Actions reach the followers of their accounts (actionFollowers), which only the classification tells: the trace
    // is classified while a client gets `actions` at this finality, at `confirmed` once all of it is sealed (toncenter
    // sends a trace's actions at the finality all of it reached), and for its `trace` clients.
    const byActions = whole && this.followsActions(finality);
    // The seal's usual case: each follower gets one transaction's bytes made ahead (confirmed-ahead.ts), no event built.
    if (finality === 'confirmed' && byTrace.length === 0 && !byActions) {
      const alone = aloneToEach(sealed, seqno, this.followersOfAccount);
      if (alone !== undefined) return alone.length === 0 ? undefined : () => this.deliverAlone(trace.externalHashNorm, alone);
    }
    const accounts = new Set(sealed.map((tx) => tx.account));
    const byAccount = [...this.followersOf(accounts)].filter((c) => c.wants('transactions', finality));
    if (byAccount.length === 0 && byTrace.length === 0 && !byActions) return undefined;
    // The tree only for a `trace` notification (a client of `transactions` or `actions` gets none).
    const ordered = byTrace.length > 0 ? undefined : pendingOrder(trace);
    const { ordered: all, root } = ordered ? { ordered, root: null } : pendingTreeOf(trace);
    const news = sealed === trace.txs ? undefined : new Set(sealed.map((tx) => tx.hash));
    // Only the transactions some client gets are rendered (a follower of one account gets that account's news).
    const needed =
      byTrace.length > 0
        ? all
        : all.filter((tx) => (!news || news.has(tx.hash)) && byAccount.some((c) => c.subscription.addresses.has(tx.account)));
    const event: TraceEvent = {
      finality,
      norm: trace.externalHashNorm,
      news,
      transactions: all.map((tx) => {
        // Made while its block was open, when made for the block that sealed it (confirmed-ahead.ts).
        const ahead = finality === 'confirmed' && !open?.has(tx) ? confirmedAhead(tx, tx.sealedIn ?? seqno) : undefined;
        let text = ahead?.text;
        let mentioned: string[] | undefined;
        return {
          hash: tx.hash,
          account: tx.account,
          lt: tx.lt,
          alone: ahead?.alone,
          get text() {
            if (text !== undefined) return text;
            const pending = pendingTransactionText(tx, trace);
            // A trace over several blocks: each transaction with its own block's seqno; a note leaf not sealed yet
            // (a trace confirmed without it: trace-finality.ts) as it is, pending.
            return (text = finality === 'pending' || open?.has(tx) ? pending : sealedTransactionText(pending, tx.sealedIn ?? seqno));
          },
          get mentioned() {
            pendingTransactionText(tx, trace);
            return (mentioned ??= mentionedAccounts(tx));
          },
        };
      }),
      tree: JSON.stringify(root),
      actions: [],
      addressBook: {},
      metadata: {},
    };
    const index = this.o.network.index;
    const extras = (clients: StreamConnection[]) => ({
      book: clients.some((c) => c.subscription.includeAddressBook) && index !== undefined,
      metadata: clients.some((c) => c.subscription.includeMetadata) && index !== undefined,
    });
    // Actions are classified only when a client may get them (an `actions` or a `trace` notification).
    const needsActions = byTrace.length > 0 || byActions;
    // Every text there and nothing to read: delivered as it is (the seal's usual case, its texts rendered ahead).
    const known = extras([...byAccount, ...byTrace]);
    if (!needsActions && !known.book && !known.metadata && needed.every((tx) => tx.rendered !== undefined))
      return () => this.deliverTrace(event, byAccount, byTrace);
    const actions = needsActions ? this.o.actions.ofPending(this.o.network, trace) : Promise.resolve([]);
    return Promise.all([actions, ...needed.map((tx) => pendingRenderer.render(tx, trace))]).then(async ([classified]) => {
      event.actions = finality === 'pending' ? classified : sealedActionParts(classified, seqno);
      const reached = byActions
        ? this.actionFollowers(
            event.actions.flatMap((a) => a.accounts),
            finality,
          )
        : [];
      const clients = reached.length > 0 ? [...new Set([...byAccount, ...reached])] : byAccount;
      if (clients.length === 0 && byTrace.length === 0) return undefined;
      const { book: needsBook, metadata: needsMetadata } = reached.length > 0 ? extras([...clients, ...byTrace]) : known;
      // The address book and the metadata come from the index (what it knows of the accounts).
      const accounts = () => [...event.transactions.flatMap((tx) => tx.mentioned), ...event.actions.flatMap((a) => a.accounts)];
      const [book, metadata] = await Promise.all([
        needsBook ? addressBookFor(this.o.network, accounts()) : {},
        needsMetadata ? index!.metadata(accounts()) : {},
      ]);
      return () => this.deliverTrace({ ...event, addressBook: book, metadata }, clients, byTrace);
    });
  }

  /** A trace's `confirmed` as bytes made ahead, each to its one client (aloneToEach), in deliverTrace's order. */
  private deliverAlone(norm: string, alone: [StreamConnection, FramedText][]): void {
    for (const [c, bytes] of alone) {
      if (c.closed) continue;
      c.send(bytes);
      c.told(norm, 'confirmed');
    }
  }

  private invalidated(trace: PendingTrace): void {
    let text: string | undefined;
    for (const c of this.connections) {
      if (c.unsettled.size === 0 || !c.unsettled.has(trace.externalHashNorm)) continue;
      c.unsettled.delete(trace.externalHashNorm);
      c.send((text ??= invalidatedText(trace.externalHashNorm)));
    }
  }

  /**
   * transactions, actions, trace of one trace at one finality, to whoever follows it; `whole`, when the trace
   * clients' view was read apart (a sealed block's trace page), is what they get.
   */
  private deliverTrace(
    event: TraceEvent,
    byAccount: Iterable<StreamConnection>,
    byTrace: Iterable<StreamConnection>,
    whole: TraceEvent = event,
  ): void {
    const told = new Set<StreamConnection>();
    for (const c of byAccount) {
      if (c.closed) continue;
      const transactions = c.wants('transactions', event.finality) ? transactionsText(c, event) : undefined;
      if (transactions) c.send(transactions);
      const actions = c.wants('actions', event.finality)
        ? actionsText(c, event, this.o.actions.expand(c.subscription.supportedActionTypes))
        : undefined;
      if (actions) c.send(actions);
      if (transactions || actions) told.add(c);
    }
    for (const c of byTrace) {
      if (c.closed || !c.wants('trace', event.finality)) continue;
      c.send(traceText(c, whole, this.o.actions.expand(c.subscription.supportedActionTypes)));
      told.add(c);
    }
    for (const c of told) c.told(event.norm, event.finality);
  }

  // ---- sealed blocks ----

  /**
   * A sealed block: what its `finalized` needs is gathered in the next turn, after the writes of its `confirmed`
   * (the pending layer's `landed`, just before this, wrote them to corked sockets, which send them in this turn's
   * ticks): walking the block's transactions and keeping what `finalized` needs of the traces confirmed early took
   * ~5-10 ms of the seal's turn, before the first of those writes (README: the seal's turn, written first).
   */
  private sealed(block: SealedBlock): void {
    this.lastSealed = block.masterchain.id.seqno;
    const landed = { traces: this.landedTraces, sealed: this.landedSealed };
    this.landedTraces = [];
    this.landedSealed = [];
    if (this.connections.size === 0) return;
    pendingRenderer.hurry();
    const sealedAt = performance.now();
    // Queued now, so that blocks stay in seqno order and `idle()` waits for this one too.
    this.enqueue(
      new Promise<BlockWork | undefined>((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(this.blockWork(block, landed, sealedAt));
          } catch (err) {
            reject(err);
          }
        }),
      ),
    );
  }

  /** What a sealed block asks of the index for its `finalized` (undefined: nothing). */
  private blockWork(
    block: SealedBlock,
    landed: { traces: PendingTrace[]; sealed: PendingTx[][] },
    sealedAt: number,
  ): BlockWork | undefined {
    const followed = (account: string) => this.byAddress.has(account);
    const confirmedEarly = new Map<string, LandedTrace>();
    landed.traces.forEach((trace, i) => confirmedEarly.set(trace.traceId, landedTrace(trace, landed.sealed[i], followed)));
    const work: BlockWork = {
      seqno: block.masterchain.id.seqno,
      sealedAt,
      txHashes: [],
      states: [],
      changed: [],
      confirmedEarly,
    };
    if (this.byAddress.size > 0) {
      for (const tx of block.transactions) if (this.byAddress.has(formatRawUpper(tx.account))) work.txHashes.push(tx.hash);
      // ~1,000 states a block at full speed: walked (each address formatted, its followers asked) only when asked for.
      if (this.stateFollowers > 0)
        for (const state of block.accountStates) {
          const raw = formatRawUpper(state.address);
          work.changed.push(raw);
          // Parsed at delivery (~30 µs each): only the states a follower asked for.
          if (this.followsState(raw)) work.states.push(state);
        }
    }
    const jettons = work.changed.length > 0 && this.wantsJettons();
    if (!jettons) work.changed = [];
    // While a `trace` or an `actions` client is connected every block is read: any block may complete a trace it
    // follows, or one whose actions name an account it follows.
    const everyBlock = this.byTrace.size > 0 || this.followsActions();
    if (!everyBlock && work.txHashes.length === 0 && work.states.length === 0 && work.changed.length === 0) return undefined;
    return work;
  }

  /** Whether a client asked for this account's `account_state_change` (a state is read or parsed only then). */
  followsState(account: string): boolean {
    for (const c of this.byAddress.get(account) ?? []) if (c.subscription.types.has('account_state_change')) return true;
    return false;
  }

  /** What a block source asks before it reads a block for the hub (lite-feed.ts). */
  follows(account: string): boolean {
    return this.byAddress.has(account);
  }

  followsTraces(): boolean {
    return this.byTrace.size > 0;
  }

  /** What these clients asked for beside the transactions: read with a block's trace pages only then. */
  private extrasOf(clients: Iterable<StreamConnection>): Extras {
    const extras = { addressBook: false, metadata: false };
    for (const c of clients) {
      extras.addressBook ||= c.subscription.includeAddressBook;
      extras.metadata ||= c.subscription.includeMetadata;
    }
    return extras;
  }

  private traceClients(): Set<StreamConnection> {
    const out = new Set<StreamConnection>();
    for (const clients of this.byTrace.values()) for (const c of clients) out.add(c);
    return out;
  }

  wantsJettons(): boolean {
    return this.jettonFollowers > 0;
  }

  /** A block's notifications, delivered after every block handed over before it (`work` may come later: sealed). */
  enqueue(work: BlockWork | Promise<BlockWork | undefined>): void {
    let seqno: number | undefined;
    this.tail = this.tail
      .then(() => work)
      .then((w) => {
        seqno = w?.seqno;
        return w && this.deliverBlock(w);
      })
      .catch((err: unknown) => this.o.logger?.warn({ err, seqno }, 'stream: a sealed block could not be streamed'));
  }

  /**
   * The block's traces with their actions: those the index stored with this block (the traces it completed),
   * read for the traces an `actions` client is reached by (actionFollowers: one of their accounts followed, a
   * transaction of its own in the trace or not; such a trace without a followed transaction of the block joins the
   * block's traces with no transaction to tell) and for the pages `trace` clients get. Nothing is read while no
   * client gets `actions` and no `trace` page was read.
   */
  private async withActions(seqno: number, traces: BlockTrace[]): Promise<BlockTrace[]> {
    const ids = new Set(traces.filter((t) => t.whole).map((t) => t.traceId));
    if (this.followsActions()) {
      const known = new Set(traces.map((t) => t.traceId));
      let added = false;
      for (const stored of await this.o.actions.accountsAt(this.o.network, seqno)) {
        if (this.actionFollowers(stored.accounts, 'finalized').length === 0) continue;
        ids.add(stored.traceId);
        if (known.has(stored.traceId)) continue;
        const view = {
          traceId: stored.traceId,
          endLt: stored.endLt,
          norm: stored.key,
          transactions: [],
          tree: 'null',
          actions: [],
          addressBook: {},
          metadata: {},
        };
        traces.push({ traceId: stored.traceId, endLt: stored.endLt, view: { ...view, partial: true } });
        added = true;
      }
      if (added) traces.sort(byPageOrder);
    }
    if (ids.size === 0) return traces;
    const actions = await this.o.actions.ofTraces(this.o.network, [...ids]);
    for (const trace of traces) {
      trace.view.actions = actions.get(trace.traceId) ?? [];
      if (trace.whole) trace.whole.actions = trace.view.actions;
    }
    return traces;
  }

  private async deliverBlock(work: BlockWork): Promise<void> {
    const { network } = this.o;
    const reader = network.index;
    let traces: BlockTrace[] = [];
    let jettons: Record<string, unknown>[] = [];
    // What the block tells `transactions` and `actions` clients: a trace read whole holds more (told before, or not followed).
    const blockTxs = new Set(work.txHashes.map((hash) => hash.toString('base64')));
    if (reader) {
      // The block's `confirmed` out first, its writes included (they leave once the turn's ticks run), before the
      // index is asked: the index packs the block's cells for its writer on this thread (~0.1 s at full speed) in
      // the turn after the seal (index/attach.ts), and a delivery still waiting then would come after it (README:
      // the first block of a followed run).
      await this.whenDrained();
      await new Promise((resolve) => setImmediate(resolve));
      await network.indexed?.(work.seqno);
      // Trace pages only for the traces a `trace` client follows, at the block completing them; the others' followed
      // transactions alone (block-traces.ts).
      const tracesFollowed = this.byTrace.size > 0;
      traces = await blockTraces(reader, network.testOnly, work, {
        followsTrace: (key) => this.byTrace.has(key),
        tracesFollowed,
        traceExtras: tracesFollowed ? this.extrasOf(this.traceClients()) : { addressBook: false, metadata: false },
      });
      traces = await this.withActions(work.seqno, traces);
      await accountExtras(network, traces, blockTxs, (account) => this.byAddress.get(account) ?? []);
      if (work.changed.length > 0) {
        const wallets = await reader.tokens.jettonWallets({ addresses: work.changed }, undefined, {
          limit: work.changed.length,
          offset: 0,
        });
        jettons = wallets.map((w) => jettonWalletJson(w));
      }
    }
    const states = work.states.map((s) => {
      const cell = s.shardAccount;
      const parsed = loadShardAccount(cell.beginParse());
      return { account: formatRawUpper(s.address), state: v3AccountState(cell.refs[0].hash(), accountStateInfo(parsed.account)) };
    });
    if (work.stateDocs) states.push(...(work.stateDocs as typeof states));
    await this.whenDrained();
    const jettonAccounts = jettons.flatMap((j) => [j.address, j.owner, j.jetton] as string[]);
    const jettonExtras =
      jettons.length > 0 ? this.extrasOf(this.followersOf(jettons.flatMap((j) => [j.address, j.owner] as string[]))) : undefined;
    const [book, jettonMetadata] = jettonExtras
      ? await Promise.all([
          jettonExtras.addressBook ? addressBookFor(network, jettonAccounts) : {},
          reader && jettonExtras.metadata ? reader.metadata(jettonAccounts) : {},
        ])
      : [{}, {}];
    for (const finality of ['confirmed', 'finalized'] as Finality[]) {
      for (const trace of traces) {
        if (finality === 'confirmed' && work.confirmedEarly.has(trace.traceId)) continue;
        const { view, whole } = trace;
        const clients = this.followersOf(new Set(view.transactions.filter((tx) => blockTxs.has(tx.hash)).map((tx) => tx.account)));
        if (view.actions.length > 0)
          for (const c of this.actionFollowers(
            view.actions.flatMap((a) => a.accounts),
            finality,
          ))
            clients.add(c);
        this.deliverTrace(
          { ...atFinality(view, finality), news: blockTxs },
          clients,
          // A client that began to follow the trace meanwhile gets it from a later block: this one was read without its page.
          whole ? (this.byTrace.get(whole.norm) ?? []) : [],
          whole && whole !== view ? { ...atFinality(whole, finality), news: blockTxs } : undefined,
        );
      }
      for (const { account, state } of states) {
        let text: string | undefined;
        for (const c of this.byAddress.get(account) ?? [])
          if (c.wants('account_state_change', finality)) c.send((text ??= accountStateText(finality, account, state)));
      }
      for (const jetton of jettons) {
        for (const c of this.followersOf([jetton.address as string, jetton.owner as string])) {
          if (c.wants('jettons_change', finality)) c.send(jettonText(c, finality, jetton, book, jettonMetadata));
        }
      }
    }
    this.o.onDelivered?.(work.seqno, performance.now() - work.sealedAt);
  }
}
