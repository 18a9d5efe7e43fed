/**
 * Runs a suite written against a tongate with local chains through a tongate in upstream mode instead:
 * with TONGATE_TEST_THROUGH_UPSTREAM=1 (set by test/upstream/*-through-upstream.test.ts), `frontFor`
 * starts a front tongate whose networks are of kind upstream, forwarding to the given base URLs, and the
 * suite talks to the front. Its cache of per-block reads is off: the suites seal blocks by hand, faster
 * than any block interval.
 */
import { startTestTongate, type TestTongate } from './tongate.js';

export const THROUGH_UPSTREAM = process.env.TONGATE_TEST_THROUGH_UPSTREAM === '1';

/** A front for `bases` (network name -> the upstream tongate's base URL). */
export function frontFor(bases: Record<string, string>, flags: Record<string, unknown> = {}): Promise<TestTongate> {
  const names = Object.keys(bases);
  return startTestTongate({
    backend: names.map((name) => `${name}=upstream`),
    upstreamV2: names.map((name) => `${name}=${bases[name]}/api/v2`),
    upstreamV3: names.map((name) => `${name}=${bases[name]}/api/v3`),
    upstreamCache: names.map((name) => `${name}=0`),
    ...flags,
  });
}
