/**
 * A real gateway (createGateway: network routing, error handler, v3 routes) serving one network whose
 * v3 index is given by the test: filled from the sandbox story, or attached to the network's real
 * local chain. Requests go over a real socket.
 */
import assert from 'node:assert/strict';
import pino from 'pino';
import { beginCell, external, SendMode, storeMessage, type MessageRelaxed } from '@ton/core';
import type { KeyPair } from '@ton/crypto';
import type { WalletContractV4 } from '@ton/ton';
import type { TestContext } from 'node:test';
import { createAccessLayer } from '../../../../src/access/index.js';
import { LocalChain } from '../../../../src/chain/local/index.js';
import { accessOptionsFrom } from '../../../../src/cli/access-options.js';
import { loadConfig } from '../../../../src/config/load.js';
import { createGateway } from '../../../../src/gateway/gateway.js';
import { attachIndexToChain, type IndexAttachment } from '../../../../src/index/attach.js';
import type { Index } from '../../../../src/index/open-index.js';
import { ManualClock, systemClock } from '../../../../src/util/clock.js';
import { TEST_MNEMONIC } from '../../../chain/local/support/local-chain.js';
import { freePort } from '../../../support/ports.js';
import { getJson, postJson } from '../../../support/tongate.js';
import { THROUGH_UPSTREAM, frontFor } from '../../../support/through-upstream.js';

type Reply = { status: number; body: any; headers: Headers };

export interface V3Server {
  base: string;
  chain: LocalChain;
  get(pathAndQuery: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  /** Set when the index follows the served chain (serveIndex with `attach`). */
  attachment?: IndexAttachment;
  /**
   * Closes the gateway, detaches the index and stops the chain (the test's end does it too; calling it first
   * is how a test restarts: the index and, with `dataDir`, the chain are then opened again on the same data).
   */
  stop(): Promise<void>;
}

/**
 * `network` decides the friendly-address flags (mainnet: not test-only). `attach`: the index follows the
 * network's own local chain (otherwise it answers from whatever the test wrote into it). `chainOptions.dataDir`:
 * the chain on disk (else in memory), so a test can stop() and serve the same chain again.
 */
export async function serveIndex(
  t: TestContext,
  index: Index | undefined,
  network: 'mainnet' | 'testnet' = 'testnet',
  attach = false,
  chainOptions: { maxBlockTransactions?: number; dnsRoots?: string[]; dataDir?: string } = {},
): Promise<V3Server> {
  const port = await freePort();
  const config = loadConfig({
    flags: {
      ephemeral: true,
      blockInterval: '3600000',
      logLevel: 'silent',
      access: 'off',
      network: [`${network}=http://127.0.0.1:${port}`],
    },
    env: {},
  });
  const resolved = config.networks[0];
  // A clock that stands still: fees that depend on elapsed time (storage) are the same in two calls.
  const { dnsRoots, ...localOptions } = chainOptions;
  const chain = await LocalChain.open({
    network,
    globalId: resolved.globalId,
    faucetMnemonic: TEST_MNEMONIC,
    clock: new ManualClock(),
    ...localOptions,
  });
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
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await gateway.close();
      await access.close();
      await attachment?.detach();
      await chain.stop();
    })());
  t.after(stop);
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
    stop,
    get: (pathAndQuery) => getJson(`${base}${pathAndQuery}`),
    post: (path, body) => postJson(`${base}${path}`, body),
  };
}

/** Produces `blocks` blocks on the served chain and waits until the index holds them. */
export async function sealBlocks(server: V3Server, blocks = 1): Promise<void> {
  for (let i = 0; i < blocks; i++) await server.chain.produceBlock();
  await server.attachment!.synced();
}

/** Seals blocks until the chain has nothing left to deliver (a bounded number: a loop would be a bug). */
export async function sealUntilQuiet(server: V3Server): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await sealBlocks(server);
    const { pendingMessages, openTransactions } = server.chain.stats();
    if (pendingMessages === 0 && openTransactions === 0) return;
  }
  throw new Error('the chain still delivers messages after 20 blocks');
}

/** `boc` sent to `/api/v3/message` and sealed: the actions the index gives its trace, with their accounts. */
export async function sealedActions(server: V3Server, boc: string): Promise<any[]> {
  const sent = await server.post('/api/v3/message', { boc });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  await sealUntilQuiet(server);
  const traces = await server.get(`/api/v3/traces?msg_hash=${encodeURIComponent(sent.body.message_hash)}`);
  const sealed = await server.get(`/api/v3/actions?trace_id=${encodeURIComponent(traces.body.traces[0].trace_id)}&include_accounts=true`);
  assert.equal(sealed.status, 200);
  return sealed.body.actions;
}

/** An action's parts that do not depend on message hashes or lts, as one comparable text. */
export const actionShape = (a: any): string =>
  JSON.stringify({ type: a.type, success: a.success, details: a.details, accounts: [...a.accounts].sort() });

/** A v4 wallet's external message sending `messages` for `seqno` (with its StateInit when `deploy`), as a base64 BoC. */
export function walletRequestBoc(
  owner: { wallet: WalletContractV4; keys: KeyPair },
  seqno: number,
  messages: MessageRelaxed[],
  deploy = false,
): string {
  const body = owner.wallet.createTransfer({ seqno, secretKey: owner.keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
  const message = external({ to: owner.wallet.address, body, init: deploy ? owner.wallet.init : undefined });
  return beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64');
}

/** Sends `messages` from a v4 wallet through POST /api/v3/message (with its StateInit when `deploy`). */
export async function sendFromWallet(
  server: V3Server,
  owner: { wallet: WalletContractV4; keys: KeyPair },
  seqno: number,
  messages: MessageRelaxed[],
  deploy = false,
): Promise<{ message_hash: string; message_hash_norm: string }> {
  const sent = await server.post('/api/v3/message', { boc: walletRequestBoc(owner, seqno, messages, deploy) });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return sent.body;
}
