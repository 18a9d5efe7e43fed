/**
 * A tongate with the access layer on, for the real-client tests: an API key made through the admin API
 * (as an operator would), faucet transfers through POST /devnet/fund, and a way to let the chain move on
 * until something a client polls for has happened (blocks are sealed by the test, never waited for).
 */
import type { Address } from '@ton/core';
import type { LocalChain } from '../../../src/chain/local/index.js';
import { postJson, startTestTongate, type TestTongate } from '../../support/tongate.js';

export const ADMIN_TOKEN = 'v2-client-tests-admin-token';

export interface KeyedTongate {
  tongate: TestTongate;
  network: string;
  base: string;
  chain: LocalChain;
  /** The JSON-RPC endpoint clients are given. */
  endpoint: string;
  apiKey: string;
}

export async function startKeyedTongate(network = 'mainnet'): Promise<KeyedTongate> {
  const tongate = await startTestTongate({ access: 'on', adminToken: ADMIN_TOKEN });
  const base = tongate.url(network);
  const created = await postJson(`${base}/admin/keys`, { network, rps: 1000, label: 'v2 client tests' }, { authorization: `Bearer ${ADMIN_TOKEN}` });
  if (created.status !== 201) throw new Error(`creating an API key failed: ${JSON.stringify(created.body)}`);
  return { tongate, network, base, chain: tongate.chain(network), endpoint: `${base}/api/v2/jsonRPC`, apiKey: created.body.result.key };
}

/** A real faucet transfer through the HTTP API; resolves once its block is sealed. */
export async function fundOverHttp(t: KeyedTongate, to: Address, nanotons: bigint): Promise<void> {
  let answered = false;
  const request = postJson(`${t.base}/devnet/fund`, { address: to.toString(), amount: nanotons.toString() }, { authorization: `Bearer ${ADMIN_TOKEN}` }).finally(
    () => (answered = true),
  );
  // The faucet's transfer is executed as soon as the request arrives; the answer comes once a block seals it.
  while (!answered) {
    if (t.chain.stats().openTransactions > 0) await t.chain.produceBlock();
    else await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const funded = await request;
  if (funded.status !== 200) throw new Error(`funding failed: ${JSON.stringify(funded.body)}`);
  await t.chain.produceBlock();
}

/** Seals a block, then asks `done`; again until it holds (at most `blocks` blocks). */
export async function sealUntil<T>(chain: LocalChain, done: () => Promise<T | undefined | null | false>, blocks = 10): Promise<T> {
  for (let i = 0; i < blocks; i++) {
    await chain.produceBlock();
    const value = await done();
    if (value) return value;
  }
  throw new Error(`not done after ${blocks} blocks`);
}
