/**
 * Redis pub/sub for key changes: whoever writes a key (CLI, admin API, any instance) publishes the
 * key's hash; every instance drops that cache entry at once. The store's revision poll catches
 * anything missed (Redis down, a writer without --redis-url), so this is about speed, not truth.
 * Messages carry SHA-256 hashes, never keys.
 */
import type { Redis } from 'ioredis';

export interface KeyChangeMessage {
  hashes: string[];
  /** An account limit changed: drop every cached key. */
  all?: boolean;
}

export function keyChangeChannel(prefix: string): string {
  return `${prefix}:key-changes`;
}

export async function publishKeyChange(redis: Redis, prefix: string, message: KeyChangeMessage): Promise<void> {
  await redis.publish(keyChangeChannel(prefix), JSON.stringify(message));
}

/** Subscribes on a dedicated connection (a subscribed connection can do nothing else). */
export async function subscribeKeyChanges(
  url: string,
  prefix: string,
  onMessage: (message: KeyChangeMessage) => void,
  onError: (error: unknown) => void,
): Promise<{ close(): Promise<void> }> {
  const { Redis } = await import('ioredis'); // loaded only where there is a Redis
  const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 100, 1000) });
  sub.on('error', onError);
  sub.on('message', (_channel: string, text: string) => {
    try {
      const parsed = JSON.parse(text) as KeyChangeMessage;
      if (Array.isArray(parsed.hashes)) onMessage(parsed);
    } catch (error) {
      onError(error);
    }
  });
  const channel = keyChangeChannel(prefix);
  try {
    await sub.connect();
    await sub.subscribe(channel);
  } catch (error) {
    // Redis down at start: ioredis keeps reconnecting and re-subscribes on its own (autoResubscribe).
    onError(error);
    if (sub.status !== 'end') void sub.subscribe(channel).catch(onError);
  }
  return {
    async close() {
      sub.disconnect();
    },
  };
}
