/**
 * Mining: POST /devnet/mine {"blocks"} seals blocks now (the first with everything pending) and answers the last
 * seqno; GET/POST /devnet/mining reads or switches the mode: {"mode":"auto","interval_ms"} (a block every
 * interval, empty or not) or {"mode":"manual"} (blocks only when asked).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/api-error.js';
import type { MiningMode } from '../chain/devnet-chain.js';
import type { Block } from '../chain/types.js';
import { devnetRoute, type DevnetOptions } from './guard.js';
import { integer, oneOf, onlyFields } from './input.js';
import { object, UTIME } from './schemas.js';

/** One request mines at most this many blocks (~1 ms each when empty): a typo of 10^9 must not hold the chain. */
export const MAX_BLOCKS_PER_MINE = 10_000;
/** The interval of auto mining: from 10 ms (as --block-interval) to an hour. */
const MIN_INTERVAL_MS = 10;
const MAX_INTERVAL_MS = 3_600_000;

export function registerMining(app: FastifyInstance, options: DevnetOptions): void {
  const mineOperation = {
    method: 'POST' as const,
    path: '/devnet/mine',
    summary: 'Seals `blocks` blocks now (the first with everything pending); answers the last seqno',
    body: object({ blocks: { type: 'integer', minimum: 1, maximum: MAX_BLOCKS_PER_MINE, default: 1 } }),
    result: object({ '@type': { const: 'devnet.mined' }, blocks: { type: 'integer' }, seqno: { type: 'integer' }, gen_utime: UTIME }),
  };
  devnetRoute(app, options, mineOperation, async (chain, body) => {
    onlyFields(body, ['blocks']);
    const blocks = integer(body.blocks, 'blocks', 1, MAX_BLOCKS_PER_MINE, 1);
    return mined(await chain.mine(blocks), blocks);
  });
  const result = object({ '@type': { const: 'devnet.mining' }, mode: { enum: ['auto', 'manual'] }, interval_ms: { type: 'integer' } });
  devnetRoute(app, options, { method: 'GET', path: '/devnet/mining', summary: 'The mining mode', result }, (chain) =>
    miningJson(chain.miningMode()),
  );
  const body = object(
    { mode: { enum: ['auto', 'manual'] }, interval_ms: { type: 'integer', minimum: MIN_INTERVAL_MS, maximum: MAX_INTERVAL_MS } },
    ['mode'],
  );
  const summary =
    'Switches mining: auto (a block every interval_ms, empty or not; default: the last interval) or manual (blocks only when asked)';
  devnetRoute(app, options, { method: 'POST', path: '/devnet/mining', summary, body, result }, (chain, body) => {
    onlyFields(body, ['mode', 'interval_ms']);
    const mode = oneOf(body.mode, 'mode', ['auto', 'manual'] as const);
    if (mode === 'manual' && body.interval_ms !== undefined) throw new ApiError(422, 'interval_ms: only with "mode":"auto"');
    return miningJson(
      chain.setMiningMode(
        mode === 'auto' && body.interval_ms !== undefined
          ? { mode, intervalMs: integer(body.interval_ms, 'interval_ms', MIN_INTERVAL_MS, MAX_INTERVAL_MS) }
          : { mode },
      ),
    );
  });
}

function mined(block: Block, blocks: number) {
  return { '@type': 'devnet.mined', blocks, seqno: block.id.seqno, gen_utime: block.genUtime };
}

function miningJson(mode: MiningMode) {
  return { '@type': 'devnet.mining', mode: mode.mode, ...(mode.mode === 'auto' ? { interval_ms: mode.intervalMs } : {}) };
}
