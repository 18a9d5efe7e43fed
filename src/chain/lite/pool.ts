/**
 * The liteservers of one network, used together: every server of the global config gets a connection
 * (connection.ts) and a health check; each query goes to the best server that can answer it, and to another one
 * when that fails.
 *
 * - Health: every `healthIntervalMs` each server is asked for its masterchain head; that answer's round trip
 *   feeds its latency estimate (EWMA) and its seqno says how far it has got.
 * - Choice: among servers that are connected, whose circuit breaker admits a call, that are below their
 *   concurrency cap and have the block the query needs (`minSeqno`), the one with the lowest
 *   latency x (1 + queries in flight). A server more than `maxLagBlocks` behind the best is not used for reads
 *   of the newest state (the chain always pins reads to a block, so this is the same rule: it does not have it).
 * - Failure: a transport failure, a timeout, an answer that does not check out (LiteDataError, thrown by the
 *   caller's `check`) counts against that server's breaker (util/circuit-breaker), and the query is tried on
 *   another server while its deadline lasts. liteServer.error "not ready" (also how a server says it lacks a
 *   block) is tried on another server without blame, and is the answer when no server knows better. Any other
 *   liteServer.error is the server's verdict on the request and is returned as is.
 * - Nothing waits forever: a query with no usable server fails at once (LiteUnavailable, 503); one that ran out
 *   of time fails with LiteTimeout (504).
 * - The index's follower (`asFollower`) runs within a budget of its own (follower-budget.ts): a rate, and at most
 *   half of each server's cap in flight, so HTTP reads are never queued behind ingestion.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { TLFunction } from 'ton-tl';
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { liteServer_masterchainInfo, tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { CircuitBreaker, type BreakerState } from '../../util/circuit-breaker.js';
import type { LiteServerAddress } from '../../ton/global-config.js';
import type { Clock } from '../../util/clock.js';
import { schedulerOf } from '../../util/scheduler.js';
import { LiteConnection } from './connection.js';
import { DEFAULT_FOLLOWER_QUERIES_PER_SECOND, FollowerBudget } from './follower-budget.js';
import { LiteDataError, LiteServerError, LiteTimeout, LiteTransportError, LiteUnavailable, LiteWrongNetwork } from './errors.js';
import { nextHead } from './next-head.js';

/** How long a liteserver is asked to hold a next-head query (ms) before answering that no block came. */
const NEXT_HEAD_WAIT_MS = 3000;

/** liteServer.error codes that say "this server cannot answer now", not "the request is wrong" (td's ErrorCode). */
const RETRYABLE_CODES = new Set([651 /* notready */, 652 /* timeout */, 653 /* cancelled */]);

export interface LitePoolOptions {
  servers: LiteServerAddress[];
  clock: Clock;
  logger?: Logger;
  /** Whole budget of one query, retries included (ms). */
  requestTimeoutMs?: number;
  /** Budget of one attempt on one server (ms). */
  attemptTimeoutMs?: number;
  /** Most queries in flight on one server; more wait for a slot (within their deadline). */
  maxInFlightPerServer?: number;
  healthIntervalMs?: number;
  /** A server this many masterchain blocks behind the best is not used for the newest state. */
  maxLagBlocks?: number;
  /**
   * Proves a new masterchain head a server reports before the pool believes it (chain/lite/block-proofs): until
   * it resolves the head is not announced; when it throws, the server's breaker counts a failure and its head is
   * not taken.
   */
  verifyHead?: (last: tonNode_blockIdExt, server: string) => Promise<void>;
  /** Most liteserver queries per second the index's follower starts (default 100). */
  followerQueriesPerSecond?: number;
  /**
   * The network's zero state (the global config's): a server whose masterchain info names another one serves
   * another network, and is neither asked nor believed (LiteWrongNetwork at start when every server does).
   */
  zeroState?: { rootHash: Buffer; fileHash: Buffer };
  /**
   * Also learn of each new head as soon as a server has it (next-head.ts: one query held by the server per
   * connection), not only at the next health check (default true).
   */
  watchHeads?: boolean;
}

/** Set while the follower's reads run (asFollower): the queries they make are the follower's. */
const followerScope = new AsyncLocalStorage<boolean>();

export interface QueryOptions {
  /** Only servers that have reached this masterchain seqno. */
  minSeqno?: number;
  /** Throws (or rejects) LiteDataError when an answer does not check out: the pool then asks another server. A promise is awaited. */
  check?: (answer: unknown) => unknown;
  /** Overrides the pool's request timeout. */
  timeoutMs?: number;
  /** Only this server (its label): what it answers is held against it alone. */
  server?: string;
}

