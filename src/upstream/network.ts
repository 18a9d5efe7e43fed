/**
 * A network of kind `upstream`: its forwarder, the health checks of each upstream URL (one round at
 * start, then every few seconds) and the /healthcheck report. No chain and no index run for it.
 */
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { UpstreamConfig } from '../config/types.js';
import type { Clock } from '../util/clock.js';
import { schedulerOf } from '../util/scheduler.js';
import type { ApiVersion } from '../http/request-target.js';
import { UpstreamForwarder } from './forwarder.js';
import { UpstreamMetrics } from './metrics.js';
import { UpstreamStreaming } from './streaming.js';

/** A check waits at most this long (or the interval, when that is shorter). */
const CHECK_TIMEOUT_MS = 2000;

export interface UpstreamHealthReport {
  status: 200 | 503;
  body: {
    status: 'ok' | 'degraded' | 'down';
    network: string;
    backend: 'upstream';
    upstreams: Array<{
      version: ApiVersion;
      url: string;
      state: string;
      breaker: string;
      last_seqno?: number;
      latency_ms?: number;
      checked_ago_ms?: number;
      error?: string;
    }>;
  };
}

export class UpstreamNetwork {
  readonly forwarder: UpstreamForwarder;
  /** The upstream's streaming API (derived from its v3 URLs), relayed by src/stream; undefined: none (404). */
  readonly streaming: UpstreamStreaming | undefined;
  private stopChecks?: () => void;

  constructor(
    readonly name: string,
    private readonly config: UpstreamConfig,
    private readonly deps: { clock: Clock; registry: Registry; logger?: Logger },
  ) {
    this.forwarder = new UpstreamForwarder(name, config, { clock: deps.clock, metrics: new UpstreamMetrics(deps.registry) });
    this.streaming = UpstreamStreaming.of(config.v3, config.apiKey, config.timeoutMs);
  }

  /** Runs a first round of health checks (each at most a couple of seconds), then keeps checking in the background. */
  async start(): Promise<void> {
    await this.checkAll();
    // On the injected clock's timers (util/scheduler.ts): a test moves a manual clock instead of waiting.
    this.stopChecks = schedulerOf(this.deps.clock).every(this.config.healthIntervalMs, () => this.checkAll());
  }

  async checkAll(): Promise<void> {
    const targets = [...this.forwarder.targets.v2, ...this.forwarder.targets.v3];
    await Promise.all(
      targets.map(async (target) => {
        const before = target.health.state;
        const health = await target.check(Math.min(CHECK_TIMEOUT_MS, this.config.healthIntervalMs));
        if (health.state !== before) {
          this.deps.logger?.[health.state === 'up' ? 'info' : 'warn'](
            { upstream: target.label, state: health.state, error: health.error },
            'upstream health changed',
          );
        }
      }),
    );
  }

  /** The newest masterchain seqno an upstream reported in its last health check (/metrics); undefined before any. */
  lastSeqno(): number | undefined {
    let newest: number | undefined;
    for (const target of [...this.forwarder.targets.v2, ...this.forwarder.targets.v3]) {
      const seqno = target.health.lastSeqno;
      if (seqno !== undefined && (newest === undefined || seqno > newest)) newest = seqno;
    }
    return newest;
  }

  /** 200 while each served version has an upstream that answered its last check; the details of every URL. */
  health(): UpstreamHealthReport {
    const now = this.deps.clock.now();
    const upstreams: UpstreamHealthReport['body']['upstreams'] = [];
    let versionsUp = 0;
    let versions = 0;
    for (const version of ['v2', 'v3'] as const) {
      const targets = this.forwarder.targets[version];
      if (targets.length === 0) continue;
      versions++;
      if (targets.some((t) => t.health.state === 'up' && t.breakerState !== 'open')) versionsUp++;
      for (const target of targets) {
        const h = target.health;
        upstreams.push({
          version,
          url: target.label,
          state: h.state,
          breaker: target.breakerState,
          ...(h.lastSeqno !== undefined ? { last_seqno: h.lastSeqno } : {}),
          ...(h.latencyMs !== undefined ? { latency_ms: h.latencyMs } : {}),
          ...(h.checkedAt !== undefined ? { checked_ago_ms: Math.round(now - h.checkedAt) } : {}),
          ...(h.error !== undefined ? { error: h.error } : {}),
        });
      }
    }
    const status = versionsUp === versions ? 'ok' : versionsUp > 0 ? 'degraded' : 'down';
    return { status: status === 'ok' ? 200 : 503, body: { status, network: this.name, backend: 'upstream', upstreams } };
  }

  /** For the banner: where each version goes (URLs carry no credentials; the key is never shown). */
  describe(): string[] {
    return (['v2', 'v3'] as const).map((version) => {
      const targets = this.forwarder.targets[version];
      if (targets.length === 0) return `${version} not served (no upstream: 404)`;
      return `${version} forwarded to ${targets.map((t) => `${t.label} (${t.health.state})`).join(', then ')}`;
    });
  }

  async close(): Promise<void> {
    this.stopChecks?.();
    await Promise.all([this.forwarder.close(), this.streaming?.close()]);
  }
}
