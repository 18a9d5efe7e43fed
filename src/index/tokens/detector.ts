/**
 * Token detection in the store thread, right before a group of blocks is committed (after its traces
 * are linked, so every transaction's trace_id is final). For each candidate account of each block
 * (block-tokens.ts: its code has the get-method) it runs, at that block's masterchain seqno:
 *   jetton master  get_jetton_data -> (int total_supply, int mintable, slice admin, cell content, cell wallet_code);
 *                  content must be TEP-64
 *   jetton wallet  get_wallet_data -> (int balance, slice owner, slice jetton, cell wallet_code), then the
 *                  master's get_wallet_address(slice owner) -> (slice address) must be this wallet
 * as ton-indexer's detectors do. A code whose answer has the wrong shape is remembered as "not that
 * interface" (by code hash) and never asked again; a master that does not vouch for a wallet is data,
 * not code: it is asked again at the wallet's next change. A get-method that throws (the chain could
 * not run it) leaves the account undetected this time; the block is still committed.
 *
 * Jetton transfers and burns: an event candidate whose account is a jetton wallet (detected in this
 * group, or already in the store) becomes a row with that wallet's master and its transaction's trace.
 */
import { beginCell, type Address } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import { Tep64Error } from '../../ton/tep64.js';
import type { InsertBatch, SqlReads, SqlValue } from '../sql/driver.js';
import { text } from '../sql/values.js';
import { buffer } from '../worker/transfer.js';
import type { BlockTokens, JettonEventCandidate, TokenAccountCandidate } from './block-tokens.js';
import { v3TokenContent } from './content.js';
import type { GetMethodRunner } from './get-methods.js';
import { eventBatch, masterBatch, walletBatch, type JettonMasterRow, type JettonWalletRow } from './token-rows.js';

type Interface = 'jetton_master' | 'jetton_wallet';

/** "code hash X is not interface Y" entries kept (code is attacker-chosen: bounded). */
const MAX_MISSES = 50_000;
const LOOKUP_CHUNK = 500;

const raw = (address: Address | null) => (address ? formatRawUpper(address) : null);

export class TokenDetector {
  private readonly misses = new Set<string>();

  constructor(
    private readonly reads: SqlReads,
    private readonly runner: GetMethodRunner | undefined,
  ) {}

  /**
   * The token rows of a group's blocks, in order. `traceOf`: the final trace_id of a transaction of the
   * group (base64 hash -> id).
   */
  async rows(blocks: BlockTokens[], traceOf: (txHash: Buffer) => Buffer | null): Promise<InsertBatch[]> {
    const masters = new Map<string, JettonMasterRow>();
    const wallets = new Map<string, JettonWalletRow>();
    if (this.runner) {
      for (const block of blocks) {
        const found = await Promise.all(block.accounts.map((candidate) => this.detect(revive(candidate), block.seqno)));
        for (const result of found) {
          if (result?.master) masters.set(result.master.address, result.master);
          if (result?.wallet) wallets.set(result.wallet.address, result.wallet);
        }
      }
    }
    const events = blocks.flatMap((b) => b.events.map((e) => ({ event: e, seqno: b.seqno })));
    const masterOf = await this.mastersOfWallets(
      events.map((e) => e.event.account),
      wallets,
    );
    const transfers: SqlValue[][] = [];
    const burns: SqlValue[][] = [];
    for (const { event, seqno } of events) {
      const master = masterOf.get(event.account);
      if (!master) continue;
      const txHash = buffer(event.txHash);
      const common: SqlValue[] = [
        txHash,
        event.txLt,
        event.txNow,
        event.aborted ? 1 : 0,
        seqno,
        event.body.queryId,
        event.body.amount,
        event.account,
        master,
        event.body.responseDestination,
        event.body.customPayload ? buffer(event.body.customPayload) : null,
        traceOf(txHash),
      ];
      if (event.kind === 'transfer') {
        const b = event.body;
        transfers.push([...common, event.source, b.destination, b.forwardTonAmount, b.forwardPayload ? buffer(b.forwardPayload) : null]);
      } else {
        burns.push([...common, event.source]);
      }
    }
    const batches: InsertBatch[] = [];
    if (masters.size > 0) batches.push(masterBatch([...masters.values()]));
    if (wallets.size > 0) batches.push(walletBatch([...wallets.values()]));
    if (transfers.length > 0) batches.push(eventBatch('jetton_transfers', transfers));
    if (burns.length > 0) batches.push(eventBatch('jetton_burns', burns));
    return batches;
  }

