/**
 * One ADNL connection to one liteserver: LiteAPI queries with timeouts, and reconnection. The ADNL transport
 * (handshake, AES-CTR, packet framing) is the `adnl` package; the LiteAPI TL schema (request and answer codecs) is
 * ton-lite-client's. This file is the small part in between that ton-lite-client's own LiteSingleEngine does
 * in a way a server cannot live with (README, "Why not LiteSingleEngine"): after a connection error it waits a
 * fixed 30 s, in a timer that cannot be cancelled, keeps the process alive and revives a closed engine; and a
 * corrupt packet from the server throws out of a socket handler and ends the process.
 */
import { EventEmitter } from 'node:events';
import { createCipheriv, createDecipheriv, createHash, randomBytes, type Decipher } from 'node:crypto';
import { ADNLClientTCP } from 'adnl';
import { TLReadBuffer, TLWriteBuffer, type TLFunction } from 'ton-tl';
import { Codecs, Functions } from 'ton-lite-client/dist/schema.js';
import { LiteServerError, LiteTransportError } from './errors.js';
import { systemClock, type Clock } from '../../util/clock.js';
import { onceAfter } from '../../util/scheduler.js';

/** The TL constructor id of liteServer.error, as it starts an answer. */
const LITE_SERVER_ERROR_ID = -1146494648;
/** No answer the LiteAPI gives comes near this (a block is at most a few MB); a bigger frame is garbage. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** The parts of adnl's client (1.0.3) this file reaches into: a session's keys and its two ciphers. */
interface AdnlInternals {
  params: { txKey: Uint8Array; txNonce: Uint8Array; rxKey: Uint8Array; rxNonce: Uint8Array };
  cipher: { update(data: Buffer): Buffer };
  decipher: { update(data: Buffer): Buffer };
}

export interface LiteConnectionOptions {
  host: string;
  port: number;
  publicKey: Buffer;
  /** First wait before reconnecting after a failure; doubles up to `maxReconnectMs`. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /**
   * A connection whose handshake is not done within this is dropped and tried again (default 5000 ms). Without it
   * a server that accepts and never answers, or answers with bytes that announce a frame that never ends, held the
   * connection forever: never ready, never down, never retried.
   */
  handshakeTimeoutMs?: number;
  /** The handshake's deadline runs on this clock's timers (a test moves it). */
  clock?: Clock;
}

interface Pending {
  decode(buffer: TLReadBuffer): unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Emits 'ready' when the handshake is done and 'down' (with the reason) when the connection is lost; it
 * reconnects by itself until closed. Queries sent while it is not ready fail at once (the pool sends them
 * to another server) rather than waiting for a connection that may never come.
 */
export class LiteConnection extends EventEmitter {
  readonly label: string;
  private client: GuardedAdnlClient | null = null;
  private ready = false;
  private closed = false;
  private readonly pending = new Map<string, Pending>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private cancelHandshakeDeadline: (() => void) | undefined;
  private backoffMs: number;
  /** Answers received on this object's connections: tells a silent connection from a busy one. */
  private answers = 0;

  constructor(private readonly options: LiteConnectionOptions) {
    super();
    this.label = `${options.host}:${options.port}`;
    this.backoffMs = options.reconnectMs ?? 250;
    this.connect();
  }

  isReady(): boolean {
    return this.ready;
  }

