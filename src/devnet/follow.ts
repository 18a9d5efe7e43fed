/**
 * Waiting for the consequence of a faucet message (a master deployed, a mint arrived): the internal messages a
 * faucet transaction starts may be delivered in later blocks. Looks again after each block: in manual mining it
 * seals one (nobody else would), in auto mining it waits for the timer's.
 */
import { ApiError } from '../http/api-error.js';
import type { DevnetChain } from '../chain/devnet-chain.js';

/** Far more blocks than a mint's three hops need; the answer is an error, not a hang, when something never comes. */
const MAX_BLOCKS = 20;

export async function afterBlocks<T>(chain: DevnetChain, what: string, find: () => Promise<T | undefined>): Promise<T> {
  for (let blocks = 0; ; blocks++) {
    const found = await find();
    if (found !== undefined) return found;
    if (blocks === MAX_BLOCKS) throw new ApiError(504, `${what}: not in the ${MAX_BLOCKS} blocks after the faucet's transaction`);
    const mining = chain.miningMode();
    if (mining.mode === 'manual') await chain.mine();
    else await nextBlock(chain, mining.intervalMs * 2 + 1000);
  }
}

/** The next sealed block, or the timeout (the mode may have switched to manual meanwhile: the caller looks again). */
function nextBlock(chain: DevnetChain, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const off = chain.onBlock(done);
  });
}
