/**
 * Runs a suite written against a tongate with local chains through a tongate in upstream mode instead:
 * with TONGATE_TEST_THROUGH_UPSTREAM=1 (set by test/upstream/*-through-upstream.test.ts), `frontFor`
 * starts a front tongate whose networks are of kind upstream, forwarding to the given base URLs, and the
 * suite talks to the front. Its cache of per-block reads is off: the suites seal blocks by hand, faster
 * than any block interval.
 */
import type { Clock } from '../../src/util/clock.js';
import { startTestTongate, type TestTongate } from './tongate.js';

export const THROUGH_UPSTREAM = process.env.TONGATE_TEST_THROUGH_UPSTREAM === '1';

/** A front for `bases` (network name -> the upstream tongate's base URL). */
export function frontFor(
  bases: Record<string, string>,
  flags: Record<string, unknown> = {},
  deps: { clock?: Clock } = {},
): Promise<TestTongate> {
  const names = Object.keys(bases);
  const upstreamFlags = {
    backend: names.map((name) => `${name}=upstream`),
    upstreamV2: names.map((name) => `${name}=${bases[name]}/api/v2`),
    upstreamV3: names.map((name) => `${name}=${bases[name]}/api/v3`),
    upstreamCache: names.map((name) => `${name}=0`),
  };
  return startTestTongate({ ...upstreamFlags, ...flags }, {}, deps);
}

/**
 * startTestTongate, or, through upstream, a front with those flags (and clock) before a tongate with local
 * chains (mainnet, testnet; access off): what the suite reaches is the front; stop() stops both.
 */
export async function startTongateUnderTest(flags: Record<string, unknown> = {}, deps: { clock?: Clock } = {}): Promise<TestTongate> {
  if (!THROUGH_UPSTREAM) return startTestTongate(flags, {}, deps);
  const upstream = await startTestTongate();
  const front = await frontFor({ mainnet: upstream.url('mainnet'), testnet: upstream.url('testnet') }, flags, deps);
  const stop = async () => {
    await front.stop();
    await upstream.stop();
  };
  return { ...front, stop };
}