  /** Wallet -> its master, for the wallets among `accounts` (detected now, or stored). */
  private async mastersOfWallets(accounts: string[], detected: Map<string, JettonWalletRow>): Promise<Map<string, string>> {
    const masters = new Map<string, string>();
    const unknown = [...new Set(accounts)].filter((a) => {
      const wallet = detected.get(a);
      if (wallet) masters.set(a, wallet.jetton);
      return !wallet;
    });
    for (let i = 0; i < unknown.length; i += LOOKUP_CHUNK) {
      const chunk = unknown.slice(i, i + LOOKUP_CHUNK);
      const rows = await this.reads.all(`SELECT address, jetton FROM jetton_wallets WHERE address IN (${chunk.map(() => '?').join(', ')})`, chunk);
      for (const row of rows) masters.set(text(row.address), text(row.jetton));
    }
    return masters;
  }

  private async detect(candidate: TokenAccountCandidate, seqno: number): Promise<{ master?: JettonMasterRow; wallet?: JettonWalletRow } | null> {
    try {
      const [master, wallet] = await Promise.all([
        candidate.methods.includes('get_jetton_data') ? this.tryInterface(candidate, 'jetton_master', () => this.jettonMaster(candidate, seqno)) : undefined,
        candidate.methods.includes('get_wallet_data') ? this.tryInterface(candidate, 'jetton_wallet', () => this.jettonWallet(candidate, seqno)) : undefined,
      ]);
      return { master: master ?? undefined, wallet: wallet ?? undefined };
    } catch {
      // The chain could not run a get-method (a liteserver down): undetected this time.
      return null;
    }
  }

  /** Runs a detector unless the code is known not to be that interface; remembers a code that is not. */
  private async tryInterface<T>(candidate: TokenAccountCandidate, kind: Interface, read: () => Promise<T | null>): Promise<T | null> {
    const key = `${kind}:${candidate.codeHash.toString('base64')}`;
    if (this.misses.has(key)) return null;
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof NotThatContract) && !(error instanceof Tep64Error)) throw error;
      if (this.misses.size >= MAX_MISSES) this.misses.clear();
      this.misses.add(key);
      return null;
    }
  }

  private async call(address: string, method: string, seqno: number, args: Parameters<GetMethodRunner['run']>[2] = []): Promise<StackReader> {
    const values = await this.runner!.run(address, method, args, seqno);
    if (values === null) throw new NotThatContract(`${method} failed`);
    return new StackReader(values, method);
  }

  private async jettonMaster(c: TokenAccountCandidate, seqno: number): Promise<JettonMasterRow> {
    const s = await this.call(c.account, 'get_jetton_data', seqno);
    return {
      address: c.account,
      totalSupply: s.int(0),
      mintable: s.int(1) !== 0n,
      admin: raw(s.address(2)),
      content: v3TokenContent(s.cell(3)),
      walletCodeHash: s.cell(4).hash(),
      lastTxLt: c.lastTxLt,
      codeHash: c.codeHash,
      dataHash: c.dataHash,
    };
  }

  /** null: the master does not vouch for it (not cached: that is the data's doing, not the code's). */
  private async jettonWallet(c: TokenAccountCandidate, seqno: number): Promise<JettonWalletRow | null> {
    const s = await this.call(c.account, 'get_wallet_data', seqno);
    const balance = s.int(0);
    const owner = s.address(1);
    const master = s.address(2);
    s.cell(3);
    if (!owner || !master) throw new NotThatContract('get_wallet_data: no owner or jetton');
    const vouched = await this.runner!.run(formatRawUpper(master), 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }], seqno);
    if (!vouched || vouched.length === 0) return null;
    let address: Address | null;
    try {
      address = new StackReader(vouched, 'get_wallet_address').address(0);
    } catch {
      return null;
    }
    if (!address || formatRawUpper(address) !== c.account) return null;
    return {
      address: c.account,
      balance,
      owner: formatRawUpper(owner),
      jetton: formatRawUpper(master),
      lastTxLt: c.lastTxLt,
      codeHash: c.codeHash,
      dataHash: c.dataHash,
      mintlessIsClaimed: null,
    };
  }
}

/** Buffers that crossed a thread arrive as Uint8Arrays. */
function revive(candidate: TokenAccountCandidate): TokenAccountCandidate {
  return { ...candidate, codeHash: buffer(candidate.codeHash), dataHash: buffer(candidate.dataHash) };
}

export type { JettonEventCandidate };
