/**
 * What every listener's streaming routes share: one hub per network (whatever listener serves it), the key caps,
 * the limits, the clock and its timers, the open SSE responses (the keepalive writes to them) and WebSockets (the
 * idle sweep closes them). Made once per access layer (there is one per gateway) by routes.ts.
 */
import type { ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { AccessLayer } from '../access/index.js';
import type { NetworkContext } from '../http/network-context.js';
import { pendingOf } from '../pending/registry.js';
import { pendingRenderer } from '../pending/renderer.js';
import type { Clock } from '../util/clock.js';
import type { StreamActions } from './actions.js';
import type { StreamLimits } from './admission.js';
import type { ConnectionCaps } from './connection-caps.js';
import { StreamConnection, type Transport } from './connection.js';
import { StreamHub, type HubLogger } from './hub.js';
import { followLiteHeads, liteHeadsOf, withoutLanded } from './lite-feed.js';
import type { Scheduler } from '../util/scheduler.js';

export class StreamContext {
  private readonly hubs = new Map<NetworkContext, StreamHub | null>();
  /** What feeds the hubs of lite networks (lite-feed.ts), stopped with them. */
  private readonly feeds: (() => void)[] = [];
  readonly sse = new Map<StreamConnection, ServerResponse>();
  readonly ws = new Set<StreamConnection>();
  /** SSE streams passed through to an upstream network's (upstream-relay.ts): no keepalive of ours is written to them. */
  readonly relays = new Set<StreamConnection>();
  private counter = 0;
  private readonly instance = `${hostname()}:${process.pid}:${Date.now().toString(36)}`;

  constructor(
    readonly access: AccessLayer,
    readonly caps: ConnectionCaps,
    readonly limits: StreamLimits,
    readonly maxBufferedBytes: number,
    readonly clock: Clock,
    readonly scheduler: Scheduler,
    readonly actions: StreamActions,
    private readonly logger?: HubLogger,
    private readonly onDelivered?: (seqno: number, ms: number) => void,
  ) {}

  /**
   * A client of `hub` (none: relayed to an upstream) under this key: closing it (or losing it) takes it out of the hub and of its transport's
   * registry (`forget`) and gives its place under the key's cap back.
   */
  connect(
    hub: StreamHub | undefined,
    id: string,
    transport: Transport,
    keyId: string | null,
    forget: (connection: StreamConnection) => void,
  ): StreamConnection {
    return new StreamConnection(id, transport, this.maxBufferedBytes, this.clock.now(), keyId ?? undefined, (connection) => {
      hub?.remove(connection);
      forget(connection);
      if (keyId !== null) this.caps.release(keyId, id);
    });
  }

  /** A connection id unique across instances (the Redis caps count members by it). */
  nextId(): string {
    return `${this.instance}:${++this.counter}`;
  }

  /**
   * The network's hub, made at the first ask (the gateway asks for every network it serves when it starts, so the
   * pending layer follows the chain from then on): a local chain's hub hears its sealed blocks, a lite network's its
   * indexed heads (lite-feed.ts); none for an upstream network (or a lite one without an index).
   */
  hubOf(network: NetworkContext): StreamHub | undefined {
    let hub = this.hubs.get(network);
    if (hub === undefined) {
      const pending = pendingOf(network.chain);
      const heads = liteHeadsOf(network);
      const options = { network, actions: this.actions, logger: this.logger, onDelivered: this.onDelivered };
      if (heads) {
        hub = new StreamHub({ ...options, pending: pending && withoutLanded(pending) });
        this.feeds.push(followLiteHeads(hub, network, heads, this.logger));
      } else {
        hub = pending ? new StreamHub({ ...options, pending }) : null;
      }
      this.hubs.set(network, hub);
    }
    return hub ?? undefined;
  }

  notServed(network: NetworkContext): string {
    return `streaming is served on local networks and indexed lite networks; ${network.name} is served by ${network.backend ?? 'another backend'}`;
  }

  allHubs(): StreamHub[] {
    return [...this.hubs.values()].filter((h): h is StreamHub => h !== null);
  }

  async close(): Promise<void> {
    for (const c of [...this.sse.keys(), ...this.ws, ...this.relays]) c.close('the server is shutting down');
    for (const stop of this.feeds.splice(0)) stop();
    for (const hub of this.allHubs()) hub.stop();
    await this.caps.close();
    await pendingRenderer.stop();
  }
}
