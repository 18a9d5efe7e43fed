/**
 * Fixtures of the contract tests: a tongate whose local chain mines when asked, wallets v4 funded by its faucet
 * that send through @ton/ton's TonClient as a dApp would (each send mined at once: one mine() delivers the whole
 * cascade of internal messages), tonweb on the same endpoint, and readers of what the transactions carried.
 */
import { Address, beginCell, internal, toNano, type Cell, type StateInit, type Transaction } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { startManualTongate, type ManualTongate } from '../../devnet/support/manual-tongate.js';

const TonWeb = ((await import('tonweb')) as any).default;

export interface Actor {
  address: Address;
  /** Sends one internal message (bounceable) from this wallet and mines the block that settles it. */
  send(to: Address, value: bigint, body?: Cell, init?: StateInit): Promise<void>;
}

export interface ContractsChain extends ManualTongate {
  tonweb: any;
  actor(seed: number, funds?: bigint): Promise<Actor>;
}

/** `flags`: more tongate options (e.g. `dnsRoot`). */
export async function startContractsChain(
  t: { after(fn: () => unknown): void },
  flags: Record<string, unknown> = {},
): Promise<ContractsChain> {
  const env = await startManualTongate(t, flags);
  const tonweb = new TonWeb(new TonWeb.HttpProvider(`${env.url}/api/v2/jsonRPC`));
  return {
    ...env,
    tonweb,
    async actor(seed, funds = toNano(100)) {
      const { wallet, keys } = testWallet(seed);
      await env.devnet.fund(wallet.address, funds);
      const opened = env.client.open(wallet);
      return {
        address: wallet.address,
        async send(to, value, body, init) {
          const seqno = await opened.getSeqno();
          await opened.sendTransfer({ seqno, secretKey: keys.secretKey, messages: [internal({ to, value, body, init, bounce: true })] });
          await env.devnet.mine();
        },
      };
    },
  };
}

/** The latest transactions of an account, newest first. */
export const transactionsOf = (client: TonClient, address: Address, limit = 10): Promise<Transaction[]> =>
  client.getTransactions(address, { limit });

/** The op (first 32 bits) of a transaction's inbound body, or null. */
export function inboundOp(tx: Transaction): number | null {
  const body = tx.inMessage?.body.beginParse();
  return body && body.remainingBits >= 32 ? body.loadUint(32) : null;
}

/** The compute phase's exit code and whether the transaction was aborted. */
export function outcome(tx: Transaction): { aborted: boolean; exitCode: number | null; bounced: boolean } {
  const d = tx.description;
  if (d.type !== 'generic') throw new Error(`not a generic transaction: ${d.type}`);
  return {
    aborted: d.aborted,
    exitCode: d.computePhase.type === 'vm' ? d.computePhase.exitCode : null,
    bounced: tx.inMessage?.info.type === 'internal' && tx.inMessage.info.bounced,
  };
}

/** Code that refuses every message (THROW 50, 0xF232): a contract "that fails". */
export const REFUSING_EXIT_CODE = 50;
export const REFUSING_CODE = beginCell()
  .storeUint(0xf200 | REFUSING_EXIT_CODE, 16)
  .endCell();

/** Reads an address from a tonweb Address. */
export const fromTonweb = (a: { toString(userFriendly?: boolean): string } | null): Address | null =>
  a ? Address.parse(a.toString(false)) : null;
