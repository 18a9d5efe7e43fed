/**
 * One upstream response body, read once and handed to every request that waits for it (the first one and
 * those coalesced onto it, or served from the cache). Each reader replays the chunks received so far, then
 * follows the live ones; nothing is parsed or re-serialized, so every reader gets the upstream's bytes.
 *
 * Chunks are kept until the body ends (bounded by the response-size cap), because a reader may join at any
 * time while the flight is open. A streaming endpoint (SSE) would bypass this and pipe the upstream body
 * to one reader with backpressure: see README.md, "Streaming".
 */
import { Readable } from 'node:stream';

export class SharedBody {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private ended = false;
  private failure?: Error;
  /** Readers following the live chunks; made on first use (most bodies are complete before anyone reads them). */
  private followers?: Set<() => void>;
  private startWaiters?: Array<() => void>;

  /** A body that is already complete (a cached answer). */
  static of(buffer: Buffer): SharedBody {
    const body = new SharedBody();
    if (buffer.length > 0) body.push(buffer);
    body.end();
    return body;
  }

  get size(): number {
    return this.bytes;
  }

  get complete(): boolean {
    return this.ended;
  }

  get error(): Error | undefined {
    return this.failure;
  }

  /** The whole body when it has ended (no promise needed), else undefined. */
  get completeBuffer(): Buffer | undefined {
    return this.ended ? this.concat() : undefined;
  }

  push(chunk: Buffer): void {
    if (this.ended || this.failure) return;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.wake();
  }

  end(): void {
    if (this.ended || this.failure) return;
    this.ended = true;
    this.wake();
  }

  fail(error: Error): void {
    if (this.ended || this.failure) return;
    this.failure = error;
    this.chunks.length = 0;
    this.wake();
  }

  /** The first bytes received (empty when the body ended empty); resolves once there are some, or it ended or failed. */
  started(): Promise<Buffer> {
    if (this.chunks.length > 0 || this.ended || this.failure) return Promise.resolve(this.chunks[0] ?? Buffer.alloc(0));
    return new Promise((resolve) => (this.startWaiters ??= []).push(() => resolve(this.chunks[0] ?? Buffer.alloc(0))));
  }

  /** Resolves with the whole body once it ended; rejects if it failed. */
  whole(): Promise<Buffer> {
    if (this.ended) return Promise.resolve(this.concat());
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.ended) resolve(this.concat());
        else if (this.failure) reject(this.failure);
        else return;
        this.followers!.delete(check);
      };
      (this.followers ??= new Set()).add(check);
    });
  }

  /** The body as a stream for one client: replays, then follows; destroyed with the error if the upstream fails. */
  reader(): Readable {
    let next = 0;
    const follow = () => {
      if (this.failure) {
        this.followers!.delete(follow);
        stream.destroy(this.failure);
        return;
      }
      while (next < this.chunks.length) stream.push(this.chunks[next++]);
      if (this.ended) {
        this.followers!.delete(follow);
        stream.push(null);
      }
    };
    const stream = new Readable({
      read() {
        /* chunks are pushed as they arrive (they are held in memory anyway) */
      },
      destroy: (error, callback) => {
        this.followers!.delete(follow);
        callback(error);
      },
    });
    (this.followers ??= new Set()).add(follow);
    follow();
    return stream;
  }

  /** The chunks as one buffer; once the body has ended (every follower has replayed it), kept as that one chunk. */
  private concat(): Buffer {
    if (this.chunks.length === 1) return this.chunks[0];
    const whole = Buffer.concat(this.chunks, this.bytes);
    if (this.ended && this.chunks.length > 1) this.chunks.splice(0, this.chunks.length, whole);
    return whole;
  }

  private wake(): void {
    if (this.startWaiters !== undefined && this.startWaiters.length > 0) {
      const waiters = this.startWaiters;
      this.startWaiters = [];
      for (const waiter of waiters) waiter();
    }
    if (this.followers !== undefined && this.followers.size > 0) for (const follower of [...this.followers]) follower();
  }
}
