/**
 * What arrives without asking: the block feed (`GET /api/streaming/blocks`, one per tab, shared by every page) and
 * one account's notifications from toncenter's streaming API (`POST /api/streaming/v2/sse`). Both reconnect after a
 * pause when the stream ends or fails (a key given later, a tongate restarted).
 */
import { ApiFailure, streamEvents } from './api';
import { session } from './session';

export interface BlockEvent {
  type: 'connected' | 'block' | 'rewind';
  seqno: number;
  root_hash?: string;
  gen_utime?: number;
  transactions?: number;
}

export type FeedState = { connected: boolean; error?: string };

const RETRY_MS = 2000;

type BlockListener = (event: BlockEvent) => void;
const blockListeners = new Set<BlockListener>();
const stateListeners = new Set<(state: FeedState) => void>();
let feedState: FeedState = { connected: false };
let feed: AbortController | undefined;

function setState(state: FeedState): void {
  feedState = state;
  for (const listener of stateListeners) listener(state);
}

function openFeed(): void {
  const controller = new AbortController();
  feed = controller;
  streamEvents('/api/streaming/blocks', {}, controller.signal, (event, data) => {
    if (event !== 'connected' && event !== 'block' && event !== 'rewind') return;
    if (event === 'connected') setState({ connected: true });
    const parsed = { type: event, ...JSON.parse(data) } as BlockEvent;
    for (const listener of blockListeners) listener(parsed);
  })
    .then(
      () => setState({ connected: false, error: 'the block feed ended' }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ connected: false, error: error instanceof ApiFailure ? `${error.status}: ${error.message}` : String(error) });
      },
    )
    .finally(() => {
      if (!controller.signal.aborted && feed === controller) setTimeout(() => feed === controller && openFeed(), RETRY_MS);
    });
}

// A new key (or token) in the session: the feed starts again with it.
session.onChange(() => {
  if (blockListeners.size === 0) return;
  feed?.abort();
  openFeed();
});

export function onBlocks(listener: BlockListener): () => void {
  blockListeners.add(listener);
  if (!feed) openFeed();
  return () => blockListeners.delete(listener);
}

export function onFeedState(listener: (state: FeedState) => void): () => void {
  stateListeners.add(listener);
  listener(feedState);
  return () => stateListeners.delete(listener);
}

/** Follows one account (transactions and state changes, from `pending` on); calls `onChange` with each notification. */
export function followAccount(address: string, onChange: (notification: any) => void, onError: (message: string) => void): () => void {
  let controller: AbortController | undefined;
  let stopped = false;
  const open = () => {
    controller = new AbortController();
    const body = JSON.stringify({ types: ['transactions', 'account_state_change'], addresses: [address], min_finality: 'pending' });
    streamEvents(
      '/api/streaming/v2/sse',
      { method: 'POST', body, headers: { 'content-type': 'application/json' } },
      controller.signal,
      (event, data) => {
        if (event === 'event') onChange(JSON.parse(data));
      },
    )
      .catch((error: unknown) => {
        if (!stopped) onError(error instanceof ApiFailure ? `${error.status}: ${error.message}` : String(error));
      })
      .finally(() => {
        if (!stopped) setTimeout(() => !stopped && open(), RETRY_MS);
      });
  };
  open();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
