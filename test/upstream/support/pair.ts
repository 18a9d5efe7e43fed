/**
 * Two real tongates in this process: `upstream` serves local chains (mainnet, testnet); a `front` serves
 * the same networks as kind upstream, forwarding through a FaultProxy per upstream URL (so tests can record
 * and break the link). Both listen on free ports; blocks are sealed by the tests. Several fronts may share
 * one upstream (each with fresh proxies, breakers and budgets).
 */
import type { UpstreamNetwork } from '../../../src/upstream/index.js';
import { startTestTongate, type TestTongate } from '../../support/tongate.js';
import { freePort } from '../../support/ports.js';
import { FaultProxy } from './fault-proxy.js';
import type { Clock } from '../../../src/util/clock.js';

export const UPSTREAM_KEY = 'upstream-secret-key-0123456789';

export interface Front {
  front: TestTongate;
  /** The fault proxies per network, in failover order. */
  proxies: Record<string, FaultProxy[]>;
  /** The front's upstream network object (breakers, health checks). */
  network(name: string): UpstreamNetwork;
  stop(): Promise<void>;
}

export interface UpstreamPair extends Front {
  upstream: TestTongate;
}

export interface FrontOptions {
  /** Flags of the front tongate (merged over the upstream settings). */
  flags?: Record<string, unknown>;
  /** Proxies (upstream URLs) per network: 2 for failover tests. */
  urlsPerNetwork?: number;
  networks?: string[];
  /** The front's clock (a ManualClock: its limits and deadlines move only when the test moves it). */
  clock?: Clock;
}

export function startUpstream(flags: Record<string, unknown> = {}): Promise<TestTongate> {
  return startTestTongate(flags);
}

export async function startFront(upstream: TestTongate, options: FrontOptions = {}): Promise<Front> {
  const names = options.networks ?? ['mainnet', 'testnet'];
  const proxies: Record<string, FaultProxy[]> = {};
  for (const name of names) {
    proxies[name] = [];
    for (let i = 0; i < (options.urlsPerNetwork ?? 1); i++) proxies[name].push(await FaultProxy.start(upstream.url(name)));
  }
  const flags: Record<string, unknown> = {
    network: await Promise.all(names.map(async (name) => `${name}=http://127.0.0.1:${await freePort()}`)),
    backend: names.map((name) => `${name}=upstream`),
    upstreamV2: names.flatMap((name) => proxies[name].map((p) => `${name}=${p.origin}/api/v2`)),
    upstreamV3: names.flatMap((name) => proxies[name].map((p) => `${name}=${p.origin}/api/v3`)),
    upstreamKey: names.map((name) => `${name}=${UPSTREAM_KEY}`),
    ...options.flags,
  };
  const closeProxies = () =>
    Promise.all(
      Object.values(proxies)
        .flat()
        .map((p) => p.close()),
    );
  let front: TestTongate;
  try {
    front = await startTestTongate(flags, {}, { clock: options.clock });
  } catch (error) {
    await closeProxies();
    throw error;
  }
  return {
    front,
    proxies,
    network: (name) => (front.networks.find((n) => n.name === name) as unknown as { upstream: UpstreamNetwork }).upstream,
    async stop() {
      await front.stop();
      await closeProxies();
    },
  };
}

export async function startPair(options: FrontOptions & { upstreamFlags?: Record<string, unknown> } = {}): Promise<UpstreamPair> {
  const upstream = await startUpstream(options.upstreamFlags);
  let front: Front;
  try {
    front = await startFront(upstream, options);
  } catch (error) {
    await upstream.stop();
    throw error;
  }
  return {
    ...front,
    upstream,
    async stop() {
      await front.stop();
      await upstream.stop();
    },
  };
}
