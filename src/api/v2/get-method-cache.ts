/**
 * Get-method results, kept per (masterchain block, account, method, arguments).
 *
 * Why: a get-method run costs ~1.5 ms in the emulator (its WASM entry point re-reads the whole config on
 * every call), 20x an account read, and the most frequent calls repeat: every "wait for the seqno" poll
 * of TonClient and tonweb runs `seqno` on the same wallet until the next block, and a page showing a token asks
 * `get_wallet_address` with the same owner again and again. toncenter's C++ server keeps such results for a
 * second; here the key is the block itself, which makes reuse exact: a run only reads (a get-method cannot change
 * the account) and is a pure function of the account state as of that block, the block's time and random seed,
 * the config and its arguments, so the same key always has the same result (a local chain's snapshot restore,
 * after which a seqno names another block, empties the cache). Concurrent identical calls share one run.
 *
 * Arguments are keyed by value (numbers) and by cell hash (cells, slices, builders: @ton/core computes a cell's
 * hash when it builds it), a few microseconds against the run's milliseconds; a call whose arguments make a key
 * longer than MAX_KEY_CHARS is run and not kept. Bounded: at most MAX_ENTRIES results and MAX_BYTES of result
 * stacks per chain, the least recently used going first.
 */
import type { Address, TupleItem } from '@ton/core';
import type { Chain, GetMethodResult } from '../../chain/types.js';

/** Per chain; enough for every wallet polling within a few blocks, bounded whatever callers ask. */
const MAX_ENTRIES = 4096;
/** Result stacks kept per chain, at most (their BoC text): a get-method may return large cells (an NFT's content). */
const MAX_BYTES = 16 * 1024 * 1024;
/** A result larger than this is not kept. */
const MAX_RESULT_BYTES = 64 * 1024;
/** What a result whose stack text the chain did not give is counted as. */
const UNKNOWN_RESULT_BYTES = 1024;
/** Arguments whose key is longer than this (many, or deep tuples) are not kept: such calls rarely repeat. */
const MAX_KEY_CHARS = 2048;

interface ChainCache {
  results: Map<string, { result: GetMethodResult; bytes: number }>;
  bytes: number;
  running: Map<string, Promise<GetMethodResult>>;
  /** Restores seen: a run that began before one is not kept (its seqno may name another block now). */
  rewinds: number;
}

const caches = new WeakMap<Chain, ChainCache>();

function cacheOf(chain: Chain): ChainCache {
  let cache = caches.get(chain);
  if (!cache) {
    const created: ChainCache = { results: new Map(), bytes: 0, running: new Map(), rewinds: 0 };
    cache = created;
    caches.set(chain, cache);
    // A snapshot restore drops blocks and their seqnos name other blocks after it: nothing kept is true any more.
    chain.onRewind?.(() => {
      created.results.clear();
      created.bytes = 0;
      created.rewinds++;
    });
  }
  return cache;
}

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
  const args = stackKey(stack);
  if (args === undefined) return chain.runGetMethod(address, method, stack, at);
  const cache = cacheOf(chain);
  const { results, running } = cache;
  const key = `${at}|${address.workChain}:${address.hash.toString('hex')}|${method}|${args}`;
  const kept = results.get(key);
  if (kept) {
    // Refresh its place: the least recently used entry is the one evicted.
    results.delete(key);
    results.set(key, kept);
    return kept.result;
  }
  const inFlight = running.get(key);
  if (inFlight) return inFlight;
  const rewinds = cache.rewinds;
  const run = Promise.resolve(chain.runGetMethod(address, method, stack, at));
  running.set(key, run);
  try {
    const result = await run;
    if (cache.rewinds === rewinds) keep(cache, key, result);
    return result;
  } finally {
    running.delete(key);
  }
}

function keep(cache: ChainCache, key: string, result: GetMethodResult): void {
  const bytes = result.stackBase64?.length ?? UNKNOWN_RESULT_BYTES;
  if (bytes > MAX_RESULT_BYTES) return;
  cache.results.set(key, { result, bytes });
  cache.bytes += bytes;
  while (cache.results.size > MAX_ENTRIES || cache.bytes > MAX_BYTES) {
    const [oldest, entry] = cache.results.entries().next().value!;
    cache.results.delete(oldest);
    cache.bytes -= entry.bytes;
  }
}

/** The arguments as a key: values and cell hashes, bottom first; undefined when longer than MAX_KEY_CHARS. */
export function stackKey(stack: TupleItem[]): string | undefined {
  let key = '';
  const add = (items: TupleItem[]): boolean => {
    for (const item of items) {
      switch (item.type) {
        case 'int':
          key += `i${item.value},`;
          break;
        case 'nan':
        case 'null':
          key += `${item.type},`;
          break;
        case 'cell':
        case 'slice':
        case 'builder':
          key += `${item.type[0]}${item.cell.hash().toString('base64')},`;
          break;
        case 'tuple':
          key += '(';
          if (!add(item.items)) return false;
          key += '),';
          break;
      }
      if (key.length > MAX_KEY_CHARS) return false;
    }
    return true;
  };
  return add(stack) ? key : undefined;
}