export interface ServerStatus {
  server: string;
  connected: boolean;
  breaker: BreakerState;
  latencyMs: number | null;
  inFlight: number;
  /** Of inFlight, the follower's. */
  followerInFlight: number;
  mcSeqno: number | null;
}

export interface HeadInfo {
  info: liteServer_masterchainInfo;
  server: string;
}

class ServerState {
  readonly breaker: CircuitBreaker;
  latencyMs: number | null = null;
  inFlight = 0;
  followerInFlight = 0;
  mcSeqno: number | null = null;
  lastInfo: liteServer_masterchainInfo | null = null;
  checking = false;
  /** Set while the server says its chain starts from another zero state than the config's: why it is not used. */
  foreign: string | undefined;
  /** The last thing that went wrong with it (connection or health check), for messages naming each server's state. */
  lastProblem: string | undefined;
  watching = false;

  constructor(
    readonly connection: LiteConnection,
    clock: Clock,
  ) {
    // Liteservers answer in milliseconds: a few failures among the last ten take one out for 2 s.
    this.breaker = new CircuitBreaker({ clock, window: 10, minFailures: 3, failureRatio: 0.5, openMs: 2000 });
  }

  observeLatency(ms: number): void {
    this.latencyMs = this.latencyMs === null ? ms : this.latencyMs * 0.8 + ms * 0.2;
  }

  /** Lower is better: latency (unknown counts as slow) scaled by the queue on it. */
  score(): number {
    return (this.latencyMs ?? 1000) * (1 + this.inFlight);
  }
}

export class LitePool extends EventEmitter {
  private readonly servers: ServerState[];
  private readonly clock: Clock;
  private readonly logger?: Logger;
  private readonly requestTimeoutMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly maxInFlight: number;
  private readonly maxLag: number;
  private readonly verifyHead?: LitePoolOptions['verifyHead'];
  private readonly zeroState?: LitePoolOptions['zeroState'];
  private readonly followerSlots: number;
  readonly followerBudget: FollowerBudget;
  private readonly stopHealth: () => void;
  private readonly watchHeads: boolean;
  /** Queries waiting for a slot, HTTP reads and the follower's apart (a slot may suit one and not the other). */
  private readonly slotWaiters = { reads: new Set<() => void>(), follower: new Set<() => void>() };
  private headSeqno = -1;
  private answered = false;
  private closed = false;

  constructor(options: LitePoolOptions) {
    super();
    if (options.servers.length === 0) throw new Error('a lite pool needs at least one liteserver');
    this.clock = options.clock;
    this.logger = options.logger;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 5000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? Math.min(3000, this.requestTimeoutMs);
    this.maxInFlight = options.maxInFlightPerServer ?? 32;
    this.maxLag = options.maxLagBlocks ?? 2;
    this.verifyHead = options.verifyHead;
    this.zeroState = options.zeroState;
    this.followerSlots = FollowerBudget.slots(this.maxInFlight);
    this.followerBudget = new FollowerBudget(options.followerQueriesPerSecond ?? DEFAULT_FOLLOWER_QUERIES_PER_SECOND, this.clock);
    this.servers = options.servers.map((address) => {
      const state = new ServerState(new LiteConnection({ ...address, clock: this.clock }), this.clock);
      state.connection.on('ready', () => void this.check(state));
      state.connection.on('down', (reason: Error) => {
        state.breaker.failure();
        state.lastProblem = withoutLabel(reason.message, state.connection.label);
        this.logger?.warn({ server: state.connection.label, reason: reason.message }, 'liteserver connection lost');
      });
      return state;
    });
    this.watchHeads = options.watchHeads ?? true;
    const interval = options.healthIntervalMs ?? 1000;
    // On the injected clock's timers (util/scheduler.ts): a test moves a manual clock instead of waiting.
    this.stopHealth = schedulerOf(this.clock).every(interval, () => {
      for (const server of this.servers) void this.watch(server);
      // The checks' promise (they never reject): a manual clock lets a test await the round; Node's timers ignore it.
      return Promise.all(this.servers.map((server) => this.check(server)));
    });
  }

