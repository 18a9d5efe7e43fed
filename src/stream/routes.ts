/**
 * The streaming room's one entry point: `registerStreaming(app, options)` adds `POST /api/streaming/v2/sse` and
 * `GET /api/streaming/v2/ws` to a listener's app. What the listeners share (hubs per network, key caps, timers) is
 * made once per access layer: a gateway has one, whatever number of listeners it opens.
 */
import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { AccessLayer } from '../access/index.js';
import type { NetworkContext } from '../http/network-context.js';
import { systemClock, type Clock } from '../util/clock.js';
import { INDEXED_ACTIONS, type StreamActions } from './actions.js';
import { DEFAULT_LIMITS, type StreamLimits } from './admission.js';
import { MemoryCaps, RedisCaps } from './connection-caps.js';
import { StreamContext } from './context.js';
import type { HubLogger } from './hub.js';
import { registerSse } from './sse.js';
import { schedulerOf } from '../util/scheduler.js';
import { registerWs } from './ws.js';

/** SSE keepalive comment period (toncenter's). */
export const KEEPALIVE_MS = 15_000;
/** A WebSocket client silent this long is closed (toncenter: about 30 s). */
export const IDLE_MS = 30_000;
/** What one client may leave unread in its socket before it is closed as a slow consumer. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface StreamingOptions {
  networks: NetworkContext[];
  access: AccessLayer;
  /** The clock connections are timed by; one that can schedule (`every`) also runs the keepalive and idle sweep (tests). */
  clock?: Clock;
  /** Key caps counted across instances there (the access layer's Redis). */
  redisUrl?: string;
  redisPrefix?: string;
  limits?: Partial<StreamLimits>;
  maxBufferedBytes?: number;
  actions?: StreamActions;
  logger?: HubLogger;
  /** Benches and tests: a sealed block's notifications all written (seqno, ms since its handover). */
  onDelivered?: (seqno: number, ms: number) => void;
}

const shared = new WeakMap<AccessLayer, { context: StreamContext; apps: number }>();

function contextOf(options: StreamingOptions): { context: StreamContext; apps: number } {
  let entry = shared.get(options.access);
  if (!entry) {
    const clock = options.clock ?? systemClock;
    const scheduler = schedulerOf(clock);
    const warn = (err: unknown, message: string) => options.logger?.warn({ err }, message);
    const caps = options.redisUrl ? new RedisCaps(options.redisUrl, options.redisPrefix ?? 'tongate', scheduler, warn) : new MemoryCaps();
    const context = new StreamContext(
      options.access,
      caps,
      { ...DEFAULT_LIMITS, ...options.limits },
      options.maxBufferedBytes ?? MAX_BUFFERED_BYTES,
      clock,
      scheduler,
      options.actions ?? INDEXED_ACTIONS,
      options.logger,
      options.onDelivered,
    );
    const stopKeepalive = scheduler.every(KEEPALIVE_MS, () => {
      for (const [connection, res] of context.sse) if (!connection.closed) res.write(': keepalive\n\n');
    });
    const stopSweep = scheduler.every(Math.min(IDLE_MS / 3, KEEPALIVE_MS), () => {
      const now = clock.now();
      for (const connection of [...context.ws])
        if (now - connection.lastSeen >= IDLE_MS) connection.close(`idle: no message for ${IDLE_MS / 1000} s`);
    });
    const close = context.close.bind(context);
    context.close = async () => {
      stopKeepalive();
      stopSweep();
      await close();
    };
    entry = { context, apps: 0 };
    shared.set(options.access, entry);
  }
  return entry;
}

export function registerStreaming(app: FastifyInstance, options: StreamingOptions): void {
  const entry = contextOf(options);
  entry.apps += 1;
  // Every network's hub now: the pending layer follows its chain from the start.
  for (const network of options.networks) entry.context.hubOf(network);
  app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  app.register(async (scope) => {
    registerSse(scope, entry.context);
    registerWs(scope, entry.context);
  });
  app.addHook('preClose', async () => {
    entry.apps -= 1;
    if (entry.apps === 0) {
      shared.delete(options.access);
      await entry.context.close();
    }
  });
}
