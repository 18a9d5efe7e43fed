/**
 * Liveness and readiness: 200 while the network's chain seals blocks, 503 when it has stopped (`stale`). A local
 * chain says itself how long its auto mining has gone without sealing a block (`msWithoutBlock`, on the injected
 * clock): its head's gen_utime is no measure of that, since a chain that just started (after a slow start-up, or
 * a restart after downtime) or left manual mining has an old head and is not late, and the time controls move the
 * chain's clock; a local chain in manual mining is never stale (it waits to be asked). Any other chain is stale
 * when its newest block is older than `staleAfterMs` (no liteserver reports new blocks). `last_block_age_ms` is the
 * newest block's age either way (a local chain's on its own, virtual, clock). With an index, how many masterchain
 * blocks it is behind: past `INDEX_LAG_DEGRADED` the status is `degraded` (still 200: v2 answers; v3 answers what
 * the index holds). While a part of the network still starts after it is served (its v3 index: NetworkContext.starting),
 * the status is `starting` and names it (200: v2 answers; v3 answers 503 until its index is up). Never rate limited.
 */
import type { FastifyInstance } from 'fastify';
import { isDevnetChain } from '../chain/devnet-chain.js';
import type { Chain } from '../chain/types.js';
import type { Clock } from '../util/clock.js';

export const INDEX_LAG_DEGRADED = 10;

/** How long a chain may go without a block before it is stale: ten block intervals, at least 10 s. */
export function staleAfter(blockIntervalMs: number): number {
  return Math.max(10_000, blockIntervalMs * 10);
}

/** How old a chain's newest masterchain block is: a local chain's on its own (virtual) clock, others on `clock`. */
export function lastBlockAgeMs(chain: Chain, clock: Clock): number {
  const local = isDevnetChain(chain) ? chain : undefined;
  return Math.max(0, (local?.time().nowMs ?? clock.now()) - chain.masterchainInfo().last.genUtime * 1000);
}

export function registerHealth(app: FastifyInstance, { clock, staleAfterMs }: { clock: Clock; staleAfterMs: number }): void {
  const handler = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const chain = request.network.chain;
    const last = chain.masterchainInfo().last;
    const local = isDevnetChain(chain) ? chain : undefined;
    const ageMs = lastBlockAgeMs(chain, clock);
    const mining = local?.miningMode();
    let ready: boolean;
    if (local) {
      const late = local.msWithoutBlock();
      ready = late === undefined || mining?.mode !== 'auto' || late <= staleAfter(mining.intervalMs);
    } else {
      ready = ageMs <= staleAfterMs;
    }
    const lag = request.network.indexLag?.();
    const starting = request.network.starting?.length ? request.network.starting : undefined;
    return reply.code(ready ? 200 : 503).send({
      status: !ready ? 'stale' : starting ? 'starting' : lag !== undefined && lag > INDEX_LAG_DEGRADED ? 'degraded' : 'ok',
      network: request.network.name,
      ...(starting ? { starting } : {}),
      last_seqno: last.id.seqno,
      last_block_age_ms: Math.round(ageMs),
      ...(mining ? { mining: mining.mode } : {}),
      ...(lag !== undefined ? { index_lag_blocks: lag } : {}),
    });
  };
  for (const path of ['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']) app.get(path, handler);
}