  /** Resolves when the connection is up; rejects after `timeoutMs`. */
  waitReady(timeoutMs: number): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('ready', onReady);
        reject(new LiteTransportError(`${this.label}: not connected after ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.once('ready', onReady);
    });
  }

  /**
   * `dropIfSilent`: when no answer at all (to any query) arrived before this one timed out, the connection is
   * replaced: the server hangs, or the stream is out of step (a corrupt length prefix leaves the reader waiting for
   * a frame that never ends). Only for cheap queries (the health check): a heavy one may just be slow under load.
   */
  query<REQ, RES>(f: TLFunction<REQ, RES>, request: REQ, timeoutMs: number, options: { dropIfSilent?: boolean } = {}): Promise<RES> {
    if (this.closed) return Promise.reject(new LiteTransportError(`${this.label}: connection closed`));
    if (!this.ready || !this.client) return Promise.reject(new LiteTransportError(`${this.label}: not connected`));
    const id = randomBytes(32);
    const inner = new TLWriteBuffer();
    f.encodeRequest(request, inner);
    const wrapped = new TLWriteBuffer();
    Functions.liteServer_query.encodeRequest({ kind: 'liteServer.query', data: inner.build() }, wrapped);
    const packet = new TLWriteBuffer();
    Codecs.adnl_Message.encode({ kind: 'adnl.message.query', queryId: id, query: wrapped.build() }, packet);
    const key = id.toString('hex');
    return new Promise<RES>((resolve, reject) => {
      const sentAt = this.answers;
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(new LiteTransportError(`${this.label}: no answer within ${timeoutMs} ms`, true));
        if (options.dropIfSilent && this.answers === sentAt && this.ready)
          this.drop(new LiteTransportError(`${this.label}: unresponsive, reconnecting`));
      }, timeoutMs);
      timer.unref();
      this.pending.set(key, { decode: (b) => f.decodeResponse(b), resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        this.client!.write(packet.build());
      } catch (err) {
        this.settle(key, undefined, new LiteTransportError(`${this.label}: cannot send: ${(err as Error).message}`));
      }
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.drop(new LiteTransportError(`${this.label}: connection closed`));
  }

  private connect(): void {
    if (this.closed) return;
    const client = new GuardedAdnlClient(`tcp://${this.options.host}:${this.options.port}`, this.options.publicKey);
    this.client = client;
    const handshakeMs = this.options.handshakeTimeoutMs ?? 5000;
    this.cancelHandshakeDeadline = onceAfter(this.options.clock ?? systemClock, handshakeMs, () => {
      if (this.client === client && !this.ready) this.drop(new LiteTransportError(`${this.label}: no handshake within ${handshakeMs} ms`));
    });
    client.on('ready', () => {
      if (this.client !== client) return;
      this.cancelHandshakeDeadline?.();
      this.ready = true;
      this.backoffMs = this.options.reconnectMs ?? 250;
      this.emit('ready');
    });
    client.on('data', (data: Buffer) => {
      if (this.client === client) this.onAnswer(data);
    });
    client.on('error', (err: Error) => {
      if (this.client === client) this.drop(new LiteTransportError(`${this.label}: ${err.message}`));
    });
    client.on('close', () => {
      if (this.client === client) this.drop(new LiteTransportError(`${this.label}: connection lost`));
    });
    client.connect().catch((err: Error) => {
      if (this.client === client) this.drop(new LiteTransportError(`${this.label}: ${err.message}`));
    });
  }

  /** The connection is gone: every query waiting on it fails now, and a new one is tried after a backoff. */
  private drop(reason: LiteTransportError): void {
    const client = this.client;
    this.client = null;
    this.cancelHandshakeDeadline?.();
    this.cancelHandshakeDeadline = undefined;
    const wasReady = this.ready;
    this.ready = false;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.destroy();
    }
    for (const [key] of this.pending) this.settle(key, undefined, reason);
    if (wasReady || client) this.emit('down', reason);
    if (this.closed) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), this.backoffMs);
    this.reconnectTimer.unref();
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxReconnectMs ?? 2000);
  }

  private onAnswer(data: Buffer): void {
    this.answers++;
    let message;
    try {
      message = Codecs.adnl_Message.decode(new TLReadBuffer(data));
    } catch (err) {
      this.drop(new LiteTransportError(`${this.label}: undecodable ADNL message (${(err as Error).message})`));
      return;
    }
    if (message.kind !== 'adnl.message.answer') return;
    const key = message.queryId.toString('hex');
    const pending = this.pending.get(key);
    if (!pending) return;
    const answer = message.answer;
    if (answer.length >= 4 && answer.readInt32LE(0) === LITE_SERVER_ERROR_ID) {
      try {
        const error = Codecs.liteServer_Error.decode(new TLReadBuffer(answer));
        this.settle(key, undefined, new LiteServerError(error.code, error.message, this.label));
      } catch (err) {
        this.settle(key, undefined, new LiteTransportError(`${this.label}: undecodable error answer (${(err as Error).message})`));
      }
      return;
    }
    try {
      this.settle(key, pending.decode(new TLReadBuffer(answer)));
    } catch (err) {
      // A server that answers something the schema cannot read is broken: not believed, and asked no more on this connection.
      this.settle(key, undefined, new LiteTransportError(`${this.label}: undecodable answer (${(err as Error).message})`));
    }
  }

  private settle(key: string, value: unknown, error?: Error): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(value);
  }
}