  /**
   * Resolves once some server of this network has answered a health check (its head maybe not proven yet); rejects
   * after `timeoutMs` (LiteUnavailable), or as soon as every server has answered as one of another network
   * (LiteWrongNetwork: waiting would not help).
   */
  waitAnswer(timeoutMs: number): Promise<void> {
    if (this.answered) return Promise.resolve();
    const wrong = this.wrongNetwork();
    if (wrong) return Promise.reject(wrong);
    const waiting = this.nextEvent<void>('answered', timeoutMs, () => `no liteserver answered within ${timeoutMs} ms`);
    return new Promise<void>((resolve, reject) => {
      const onForeign = () => {
        const error = this.wrongNetwork();
        if (error) {
          this.off('foreign', onForeign);
          reject(error);
        }
      };
      this.on('foreign', onForeign);
      waiting.then(resolve, reject).finally(() => this.off('foreign', onForeign));
    });
  }

  /** LiteWrongNetwork when every server is known to serve another network than the config's, else undefined. */
  private wrongNetwork(): LiteWrongNetwork | undefined {
    if (!this.servers.every((s) => s.foreign !== undefined)) return undefined;
    return new LiteWrongNetwork(
      `every liteserver of the config serves another network: ${this.servers.map((s) => `${s.connection.label} ${s.foreign}`).join('; ')}`,
    );
  }

  /** Resolves once some server has reported its head (proven, with `verifyHead`); rejects after `timeoutMs`. */
  waitHead(timeoutMs: number): Promise<HeadInfo> {
    const best = this.bestHead();
    if (best) return Promise.resolve(best);
    return this.nextEvent<HeadInfo>(
      'head',
      timeoutMs,
      () => `no liteserver head${this.verifyHead ? ' proven' : ''} within ${timeoutMs} ms`,
    );
  }

