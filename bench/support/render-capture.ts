/**
 * Real followed transactions for bench:render: wallet v4 transfers run through a local chain, each transaction
 * taken from the open block as the pending layer takes it (`Chain.onOpenTransaction`), with what a render request
 * carries (its BoC, workchain, trace id, the chain's hashes) and the external message's BoC as it was sent.
 * `perWallet` 8 deploys 1 wallet in 8 transfers (each wallet's first), as bench:stream's 500 wallets x 8 do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toNano } from '@ton/core';
import { LocalChain } from '../../src/chain/local/index.js';
import { messageRefHashes } from '../../src/pending/render.js';
import { prepare } from './signed-transfers.js';

export interface CapturedTransaction {
  /** The transaction's BoC, base64. */
  boc: string;
  workchain: number;
  traceId: string;
  hashes: { transaction: string; inMessage: string | null; outMessages: string[] };
  /** The hashes of its messages' references as the chain hands them over (render.ts's messageRefHashes), base64. */
  messageRefs?: string;
  /** The external message's BoC as it was sent (base64), for a trace's root. */
  external?: string;
}

const MNEMONIC =
  'region sniff brass cake cave thank still hero chronic father maze leader eagle need surface orchard earn excite gravity forest seed auto polar hurt'.split(
    ' ',
  );

export async function captureTransfers(walletCount: number, perWallet: number, seedBase = 260_000): Promise<CapturedTransaction[]> {
  const { wallets, transfers } = await prepare(walletCount, perWallet, seedBase);
  const dataDir = mkdtempSync(join(tmpdir(), 'tongate-bench-render-'));
  try {
    const chain = await LocalChain.open({ network: 'testnet', globalId: -3, dataDir, faucetMnemonic: MNEMONIC, blockIntervalMs: 1000 });
    const funds = wallets.map((w) => chain.fund(w.contract.address, toNano(1000)));
    await chain.produceBlock();
    await Promise.all(funds);
    const sent = new Map<string, string>();
    const traceOf = new Map<string, string>();
    const captured: CapturedTransaction[] = [];
    chain.onOpenTransaction((tx) => {
      if (!tx.inMsg) return;
      const inHash = tx.inMsg.hash.toString('base64');
      const root = tx.inMsg.message.info.type === 'external-in';
      const traceId = root ? tx.hash.toString('base64') : traceOf.get(inHash);
      if (traceId === undefined) return;
      const outMessages = tx.outMsgs.map((m) => m.hash.toString('base64'));
      for (const out of outMessages) traceOf.set(out, traceId);
      const refs = messageRefHashes(tx);
      captured.push({
        boc: (tx.boc ?? tx.cell.toBoc()).toString('base64'),
        workchain: tx.account.workChain,
        traceId,
        hashes: { transaction: tx.hash.toString('base64'), inMessage: inHash, outMessages },
        ...(root ? { external: inHash } : {}),
        ...(refs ? { messageRefs: Buffer.from(refs).toString('base64') } : {}),
      });
    });
    chain.start();
    for (const t of transfers) {
      const { hash } = await chain.sendExternal(t.boc);
      sent.set(hash.toString('base64'), t.boc.toString('base64'));
    }
    while (chain.stats().pendingMessages > 0 || chain.stats().openTransactions > 0) await chain.produceBlock();
    await chain.stop();
    for (const c of captured) if (c.external !== undefined) c.external = sent.get(c.external);
    return captured;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
