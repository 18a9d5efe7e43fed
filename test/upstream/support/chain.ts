/** Moving the upstream's local chain on from a test: a faucet transfer sealed into a block. */
import type { Address } from '@ton/core';
import type { LocalChain } from '../../../src/chain/local/index.js';

export async function fundAndSeal(
  chain: LocalChain,
  to: Address,
  nanotons: bigint,
): Promise<{ txHash: Buffer; lt: bigint; seqno: number }> {
  let done = false;
  const funded = chain.fund(to, nanotons).finally(() => (done = true));
  while (!done) {
    if (chain.stats().openTransactions > 0) await chain.produceBlock();
    else await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const result = await funded;
  await chain.produceBlock();
  return result;
}
