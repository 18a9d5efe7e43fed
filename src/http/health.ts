/**
 * Liveness and readiness: 200 while the network's chain seals blocks, 503 when its newest block is older
 * than `staleAfterMs` (the producer is stuck, or no liteserver reports new blocks). A local chain's block age is
 * measured on its own (virtual) clock, and a local chain in manual mining is never stale (it waits to be asked). With an index, how many
 * masterchain blocks it is behind: past `INDEX_LAG_DEGRADED` the status is `degraded` (still 200: v2 answers;
 * v3 answers what the index holds). Never rate limited.
 */
import type { FastifyInstance } from 'fastify';
import { isDevnetChain, type Chain } from '../chain/types.js';
import type { Clock } from '../util/clock.js';

export const INDEX_LAG_DEGRADED = 10;

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
    const manual = local?.miningMode().mode === 'manual';
    const ready = manual || ageMs <= staleAfterMs;
    const lag = request.network.indexLag?.();
    return reply.code(ready ? 200 : 503).send({
      status: !ready ? 'stale' : lag !== undefined && lag > INDEX_LAG_DEGRADED ? 'degraded' : 'ok',
      network: request.network.name,
      last_seqno: last.id.seqno,
      last_block_age_ms: Math.round(ageMs),
      ...(local ? { mining: local.miningMode().mode } : {}),
      ...(lag !== undefined ? { index_lag_blocks: lag } : {}),
    });
  };
  for (const path of ['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']) app.get(path, handler);
}