  /** The next `event` of this pool, or LiteUnavailable (the message, then each server's state) after `timeoutMs`. */
  private nextEvent<T>(event: string, timeoutMs: number, message: () => string): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off(event, on);
        reject(new LiteUnavailable(`${message()} (${this.describeServers()})`));
      }, timeoutMs);
      timer.unref();
      const on = (value: T) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.once(event, on);
    });
  }

  /** The newest masterchain head any healthy server reported. */
  bestHead(): HeadInfo | undefined {
    let best: ServerState | undefined;
    for (const s of this.servers) {
      if (!s.lastInfo || !s.connection.isReady() || s.breaker.state !== 'closed' || s.foreign !== undefined) continue;
      if (!best || s.lastInfo.last.seqno > best.lastInfo!.last.seqno) best = s;
    }
    return best ? { info: best.lastInfo!, server: best.connection.label } : undefined;
  }

  status(): ServerStatus[] {
    return this.servers.map((s) => ({
      server: s.connection.label,
      connected: s.connection.isReady(),
      breaker: s.breaker.state,
      latencyMs: s.latencyMs === null ? null : Math.round(s.latencyMs * 100) / 100,
      inFlight: s.inFlight,
      followerInFlight: s.followerInFlight,
      mcSeqno: s.mcSeqno,
    }));
  }

  /**
   * Runs `fn` as the index's follower: every query it makes, however deep (block and account reads), waits for the
   * follower's budget and uses at most its share of each server.
   */
  asFollower<T>(fn: () => Promise<T>): Promise<T> {
    return followerScope.run(true, fn);
  }

  async query<REQ, RES>(f: TLFunction<REQ, RES>, request: REQ, options: QueryOptions = {}): Promise<RES> {
    const follower = followerScope.getStore() === true;
    // The follower's query waits for its budget first; its deadline starts once it may go.
    if (follower) await this.waitBudget();
    const deadline = this.clock.now() + (options.timeoutMs ?? this.requestTimeoutMs);
    const tried = new Set<ServerState>();
    let lastError: Error | undefined;
    let timedOut = false;
    let serverVerdict: LiteServerError | undefined;
    for (;;) {
      if (this.closed) throw new LiteUnavailable('the liteserver pool is closed');
      const remaining = deadline - this.clock.now();
      if (remaining <= 0) break;
      const server = this.pick(options.minSeqno, tried, follower, options.server);
      if (server === 'busy') {
        if (!(await this.waitSlot(remaining, follower))) {
          timedOut = true;
          break;
        }
        continue;
      }
      if (!server) break;
      tried.add(server);
      server.inFlight++;
      if (follower) server.followerInFlight++;
      const started = this.clock.now();
      try {
        const answer = await server.connection.query(f, request, Math.min(this.attemptTimeoutMs, remaining));
        await options.check?.(answer);
        server.observeLatency(this.clock.now() - started);
        server.breaker.success();
        return answer;
      } catch (err) {
        if (err instanceof LiteServerError && !RETRYABLE_CODES.has(err.code)) {
          // The server is fine; the request is not (unknown block, refused message...).
          server.breaker.success();
          throw err;
        }
        if (!(err instanceof LiteServerError || err instanceof LiteTransportError || err instanceof LiteDataError)) throw err;
        // "Not ready" is also how a liteserver says it has no such block: another server may have it, but a
        // client asking for blocks that do not exist must not trip the breakers of healthy servers.
        if (err instanceof LiteServerError) serverVerdict = err;
        else server.breaker.failure();
        if (err instanceof LiteTransportError && err.timeout) timedOut = true;
        if (err instanceof LiteDataError)
          this.logger?.warn({ server: server.connection.label, reason: err.message }, 'liteserver answer refused');
        lastError = err;
      } finally {
        server.inFlight--;
        if (follower) server.followerInFlight--;
        this.releaseSlot();
      }
    }
    // Every server that answered said the same kind of "not here": that is the answer.
    if (serverVerdict && lastError === serverVerdict) throw serverVerdict;
    const detail = lastError ? `: ${lastError.message}` : ` (${this.describeServers()})`;
    if (timedOut) throw new LiteTimeout(`no liteserver answered in time${detail}`);
    throw new LiteUnavailable(`no working liteserver${detail}`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopHealth();
    for (const s of this.servers) s.connection.close();
    for (const wake of [...this.slotWaiters.reads, ...this.slotWaiters.follower]) wake();
  }

  /** The best usable server not yet tried; 'busy' when only full ones are left; undefined when none is usable. */
  private pick(minSeqno: number | undefined, tried: Set<ServerState>, follower = false, only?: string): ServerState | 'busy' | undefined {
    let best: ServerState | undefined;
    let busy = false;
    for (const s of this.servers) {
      if (tried.has(s) || !s.connection.isReady() || s.foreign !== undefined || (only !== undefined && s.connection.label !== only))
        continue;
      // A server known not to have the block yet; one whose head is unknown may still be asked.
      if (minSeqno !== undefined && s.mcSeqno !== null && s.mcSeqno < minSeqno) continue;
      if (s.mcSeqno !== null && this.headSeqno - s.mcSeqno > this.maxLag && (minSeqno === undefined || minSeqno > s.mcSeqno)) continue;
      // A tripped server comes back through its health check (check()), not through requests.
      if (s.breaker.state !== 'closed') continue;
      if (s.inFlight >= this.maxInFlight || (follower && s.followerInFlight >= this.followerSlots)) {
        busy = true;
        continue;
      }
      if (!best || s.score() < best.score()) best = s;
    }
    return best ?? (busy ? 'busy' : undefined);
  }

  private waitSlot(timeoutMs: number, follower: boolean): Promise<boolean> {
    const waiters = follower ? this.slotWaiters.follower : this.slotWaiters.reads;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        waiters.delete(wake);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      waiters.add(wake);
    });
  }

  /** The first waiting read and the first waiting follower query look again (a read first). */
  private releaseSlot(): void {
    for (const waiters of [this.slotWaiters.reads, this.slotWaiters.follower]) {
      const first = waiters.values().next();
      if (!first.done) first.value();
    }
  }

  private async waitBudget(): Promise<void> {
    for (let wait = this.followerBudget.take(); wait > 0; wait = this.followerBudget.take()) {
      if (this.closed) throw new LiteUnavailable('the liteserver pool is closed');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /**
   * The health check: one getMasterchainInfo, timed. It is also how a tripped server returns: once the breaker's
   * open interval has passed, the check is its half-open probe, and a good answer closes it.
   */
  private async check(server: ServerState): Promise<void> {
    if (server.checking || this.closed || !server.connection.isReady()) return;
    if (server.breaker.state !== 'closed' && !server.breaker.allow()) return;
    server.checking = true;
    const started = this.clock.now();
    try {
      const info = await server.connection.query(
        Functions.liteServer_getMasterchainInfo,
        { kind: 'liteServer.getMasterchainInfo' },
        this.attemptTimeoutMs,
        {
          dropIfSilent: true,
        },
      );
      server.observeLatency(this.clock.now() - started);
      server.breaker.success();
      const foreign = this.foreignZeroState(info);
      if (foreign !== server.foreign) {
        server.foreign = foreign;
        if (foreign) {
          this.logger?.warn({ server: server.connection.label, reason: foreign }, 'liteserver of another network: not used');
          this.emit('foreign');
        }
      }
      if (foreign) return;
      if (!this.answered) {
        this.answered = true;
        this.emit('answered');
      }
      await this.takeHead(server, info);
    } catch (err) {
      server.breaker.failure();
      server.lastProblem = withoutLabel((err as Error).message, server.connection.label);
      this.logger?.debug({ server: server.connection.label, reason: (err as Error).message }, 'liteserver health check failed');
    } finally {
      server.checking = false;
    }
  }

  /** Why `info` is of another network than the config's (its zero state), or undefined when it is of this one. */
  private foreignZeroState(info: liteServer_masterchainInfo): string | undefined {
    const expected = this.zeroState;
    if (!expected || (info.init.rootHash.equals(expected.rootHash) && info.init.fileHash.equals(expected.fileHash))) return undefined;
    return `starts from zero state ${info.init.rootHash.toString('hex').toUpperCase()}, the config's is ${expected.rootHash.toString('hex').toUpperCase()}`;
  }

  /** What a server reports as its head: believed (and announced, when the newest) once proven. */
  private async takeHead(server: ServerState, info: liteServer_masterchainInfo): Promise<void> {
    if (info.last.seqno > this.headSeqno && this.verifyHead) {
      // A head newer than any believed so far is taken only once proven (asked of the server that reported it).
      // Said at once ('reported'): what it names may be fetched meanwhile, to be believed only once it is proven.
      this.emit('reported', { info, server: server.connection.label } satisfies HeadInfo);
      try {
        await this.verifyHead(info.last, server.connection.label);
      } catch (err) {
        server.breaker.failure();
        server.lastProblem = `head ${info.last.seqno} not proven: ${(err as Error).message}`;
        this.logger?.warn(
          { server: server.connection.label, seqno: info.last.seqno, reason: (err as Error).message },
          'liteserver head not proven: not believed',
        );
        return;
      }
    }
    // The health check and the next-head query answer in any order: an older answer does not move a server back.
    if (server.mcSeqno === null || info.last.seqno >= server.mcSeqno) {
      server.mcSeqno = info.last.seqno;
      server.lastInfo = info;
    }
    if (info.last.seqno > this.headSeqno) {
      this.headSeqno = info.last.seqno;
      this.emit('head', { info, server: server.connection.label } satisfies HeadInfo);
    }
  }

  /**
   * Asks a healthy server for the block after its head, held until it exists (next-head.ts), again and again while
   * it answers: each new head is known when the server has it. A wait that ends without a block, or any failure,
   * ends the watch until the next health check starts it again; the health check alone judges the server.
   */
  private async watch(server: ServerState): Promise<void> {
    if (!this.watchHeads || server.watching) return;
    server.watching = true;
    try {
      while (
        !this.closed &&
        server.connection.isReady() &&
        server.breaker.state === 'closed' &&
        server.foreign === undefined &&
        server.mcSeqno !== null
      ) {
        const info = await server.connection.query(
          nextHead,
          { seqno: server.mcSeqno + 1, timeoutMs: NEXT_HEAD_WAIT_MS },
          NEXT_HEAD_WAIT_MS + this.attemptTimeoutMs,
        );
        if (this.closed) return;
        const before = server.mcSeqno;
        await this.takeHead(server, info);
        if (server.mcSeqno === before) return; // not proven, or no newer: the health check takes it from here
      }
    } catch {
      // No block within the wait, a server without the prefix, a lost connection: the health check goes on.
    } finally {
      server.watching = false;
    }
  }

  private describeServers(): string {
    return this.servers
      .map((s) => {
        if (s.foreign) return `${s.connection.label} of another network (${s.foreign})`;
        if (!s.connection.isReady()) return `${s.connection.label} not connected${s.lastProblem ? `: ${s.lastProblem}` : ''}`;
        return `${s.connection.label} breaker ${s.breaker.state}${s.lastProblem && (s.breaker.state !== 'closed' || s.lastInfo === null) ? `: ${s.lastProblem}` : ''}`;
      })
      .join(', ');
  }
}

/** A connection's message without the server label it starts with (the description names the server already). */
function withoutLabel(message: string, label: string): string {
  return message.startsWith(`${label}: `) ? message.slice(label.length + 2) : message;
}
