/**
 * A test wallet's transfer as a dapp makes it, then the blocks that land it: the token, DEX, election and multisig
 * tests drive tongate's own contracts this way, one message at a time, and read what the index made of each.
 */
import { internal, SendMode, type Address, type Cell, type StateInit } from '@ton/core';
import type { KeyPair } from '@ton/crypto';
import { TonClient, type WalletContractV4 } from '@ton/ton';
import { sealBlocks, type V3Server } from './server.js';

/** A wallet v4 and its keys (test/chain/local/support/local-chain.ts: `testWallet`). */
export interface TestWallet {
  wallet: WalletContractV4;
  keys: KeyPair;
}

/**
 * One internal message from `from` to `to` carrying `value`, with `body`; with `init`, a deploy of `to` (sent
 * non-bounceable, so the value stays at the new address; any other message is bounceable). Resolves once the blocks
 * that land it are sealed and indexed.
 */
export type TransferAndSeal = (from: TestWallet, to: Address, value: bigint, body?: Cell, init?: StateInit) => Promise<void>;

/**
 * Transfers from test wallets on `server`'s chain: each asks the wallet's seqno and sends the signed transfer
 * through @ton/ton's TonClient over the server's own v2 JSON-RPC (the wallet deploys itself on its first one; it pays
 * the fees apart from `value`), then seals `blocks` blocks and waits until the index holds them: enough for the
 * message's whole cascade (a deploy, a jetton transfer's notifications, a sale's payouts) to land.
 */
export function transferAndSeal(server: V3Server, blocks = 6): TransferAndSeal {
  const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
  return async (from, to, value, body, init) => {
    const wallet = client.open(from.wallet);
    await wallet.sendTransfer({
      seqno: await wallet.getSeqno(),
      secretKey: from.keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to, value, body, init, bounce: !init })],
    });
    await sealBlocks(server, blocks);
  };
}
