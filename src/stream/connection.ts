/**
 * One streaming client, whatever carries it (SSE or WebSocket): its subscription, the traces it was sent at
 * `pending` only (those may still be invalidated: toncenter's TracesForPotentialInvalidation), and a bounded
 * way out. A notification is written to the socket at once (never queued here): the socket's own buffer is the
 * only queue, and a client that lets it grow past `maxBufferedBytes` is closed with a reason. So a slow client
 * costs its own buffer, never a block's production or another client's delivery.
 */
import { emptySubscription, finalityRank, type EventType, type Finality, type Subscription } from './subscription.js';
import { FramedText } from './ws-frame.js';

export interface Transport {
  /** Bytes written and not yet taken by the client's socket. */
  buffered(): number;
  /** One notification: a text, or its UTF-8 bytes when they were made ahead (confirmed-ahead.ts). */
  write(text: string | Uint8Array): void;
  /**
   * A shared notification's ready WebSocket frame (ws-frame.ts), written as it is; false when this transport does
   * not take it now (not a WebSocket, a compressed one, not open): `write` takes its bytes instead.
   */
  writeFrame?(frame: Buffer): boolean;
  close(reason: string): void;
  /** Holds writes in the socket until `uncork` (the notifications of one event leave in one write). */
  cork?(): void;
  uncork?(): void;
}

export class StreamConnection {
  private current!: Subscription;
  /**
   * Whether it gets `transactions` at `confirmed` as the seal's usual case writes them: frames made ahead, without
   * address book nor metadata (confirmed-ahead.ts `tellAlone`). Kept with the subscription: the seal asks it of
   * every follower of every landed trace (~2,000 a block), and a field read is cheaper than the questions behind it.
   */
  confirmedAlone = false;
  /** Whether it gets `transactions` at `confirmed` at all (with an address book or metadata: its text cut). */
  confirmedTransactions = false;

  get subscription(): Subscription {
    return this.current;
  }

  /** Replaced as a whole (never changed in place): WS subscribe and unsubscribe make a new one. */
  set subscription(next: Subscription) {
    this.current = next;
    this.confirmedTransactions = next.types.has('transactions') && finalityRank('confirmed') >= finalityRank(next.minFinality);
    this.confirmedAlone = this.confirmedTransactions && !next.includeAddressBook && !next.includeMetadata;
  }
  /** trace_external_hash_norm of the traces this client was told at `pending` and not since (told). */
  readonly unsettled = new Set<string>();
  closed = false;
  closeReason?: string;
  /** The injected clock's time of the client's last message (WS: idle connections are closed). */
  lastSeen: number;

  constructor(
    readonly id: string,
    private readonly transport: Transport,
    private readonly maxBufferedBytes: number,
    now: number,
    /** The key's public id (connection caps), or undefined without the access layer. */
    readonly keyId: string | undefined,
    onClose: (connection: StreamConnection) => void,
  ) {
    this.subscription = emptySubscription();
    this.lastSeen = now;
    this.onClose = onClose;
  }

  private readonly onClose: (connection: StreamConnection) => void;

  wants(type: EventType, finality: Finality): boolean {
    return this.subscription.types.has(type) && finalityRank(finality) >= finalityRank(this.subscription.minFinality);
  }

  /**
   * Sends one notification (a text, or one made ahead: its frame where the transport takes it, else its bytes); a
   * client whose socket already holds too much is closed instead.
   */
  send(text: string | FramedText): void {
    if (this.closed) return;
    const shared = text instanceof FramedText;
    if (this.transport.buffered() + (shared ? text.frame.length : text.length) > this.maxBufferedBytes) {
      this.close(`slow consumer: more than ${this.maxBufferedBytes} bytes waiting to be read`);
      return;
    }
    if (!this.corked && this.transport.cork) this.holdWrites();
    if (!shared) this.transport.write(text);
    else if (!this.transport.writeFrame?.(text.frame)) this.transport.write(text.bytes);
  }

  private corked = false;

  /**
   * What is sent in this turn of the event loop (a block's notifications, delivered one trace after the other)
   * leaves in one write when the turn's ticks are done: one system call per client and block, not per frame.
   */
  private holdWrites(): void {
    this.corked = true;
    this.transport.cork!();
    if (held.push(this) === 1) process.nextTick(releaseHeld);
  }

  /** The turn's tick: what was held leaves (holdWrites). */
  releaseWrites(): void {
    this.corked = false;
    this.transport.uncork!();
  }

  /**
   * Remembers a trace told at `pending`, the one finality it may yet be invalidated at (the pending layer invalidates
   * only a trace that never landed; one told at `confirmed` or `finalized` has); forgets it once told later. So the
   * seal's ~1,600 `confirmed` a block add nothing here (each was a Set entry kept per client until `finalized`,
   * seconds later: a third of what the seal's handover allocated).
   */
  told(norm: string, finality: Finality): void {
    if (finality === 'pending') this.unsettled.add(norm);
    else if (this.unsettled.size > 0) this.unsettled.delete(norm);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    try {
      this.transport.close(reason);
    } finally {
      this.onClose(this);
    }
  }

  /** The transport went away by itself (the client disconnected). */
  gone(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = 'client disconnected';
    this.onClose(this);
  }
}

/**
 * The connections holding writes in this turn, in the order they began (holdWrites), released by one tick for all of
 * them: not a tick per connection (~1,000 a block at the seal).
 */
const held: StreamConnection[] = [];

function releaseHeld(): void {
  try {
    // A connection held while these are released (a write's side effect) is released here too: the loop reads the length.
    for (let i = 0; i < held.length; i++) held[i].releaseWrites();
  } finally {
    held.length = 0;
  }
}
