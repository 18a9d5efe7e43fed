/**
 * How many streams one key holds at once, counted where every instance sees it. Without Redis, in this process.
 * With Redis (the access layer's `--redis-url`), a sorted set per key, `<prefix>:stream:{<key id>}`, its members the
 * open connections with a lease as score: admission is one Lua script (drop expired leases, count, add if under the
 * cap), so simultaneous connects on several instances admit exactly the cap; each instance renews its connections'
 * leases every LEASE_MS / 3 and removes them on close. A connection of an instance that died without closing it
 * holds its place until its lease runs out (about a minute: toncenter's docs warn of the same after a reconnect).
 * If Redis cannot answer, this process's own count decides (logged), so an outage never shuts streaming.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Scheduler } from '../util/scheduler.js';

export const LEASE_MS = 60_000;

export interface ConnectionCaps {
  /** Admits `connection` for `keyId` when it holds fewer than `limit` (-1: no cap). */
  acquire(keyId: string, connection: string, limit: number): Promise<boolean>;
  release(keyId: string, connection: string): void;
  close(): Promise<void>;
}

export class MemoryCaps implements ConnectionCaps {
  private readonly held = new Map<string, Set<string>>();

  async acquire(keyId: string, connection: string, limit: number): Promise<boolean> {
    return this.take(keyId, connection, limit);
  }

  take(keyId: string, connection: string, limit: number): boolean {
    let set = this.held.get(keyId);
    if (!set) this.held.set(keyId, (set = new Set()));
    if (limit >= 0 && set.size >= limit) return false;
    set.add(connection);
    return true;
  }

  release(keyId: string, connection: string): void {
    const set = this.held.get(keyId);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) this.held.delete(keyId);
  }

  async close(): Promise<void> {}
}

// KEYS[1] the key's set; ARGV: now (ms), lease (ms), limit, member.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local limit = tonumber(ARGV[3])
if limit >= 0 and redis.call('ZCARD', KEYS[1]) >= limit then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1`;

export class RedisCaps implements ConnectionCaps {
  private readonly redis: Redis;
  private readonly local = new MemoryCaps();
  private readonly live = new Map<string, Set<string>>();
  private readonly stopRenewing: () => void;

  constructor(
    url: string,
    private readonly prefix: string,
    scheduler: Scheduler,
    private readonly warn: (error: unknown, message: string) => void,
  ) {
    // Commands wait for the connection for at most a second (a connect at start-up), then fail over to the local count.
    // ioredis is loaded only with --redis-url (CommonJS: `createRequire` keeps the constructor synchronous).
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.redis = new RedisClient(url, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
    this.redis.on('error', () => undefined); // reported where a command fails
    this.stopRenewing = scheduler.every(LEASE_MS / 3, () => this.renew());
  }

  private key(keyId: string): string {
    return `${this.prefix}:stream:{${keyId}}`;
  }

  async acquire(keyId: string, connection: string, limit: number): Promise<boolean> {
    let admitted: boolean;
    try {
      admitted =
        (await this.redis.eval(ACQUIRE, 1, this.key(keyId), String(Date.now()), String(LEASE_MS), String(limit), connection)) === 1;
    } catch (error) {
      this.warn(error, 'stream: Redis could not count the connections of a key; this instance counts alone');
      admitted = this.local.take(keyId, connection, limit);
    }
    if (admitted) {
      let set = this.live.get(keyId);
      if (!set) this.live.set(keyId, (set = new Set()));
      set.add(connection);
    }
    return admitted;
  }

  release(keyId: string, connection: string): void {
    this.local.release(keyId, connection);
    const set = this.live.get(keyId);
    set?.delete(connection);
    if (set?.size === 0) this.live.delete(keyId);
    this.redis.zrem(this.key(keyId), connection).catch(() => undefined);
  }

  private renew(): void {
    const expiry = String(Date.now() + LEASE_MS);
    for (const [keyId, set] of this.live) {
      for (const connection of set) this.redis.zadd(this.key(keyId), 'XX', expiry, connection).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.stopRenewing();
    const pending = [...this.live].map(([keyId, set]) => this.redis.zrem(this.key(keyId), ...set).catch(() => undefined));
    await Promise.all(pending);
    this.redis.disconnect();
  }
}
