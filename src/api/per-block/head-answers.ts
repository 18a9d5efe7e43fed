/**
 * The two heads an answer can change with, and its JSON text kept until the next one:
 *  - `atChainHead`: what the chain says of its newest block (v2: the masterchain info, accounts as of the head).
 *    The head is the chain's `masterchainInfo().last` object, which a chain replaces at each new block;
 *  - `atIndexedHead`: what the v3 index says of the newest block it holds (the masterchain range, the latest
 *    states of accounts). Kept per chain head and per indexed seqno, so an index catching up, or a chain restored to
 *    an earlier snapshot, is never answered from before. A network without `indexedSeqno` builds every time.
 * The text is what fastify would have sent for the value (JSON.stringify: v2 and v3 routes have no response
 * serializer), so GET, POST and JSON-RPC send the same bytes for the result.
 */
import type { NetworkContext } from '../../http/network-context.js';
import { JsonText } from '../json-text.js';
import { BlockMemo } from './block-memo.js';

/**
 * Text kept per network and block, at most: v3 pages and account states are larger than v2's small answers, so
 * the memo is bounded by size too (an answer past it is built and sent, not kept).
 */
const MAX_KEPT_CHARS = 16 * 1024 * 1024;

const memo = new BlockMemo<JsonText>(4096, (answer) => answer.text.length, MAX_KEPT_CHARS);

function kept(network: NetworkContext, key: string, build: () => unknown): JsonText | Promise<JsonText> {
  return memo.get(network.chain, network.chain.masterchainInfo().last, key, () => {
    const value = build();
    return value instanceof Promise ? value.then(asJsonText) : asJsonText(value);
  });
}

function asJsonText(value: unknown): JsonText {
  return value instanceof JsonText ? value : new JsonText(JSON.stringify(value));
}

/** `build`'s answer as of the chain's head block, built once per head and `key` (say, the method and its address). */
export function atChainHead(network: NetworkContext, key: string, build: () => unknown): JsonText | Promise<JsonText> {
  return kept(network, key, build);
}

/** `build`'s answer as of the index's newest block, built once per indexed block and `key`. */
export function atIndexedHead(network: NetworkContext, key: string, build: () => Promise<unknown>): Promise<JsonText | unknown> {
  if (network.indexedSeqno === undefined) return build();
  return Promise.resolve(kept(network, `${network.indexedSeqno()}\n${key}`, build));
}
