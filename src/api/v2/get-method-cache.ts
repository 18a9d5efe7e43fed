/**
 * Get-method results, kept per (masterchain block, account, method) for argument-less calls.
 *
 * Why: a get-method run costs ~1.5 ms in the emulator (its WASM entry point re-reads the whole config on
 * every call), 20x an account read, and the most frequent calls repeat: every "wait for the seqno" poll
 * of TonClient and tonweb runs `seqno` on the same wallet until the next block. toncenter's C++ server
 * keeps such results for a second; here the key is the block itself, which makes reuse exact: a run is a
 * pure function of the account state as of that block, the block's time and random seed, and the
 * config, so the same key always has the same result (a local chain's snapshot restore, after which a seqno
 * names another block, empties the cache). Calls with arguments are not kept (they rarely
 * repeat, and keying on arguments would cost as much as it saves).
 */
import type { Address, TupleItem } from '@ton/core';
import type { Chain, GetMethodResult } from '../../chain/types.js';

/** Per chain; enough for every wallet polling within a few blocks, bounded whatever callers ask. */
const MAX_ENTRIES = 4096;

interface ChainCache {
  results: Map<string, GetMethodResult>;
  /** Restores seen: a run that began before one is not kept (its seqno may name another block now). */
  rewinds: number;
}

const caches = new WeakMap<Chain, ChainCache>();

/** Runs a get-method as of masterchain block `seqno` (default: the last one), reusing an earlier identical run. */
export async function runGetMethodAt(
  chain: Chain,
  address: Address,
  method: string | number,
  stack: TupleItem[],
  seqno?: number,
): Promise<GetMethodResult> {
  // Pin the block first, so the result and its key name the same block even if another is sealed meanwhile.
  const at = seqno ?? chain.masterchainInfo().last.id.seqno;
  if (stack.length > 0) return chain.runGetMethod(address, method, stack, at);
  let cache = caches.get(chain);
  if (!cache) {
    const created: ChainCache = { results: new Map(), rewinds: 0 };
    cache = created;
    caches.set(chain, cache);
    // A snapshot restore drops blocks and their seqnos name other blocks after it: nothing kept is true any more.
    chain.onRewind?.(() => {
      created.results.clear();
      created.rewinds++;
    });
  }
  const { results } = cache;
  const key = `${at}|${address.workChain}:${address.hash.toString('hex')}|${method}`;
  const kept = results.get(key);
  if (kept) {
    // Refresh its place: the least recently used entry is the one evicted.
    results.delete(key);
    results.set(key, kept);
    return kept;
  }
  const rewinds = cache.rewinds;
  const result = await chain.runGetMethod(address, method, stack, at);
  if (cache.rewinds !== rewinds) return result;
  results.set(key, result);
  if (results.size > MAX_ENTRIES) results.delete(results.keys().next().value!);
  return result;
}
