/**
 * The chain's virtual clock: GET /devnet/time; POST /devnet/time/increase {"seconds"},
 * /devnet/time/set {"utime"} (422 before the last block's gen_utime), /devnet/time/next-block {"utime"} (the
 * next block's gen_utime, exactly). Blocks, `now` in transactions and get-methods, and storage fees follow it.
 * Each answer says how far the chain is ahead of the machine's clock and, when it is, what that does to wallet
 * messages: their valid_until is checked against the chain's time, and clients take it from the machine's.
 */
import type { FastifyInstance } from 'fastify';
import type { ChainTime } from '../chain/devnet-chain.js';
import { devnetRoute, type DevnetOptions } from './guard.js';
import { integer, onlyFields, utime } from './input.js';
import { object, UTIME } from './schemas.js';

/** One step of increase at most: a hundred years (the chain's time stops at 2^32-1 s anyway). */
const MAX_INCREASE_SECONDS = 100 * 365 * 86_400;

export function registerTime(app: FastifyInstance, options: DevnetOptions): void {
  const result = object({
    '@type': { const: 'devnet.time' },
    utime: UTIME,
    last_block_utime: UTIME,
    next_block_utime: { ...UTIME, description: 'present only while pinned by /devnet/time/next-block, until that block opens' },
    ahead_seconds: { type: 'integer', description: "the chain's clock minus this machine's, seconds (what the time controls moved)" },
    wallet_note: { type: 'string', description: 'present when the chain is ahead: what that does to wallet messages' },
  });
  const at = object({ utime: UTIME }, ['utime']);
  devnetRoute(
    app,
    options,
    { method: 'GET', path: '/devnet/time', summary: "The chain's time, the last block's, the next block's if pinned", result },
    (chain) => timeJson(chain.time()),
  );
  const increase = object({ seconds: { type: 'integer', minimum: 0, maximum: MAX_INCREASE_SECONDS } }, ['seconds']);
  devnetRoute(
    app,
    options,
    { method: 'POST', path: '/devnet/time/increase', summary: "Moves the chain's time forward", body: increase, result },
    async (chain, body) => {
      onlyFields(body, ['seconds']);
      return timeJson(await chain.increaseTime(integer(body.seconds, 'seconds', 0, MAX_INCREASE_SECONDS)));
    },
  );
  const setSummary = "Sets the chain's time (422 before the last block's gen_utime); it runs on from there";
  devnetRoute(app, options, { method: 'POST', path: '/devnet/time/set', summary: setSummary, body: at, result }, async (chain, body) => {
    onlyFields(body, ['utime']);
    return timeJson(await chain.setTime(utime(body.utime)));
  });
  const nextSummary = "The next block's gen_utime, exactly (422 before the last block's); the chain's time runs on from there";
  devnetRoute(
    app,
    options,
    { method: 'POST', path: '/devnet/time/next-block', summary: nextSummary, body: at, result },
    async (chain, body) => {
      onlyFields(body, ['utime']);
      return timeJson(await chain.setNextBlockTime(utime(body.utime)));
    },
  );
}

function timeJson(time: ChainTime) {
  return {
    '@type': 'devnet.time',
    utime: time.utime,
    last_block_utime: time.lastBlockUtime,
    ...(time.nextBlockUtime !== undefined ? { next_block_utime: time.nextBlockUtime } : {}),
    ahead_seconds: time.aheadSeconds,
    ...(time.aheadSeconds > 0 ? { wallet_note: walletNote(time.aheadSeconds) } : {}),
  };
}

/**
 * Why a wallet transfer fails after time moved: wallets refuse a message past its valid_until (exit code 36), the
 * chain checks it against its own time, and client libraries (@ton/ton, tonweb) fill it from the machine's clock.
 */
export function walletNote(aheadSeconds: number): string {
  return (
    `the chain's clock is ${aheadSeconds} s ahead of this machine's: a wallet message whose valid_until comes from ` +
    `the machine's clock (@ton/ton's default: now + 60 s) expires ${aheadSeconds} s sooner here, refused with exit ` +
    `code 36 once past it; take valid_until from the chain's time (utime + 60; tongate/devnet: await devnet.validUntil())`
  );
}
