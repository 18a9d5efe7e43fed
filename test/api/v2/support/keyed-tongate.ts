/**
 * A tongate with the access layer on, for the real-client tests: an API key made through the admin API
 * (as an operator would), faucet transfers through POST /devnet/fund, and a way to let the chain move on
 * until something a client polls for has happened (blocks are sealed by the test, never waited for).
 *
 * With TONGATE_TEST_THROUGH_UPSTREAM=1 (test/upstream/*-through-upstream.test.ts) the same client suites run
 * through a tongate in upstream mode: the clients talk to a front tongate (access on, their key made
 * there) that forwards to a tongate with local chains (access on too, with its own key, the front's
 * upstream key); the chain and the faucet are the upstream's.
 */
import type { Address } from '@ton/core';
import type { LocalChain } from '../../../../src/chain/local/index.js';
import { postJson, startTestTongate, type TestTongate } from '../../../support/tongate.js';
import { THROUGH_UPSTREAM, frontFor } from '../../../support/through-upstream.js';

export const ADMIN_TOKEN = 'v2-client-tests-admin-token';

export interface KeyedTongate {
  tongate: TestTongate;
  network: string;
  base: string;
  chain: LocalChain;
  /** Where POST /devnet/fund is served (the chain's own tongate). */
  fundBase: string;
  /** The JSON-RPC endpoint clients are given. */
  endpoint: string;
  apiKey: string;
}

export async function startKeyedTongate(network = 'mainnet'): Promise<KeyedTongate> {
  if (THROUGH_UPSTREAM) return startThroughUpstream(network);
  const tongate = await startTestTongate({ access: 'on', adminToken: ADMIN_TOKEN });
  const base = tongate.url(network);
  const apiKey = await createKey(base, network);
  return { tongate, network, base, fundBase: base, chain: tongate.chain(network), endpoint: `${base}/api/v2/jsonRPC`, apiKey };
}

async function createKey(base: string, network: string): Promise<string> {
  const created = await postJson(
    `${base}/admin/keys`,
    { network, rps: 1000, label: 'v2 client tests' },
    { authorization: `Bearer ${ADMIN_TOKEN}` },
  );
  if (created.status !== 201) throw new Error(`creating an API key failed: ${JSON.stringify(created.body)}`);
  return created.body.result.key;
}

async function startThroughUpstream(network: string): Promise<KeyedTongate> {
  const upstream = await startTestTongate({ access: 'on', adminToken: ADMIN_TOKEN });
  const upstreamKey = await createKey(upstream.url(network), network);
  const front = await frontFor(
    { mainnet: upstream.url('mainnet'), testnet: upstream.url('testnet') },
    { access: 'on', adminToken: ADMIN_TOKEN, upstreamKey: [`${network}=${upstreamKey}`] },
  );
  const base = front.url(network);
  const apiKey = await createKey(base, network);
  const both = {
    ...front,
    stop: async () => {
      await front.stop();
      await upstream.stop();
    },
  };
  return {
    tongate: both,
    network,
    base,
    fundBase: upstream.url(network),
    chain: upstream.chain(network),
    endpoint: `${base}/api/v2/jsonRPC`,
    apiKey,
  };
}

/** A real faucet transfer through the HTTP API; resolves once its block is sealed. */
export async function fundOverHttp(t: KeyedTongate, to: Address, nanotons: bigint): Promise<void> {
  let answered = false;
  const request = postJson(
    `${t.fundBase}/devnet/fund`,
    { address: to.toString(), amount: nanotons.toString() },
    { authorization: `Bearer ${ADMIN_TOKEN}` },
  ).finally(() => (answered = true));
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
