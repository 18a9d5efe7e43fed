/**
 * The pending layer of a lite network. A liteserver relays an external message without executing it, so what it
 * accepted from this process (Chain.onSentExternal) is emulated here on acceptance, its whole trace, on the proven
 * states at the head (Chain.emulateTrace, the Emulate API's machinery), and fed to the same PendingTraces a local
 * chain feeds with its open block's transactions: /pendingTransactions, /pendingTraces and every listener
 * (src/stream's `pending` notifications) see a lite network's pending traces as they see a local one's.
 *
 *  - gone: at each new masterchain head, once the index holds that block (NetworkContext.indexed), the live
 *    traces' external messages are looked up in the index: one found is sealed (`landed`), and from then on
 *    /api/v3/traces answers for it;
 *  - invalidated: a message not sealed within `ttlMs` (60 s) of its acceptance on this process's clock (checked at
 *    each head) never landed: the network dropped it (a seqno another message took, an expired valid_until).
 *  - a message the emulation refuses or cannot run (a contract that needs a library, the emulator down) is not
 *    followed: sent, but not pending here.
 */
import type { Chain } from '../chain/types.js';
import type { NetworkContext } from '../http/network-context.js';
import type { Clock } from '../util/clock.js';
import { PendingTraces } from './pending-traces.js';

/** How long an accepted message may take to be sealed before its pending trace is invalidated. */
export const LITE_PENDING_TTL_MS = 60_000;

export interface LitePendingOptions {
  clock: Clock;
  ttlMs?: number;
  /** Where a message the emulation could not follow is told (the gateway's logger). */
  warn?: (error: unknown, message: string) => void;
}

export interface LitePending {
  traces: PendingTraces;
  /** Resolves once the message `hash` (base64) sent before it was asked is followed or given up (tests). */
  settled(hash: string): Promise<void>;
  stop(): void;
}

/** Follows a lite network's sent messages; undefined for a chain that reports none (local, upstream). */
export function followLitePending(
  network: Pick<NetworkContext, 'chain' | 'index' | 'indexed'>,
  options: LitePendingOptions,
): LitePending | undefined {
  const chain: Chain | undefined = network.chain;
  if (!chain?.onSentExternal || !chain.onHead) return undefined;
  const ttlMs = options.ttlMs ?? LITE_PENDING_TTL_MS;
  const traces = new PendingTraces(chain.masterchainInfo().last.id.seqno);
  /** external message hash (base64) -> when its trace is given up (ms of options.clock). */
  const deadlines = new Map<string, number>();
  const emulations = new Map<string, Promise<void>>();

  const offSent = chain.onSentExternal((boc, sent) => {
    const hash = sent.hash.toString('base64');
    const acceptedAt = options.clock.now();
    const emulation = chain
      .emulateTrace(boc)
      .then((trace) => {
        for (const tx of trace.transactions) traces.executed(tx);
        deadlines.set(hash, acceptedAt + ttlMs);
      })
      .catch((error: unknown) => options.warn?.(error, 'a sent message could not be emulated: it is not followed as pending'))
      .finally(() => emulations.delete(hash));
    emulations.set(hash, emulation);
  });

  let checking = false;
  const offHead = chain.onHead(async (seqno) => {
    if (deadlines.size === 0 || checking) return;
    checking = true;
    try {
      await network.indexed?.(seqno);
      const live = [...deadlines.keys()];
      const found = network.index ? await network.index.messagesByHash(live.map((h) => Buffer.from(h, 'base64'))) : [];
      for (const message of found) {
        const hash = message.hash.toString('base64');
        if (!deadlines.delete(hash)) continue;
        traces.landedExternal(hash, seqno);
      }
      const now = options.clock.now();
      for (const [hash, deadline] of deadlines) {
        if (deadline > now) continue;
        deadlines.delete(hash);
        const trace = traces.ofExternal(hash);
        if (trace) traces.invalidate(trace);
      }
    } catch (error) {
      // The index could not answer this time: the next head asks again.
      options.warn?.(error, 'the pending layer could not read the index');
    } finally {
      checking = false;
    }
  });

  return {
    traces,
    settled: async (hash) => emulations.get(hash),
    stop: () => {
      offSent();
      offHead();
    },
  };
}
