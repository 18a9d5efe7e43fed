/**
 * A real gateway (createGateway: network routing, error handler, v3 routes) serving one network whose
 * v3 index is given by the test: filled from the sandbox story, or attached to the network's real
 * local chain. Requests go over a real socket.
 */
import pino from 'pino';
import type { TestContext } from 'node:test';
import { createAccessLayer } from '../../../src/access/index.js';
import { LocalChain } from '../../../src/chain/local/index.js';
import { accessOptionsFrom } from '../../../src/cli/access-options.js';
import { loadConfig } from '../../../src/config/load.js';
import { createGateway } from '../../../src/http/server.js';
import { attachIndexToChain, type IndexAttachment } from '../../../src/index/attach.js';
import type { Index } from '../../../src/index/open-index.js';
import { ManualClock, systemClock } from '../../../src/util/clock.js';
import { TEST_MNEMONIC } from '../../chain/support.js';
import { freePort } from '../../support/ports.js';
import { getJson, postJson } from '../../support/tongate.js';
import { THROUGH_UPSTREAM, frontFor } from '../../support/through-upstream.js';

type Reply = { status: number; body: any; headers: Headers };

export interface V3Server {
  base: string;
  chain: LocalChain;
  get(pathAndQuery: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  /** Set when the index follows the served chain (serveIndex with `attach`). */
  attachment?: IndexAttachment;
}

/**
 * `network` decides the friendly-address flags (mainnet: not test-only). `attach`: the index follows the
 * network's own local chain (otherwise it answers from whatever the test wrote into it).
 */
export async function serveIndex(
  t: TestContext,
  index: Index | undefined,
  network: 'mainnet' | 'testnet' = 'testnet',
  attach = false,
  chainOptions: { maxBlockTransactions?: number; dnsRoots?: string[] } = {},
): Promise<V3Server> {
  const port = await freePort();
  const config = loadConfig({
    flags: { ephemeral: true, blockInterval: '3600000', logLevel: 'silent', access: 'off', network: [`${network}=http://127.0.0.1:${port}`] },
    env: {},
  });
  const resolved = config.networks[0];
  // A clock that stands still: fees that depend on elapsed time (storage) are the same in two calls.
  const { dnsRoots, ...localOptions } = chainOptions;
  const chain = await LocalChain.open({ network, globalId: resolved.globalId, faucetMnemonic: TEST_MNEMONIC, clock: new ManualClock(), ...localOptions });
  const attachment = attach && index ? await attachIndexToChain(index, chain, { dnsRoots }) : undefined;
  const logger = pino({ level: 'silent' });
  const access = await createAccessLayer(accessOptionsFrom(config), { logger });
  const gateway = createGateway({
    config,
    networks: [{ ...resolved, testOnly: network !== 'mainnet', chain, ...(index ? { index: index.reader } : {}) }],
    clock: systemClock,
    logger,
    access,
  });
  await gateway.listen();
  t.after(async () => {
    await gateway.close();
    await access.close();
    await attachment?.detach();
    await chain.stop();
  });
  let base = `http://127.0.0.1:${port}`;
  if (THROUGH_UPSTREAM) {
    // The same requests through a tongate in upstream mode (test/support/through-upstream.ts).
    const front = await frontFor({ [network]: base });
    t.after(() => front.stop());
    base = front.url(network);
  }
  return {
    base,
    chain,
    attachment,
    get: (pathAndQuery) => getJson(`${base}${pathAndQuery}`),
    post: (path, body) => postJson(`${base}${path}`, body),
  };
}
