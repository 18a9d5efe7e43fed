/**
 * Two real tongates in this process: `upstream` serves local chains (mainnet, testnet); `front` serves
 * the same networks as kind upstream, forwarding through a FaultProxy per network (so tests can record
 * and break the link). Both listen on free ports; blocks are sealed by the tests.
 */
import { startTestTongate, type TestTongate } from '../../support/tongate.js';
import { freePort } from '../../support/ports.js';
import { FaultProxy } from './fault-proxy.js';

export const UPSTREAM_KEY = 'upstream-secret-key-0123456789';

export interface UpstreamPair {
  upstream: TestTongate;
  front: TestTongate;
  /** The fault proxies per network, in failover order. */
  proxies: Record<string, FaultProxy[]>;
  stop(): Promise<void>;
}

export interface PairOptions {
  /** Flags of the front tongate (merged over the upstream settings). */
  front?: Record<string, unknown>;
  /** Flags of the upstream tongate. */
  upstream?: Record<string, unknown>;
  /** Proxies (upstream URLs) per network: 2 for failover tests. */
  urlsPerNetwork?: number;
  networks?: string[];
}

export async function startPair(options: PairOptions = {}): Promise<UpstreamPair> {
  const names = options.networks ?? ['mainnet', 'testnet'];
  const upstream = await startTestTongate({ ...options.upstream });
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
    ...options.front,
  };
  let front: TestTongate;
  try {
    front = await startTestTongate(flags);
  } catch (error) {
    await upstream.stop();
    throw error;
  }
  return {
    upstream,
    front,
    proxies,
    async stop() {
      await front.stop();
      await Promise.all(Object.values(proxies).flat().map((p) => p.close()));
      await upstream.stop();
    },
  };
}
