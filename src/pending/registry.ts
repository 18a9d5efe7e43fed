/**
 * One pending layer per chain, made the first time anything asks for it (the streaming room does at start, for
 * every network it serves; the v3 endpoints find the same one). A chain that reports no open block (lite,
 * upstream) has none.
 */
import type { Chain } from '../chain/types.js';
import { PendingTraces } from './pending-traces.js';

const followed = new WeakMap<Chain, PendingTraces | null>();

export function pendingOf(chain: Chain | undefined): PendingTraces | undefined {
  // A network of kind upstream has no chain at all.
  if (!chain) return undefined;
  let traces = followed.get(chain);
  if (traces === undefined) {
    traces = PendingTraces.follow(chain)?.traces ?? null;
    followed.set(chain, traces);
  }
  return traces ?? undefined;
}