/**
 * adnl's TCP client, with what a server needs: a corrupt frame (bad hash, absurd length) becomes an 'error' event
 * instead of an exception thrown from the socket's data handler; the socket can be destroyed; and the bytes of a
 * session go through Node's own AES-CTR and SHA-256 (OpenSSL) instead of adnl's pure-JavaScript ones. Measured
 * under bench:lite's load: adnl's aes-js cipher and its frame parser (which spreads every payload into an array
 * to hash it, and re-joins the pending buffer on every chunk) took ~15 % of the main thread, about as much as
 * everything else the follower does; blocks are the largest answers. The handshake is still adnl's. Its socket
 * sends without delay (TCP_NODELAY).
 */
class GuardedAdnlClient extends ADNLClientTCP {
  /** Decrypted bytes of frames not yet complete. */
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  private session: { decipher: Decipher } | undefined;

  protected override async onBeforeConnect(): Promise<void> {
    const self = this as unknown as AdnlInternals;
    const before = self.params;
    // Queries go out as they are made (TCP_NODELAY, as TON's own sockets): with Nagle's algorithm a query sent
    // while another is unanswered waited for that one's ACK, up to the peer's delayed-ACK 40 ms: the follower's
    // parallel block reads took ~40 ms more per masterchain block (bench:lite-lag --replay).
    (this.socket as import('node:net').Socket).setNoDelay(true);
    await super.onBeforeConnect();
    // A new session (adnl made new keys): its ciphers, replaced by OpenSSL's with the same keys and nonces.
    if (self.params === before) return;
    const { txKey, txNonce, rxKey, rxNonce } = self.params;
    self.cipher = createCipheriv('aes-256-ctr', txKey, txNonce);
    const decipher = createDecipheriv('aes-256-ctr', rxKey, rxNonce);
    self.decipher = decipher;
    this.session = { decipher };
    this.chunks = [];
    this.pendingBytes = 0;
  }

  /** Frames: size:uint32le, then nonce (32 bytes), payload, sha256(nonce || payload). */
  protected override onData(data: Buffer): void {
    if (!this.session) return;
    try {
      const plain = this.session.decipher.update(data);
      this.chunks.push(plain);
      this.pendingBytes += plain.length;
      while (this.pendingBytes >= 4) {
        if (this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks, this.pendingBytes)];
        const size = this.chunks[0].readUInt32LE(0);
        if (size > MAX_FRAME_BYTES) throw new Error(`frame of ${size} bytes announced`);
        if (size < 64) throw new Error(`frame of ${size} bytes announced (64 at least)`);
        if (this.pendingBytes < 4 + size) return;
        const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.pendingBytes);
        const frame = all.subarray(4, 4 + size);
        const rest = all.subarray(4 + size);
        this.chunks = rest.length > 0 ? [rest] : [];
        this.pendingBytes = rest.length;
        const body = frame.subarray(0, size - 32);
        if (
          !createHash('sha256')
            .update(body)
            .digest()
            .equals(frame.subarray(size - 32))
        )
          throw new Error('bad frame hash');
        const payload = body.subarray(32);
        if (this.state === 0 /* CONNECTING */) {
          if (payload.length !== 0) {
            this.onError(new Error('ADNLClient: Bad handshake.'), true);
            return;
          }
          this.onReady();
          continue;
        }
        this.emit('data', payload);
      }
    } catch (err) {
      this.session = undefined;
      this.emit('error', new Error(`corrupt ADNL frame: ${(err as Error).message}`));
    }
  }

  destroy(): void {
    (this.socket as import('node:net').Socket).destroy();
  }
}
