/**
 * Token detection in the store thread, right before a group of blocks is committed (after its traces
 * are linked, so every transaction's trace_id is final). For each candidate account of each block
 * (block-tokens.ts: its code has the get-method) it runs, at that block's masterchain seqno, the
 * detectors of contracts.ts (jetton master, jetton wallet, NFT collection, NFT item), as ton-indexer does.
 * A code whose answer has the wrong shape is remembered as "not that interface" (by code hash) and never
 * asked again; a master or collection that does not vouch for a wallet or item is data, not code: it is
 * asked again at the next change. A get-method that throws (the chain could not run it, or did not answer in
 * time) leaves the account undetected this time; the block is still committed, and the account is asked again at
 * its block's state a few blocks later (detection-retry.ts). So does a domain item's DNS read (src/index/dns). A
 * contract found that way (or at a newer state met meanwhile) is reported as a late find (detectGroup), so the
 * block committer classifies again the traces indexed without it (src/index/actions/late-finds.ts).
 *
 * Events: a jetton transfer/burn candidate whose account is a jetton wallet, an NFT transfer candidate
 * whose account is an NFT item (detected in this group, or already in the store) becomes a row with the
 * wallet's master / the item's index and collection, and its transaction's trace.
 */
import type { InsertBatch, SqlReads, SqlValue } from '../sql/driver.js';
import { optionalText, text } from '../sql/values.js';
import { buffer } from '../worker/transfer.js';
import type { BlockTokens, TokenAccountCandidate } from './block-tokens.js';
import { ContractReads, type Detected } from './contracts.js';
import type { GetMethodRunner } from './get-methods.js';
import { DetectionRetries } from './detection-retry.js';
import { DomainDetector } from '../dns/domains.js';
import { dnsEntryBatch, type DnsEntryRow } from '../dns/rows.js';
import { saleBatch, type NftSaleRow } from './sales.js';
import { auctionBatch, type NftAuctionRow } from './auctions.js';
import { metadataQueueBatch } from './metadata-store.js';
import { memberBatch, multisigBatch, orderBatch, type MultisigOrderRow, type MultisigRow } from '../multisig/rows.js';
import { vestingBatch, whitelistBatch, type VestingRow } from '../vesting/rows.js';
import { dexPoolBatch, type DexPoolRow } from '../dex/rows.js';
import type { DedustFacts } from '../dex/dedust-pools.js';
import {
  collectionBatch,
  eventBatch,
  itemBatch,
  masterBatch,
  nftTransferBatch,
  walletBatch,
  type JettonMasterRow,
  type JettonWalletRow,
  type NftCollectionRow,
  type NftItemRow,
} from './token-rows.js';

const LOOKUP_CHUNK = 500;

/**
 * Candidate accounts whose detection runs at once, across the blocks of a group (at least one block). Each block's
 * get-methods are pinned to its own seqno, so consecutive blocks need not wait for each other: when the index
 * catches up (a group of many blocks) their calls share the thread crossings and the emulator's batches, instead
 * of a block's chain of dependent calls (an item, then its collection twice) waiting for the previous block's.
 * Bounded because the main thread relays a crossing's calls in one turn (~0.1 ms each, bench:token-relay).
 */
const DETECT_WINDOW_ACCOUNTS = 128;

interface GroupContracts {
  masters: Map<string, JettonMasterRow>;
  wallets: Map<string, JettonWalletRow>;
  collections: Map<string, NftCollectionRow>;
  items: Map<string, NftItemRow>;
  domains: Map<string, DnsEntryRow>;
  sales: Map<string, NftSaleRow>;
  auctions: Map<string, NftAuctionRow>;
  multisigs: Map<string, MultisigRow>;
  orders: Map<string, MultisigOrderRow>;
  vestings: Map<string, VestingRow>;
  dexPools: Map<string, DexPoolRow>;
}

/**
 * A contract found after a failed detection of it (detection-retry.ts): by the retry, at the failed state, or at a
 * newer state met while the retry waited or after it was given up. What the index wrote from block `since` on (a
 * trace's actions: the classifier reads the contracts detection knows) was written without it.
 */
export interface LateFind {
  account: string;
  /** The masterchain seqno of the state whose detection failed. */
  since: number;
}

export interface DetectedGroup {
  batches: InsertBatch[];
  lateFinds: LateFind[];
}

export interface TokenDetectorOptions {
  /** DeDust's pool code hashes and factory; mainnet's unless given (src/index/dex: a test gives its own contracts'). */
  dedust?: DedustFacts;
}

export class TokenDetector {
  private readonly contracts: ContractReads | undefined;
  private readonly domains: DomainDetector | undefined;
  /** Candidates the chain did not answer, asked again at later groups (detection-retry.ts). */
  readonly retries = new DetectionRetries();

  /** `dnsRoots`: the network's DNS root collections (raw addresses); their items are domains (src/index/dns). */
  constructor(
    private readonly reads: SqlReads,
    runner: GetMethodRunner | undefined,
    dnsRoots: readonly string[] = [],
    options: TokenDetectorOptions = {},
  ) {
    this.contracts = runner ? new ContractReads(runner, options.dedust) : undefined;
    this.domains = runner && dnsRoots.length > 0 ? new DomainDetector(runner, new Set(dnsRoots)) : undefined;
  }

  /**
   * The failed detections kept in the store (detection-retry.ts), read before the first group: a restart goes on with
   * the retries that waited and the accounts given up. Without get-methods nothing is detected, so nothing is read.
   */
  async loadRetries(): Promise<void> {
    if (this.contracts) await this.retries.load(this.reads);
  }

  /** The token rows of a group's blocks, in order. `traceOf`: the final trace_id of a transaction of the group. */
  async rows(blocks: BlockTokens[], traceOf: (txHash: Buffer) => Buffer | null): Promise<InsertBatch[]> {
    return (await this.detectGroup(blocks, traceOf)).batches;
  }

  /** rows(), and the contracts found late (LateFind): the block committer has the traces they touched classified again. */
  async detectGroup(blocks: BlockTokens[], traceOf: (txHash: Buffer) => Buffer | null): Promise<DetectedGroup> {
    const lateFinds: LateFind[] = [];
    const found: GroupContracts = {
      masters: new Map(),
      wallets: new Map(),
      collections: new Map(),
      items: new Map(),
      domains: new Map(),
      sales: new Map(),
      auctions: new Map(),
      multisigs: new Map(),
      orders: new Map(),
      vestings: new Map(),
      dexPools: new Map(),
    };
    if (this.contracts) {
      await this.retries.load(this.reads);
      // The newest block of the group (the back-fill's groups list past blocks of events after the current one).
      const now = blocks.reduce((newest, b) => Math.max(newest, b.seqno), 0);
      const met = new Set(blocks.flatMap((b) => b.accounts.map((a) => a.account)));
      // Accounts met again while a failed state waited: their newer state is detected below, instead of the retry.
      const replaced = this.retries.failedAt(met);
      // Detections the chain did not answer earlier (detection-retry.ts), each at its own block's state, before this
      // group's blocks: they are older states, so a newer one of the same account still wins below.
      const retried: DetectionUnit[] = this.retries
        .due(now, met)
        .sort((a, b) => a.seqno - b.seqno)
        .map((r) => ({ seqno: r.seqno, accounts: [r.candidate], failures: r.failures, since: () => r.since }));
      // A newer state that fails too waits with the first failed block of the account.
      const sinceOf = (seqno: number) => (account: string) => replaced.get(account) ?? seqno;
      const units: DetectionUnit[] = [
        ...retried,
        ...blocks.map((b) => ({ seqno: b.seqno, accounts: b.accounts, failures: 0, since: sinceOf(b.seqno) })),
      ];
      for (const window of detectionWindows(units)) {
        // Kept in block order afterwards: a later block's state of an account wins, as when blocks ran one by one.
        const perBlock = await Promise.all(window.map((unit) => this.detectBlock(unit, now)));
        for (const [u, { results, entries }] of perBlock.entries()) {
          for (const entry of entries) if (entry) found.domains.set(entry.item, entry);
          for (const result of results) keep(found, result);
          const unit = window[u];
          if (unit.failures === 0) continue;
          results.forEach((result, i) => {
            // detect() answers every kind's key, undefined for a kind it is not: a find is a kind with a row.
            if (result && Object.values(result).some((row) => row !== undefined))
              lateFinds.push({ account: unit.accounts[i].account, since: unit.since(unit.accounts[i].account) });
          });
        }
      }
      for (const [account, since] of replaced) if (isFound(found, account)) lateFinds.push({ account, since });
    }
    const events = blocks.flatMap((b) => b.events.map((event) => ({ event, seqno: b.seqno })));
    const jettonAccounts = events.filter((e) => e.event.kind !== 'nft_transfer').map((e) => e.event.account);
    const nftAccounts = events.filter((e) => e.event.kind === 'nft_transfer').map((e) => e.event.account);
    const masterOf = await this.known(
      jettonAccounts,
      found.wallets,
      (w) => w.jetton,
      'SELECT address, jetton AS about FROM jetton_wallets',
    );
    const itemOf = await this.known(
      nftAccounts,
      found.items,
      (i) => `${i.index}|${i.collection ?? ''}`,
      `SELECT address, item_index || '|' || COALESCE(collection_address, '') AS about FROM nft_items`,
    );

    const transfers: SqlValue[][] = [];
    const burns: SqlValue[][] = [];
    const nftTransfers: SqlValue[][] = [];
    for (const { event, seqno } of events) {
      const txHash = buffer(event.txHash);
      const head: SqlValue[] = [txHash, event.txLt, event.txNow, event.aborted ? 1 : 0, seqno, event.body.queryId];
      const payload = (bytes: Uint8Array | null) => (bytes ? buffer(bytes) : null);
      if (event.kind === 'nft_transfer') {
        const item = itemOf.get(event.account);
        if (!item) continue;
        const [index, collection] = item.split('|');
        const b = event.body;
        nftTransfers.push([
          ...head,
          event.account,
          index,
          collection || null,
          event.source,
          b.newOwner,
          b.responseDestination,
          payload(b.customPayload),
          b.forwardAmount,
          payload(b.forwardPayload),
          traceOf(txHash),
        ]);
        continue;
      }
      const master = masterOf.get(event.account);
      if (!master) continue;
      const common = [
        ...head,
        event.body.amount,
        event.account,
        master,
        event.body.responseDestination,
        payload(event.body.customPayload),
        traceOf(txHash),
      ];
      if (event.kind === 'transfer')
        transfers.push([...common, event.source, event.body.destination, event.body.forwardTonAmount, payload(event.body.forwardPayload)]);
      else burns.push([...common, event.source]);
    }
    const batches: InsertBatch[] = [];
    if (found.masters.size > 0) batches.push(masterBatch([...found.masters.values()]));
    if (found.wallets.size > 0) batches.push(walletBatch([...found.wallets.values()]));
    if (found.collections.size > 0) batches.push(collectionBatch([...found.collections.values()]));
    if (found.items.size > 0) batches.push(itemBatch([...found.items.values()]));
    const toFetch = metadataQueueBatch(
      [...found.masters.values(), ...found.collections.values(), ...found.items.values()].map((c) => c.content),
    );
    if (toFetch) batches.push(toFetch);
    if (transfers.length > 0) batches.push(eventBatch('jetton_transfers', transfers));
    if (burns.length > 0) batches.push(eventBatch('jetton_burns', burns));
    if (nftTransfers.length > 0) batches.push(nftTransferBatch(nftTransfers));
    if (found.domains.size > 0) batches.push(dnsEntryBatch([...found.domains.values()]));
    if (found.sales.size > 0) batches.push(saleBatch([...found.sales.values()]));
    if (found.auctions.size > 0) batches.push(auctionBatch([...found.auctions.values()]));
    if (found.multisigs.size > 0) {
      const multisigs = [...found.multisigs.values()];
      batches.push(multisigBatch(multisigs));
      const members = memberBatch(multisigs);
      if (members.rows.length > 0) batches.push(members);
    }
    if (found.orders.size > 0) batches.push(orderBatch([...found.orders.values()]));
    if (found.vestings.size > 0) {
      const vestings = [...found.vestings.values()];
      batches.push(vestingBatch(vestings));
      const whitelist = whitelistBatch(vestings);
      if (whitelist) batches.push(whitelist);
    }
    if (found.dexPools.size > 0) batches.push(dexPoolBatch([...found.dexPools.values()]));
    return { batches, lateFinds };
  }

  /**
   * One block's candidates, each detected at the block's seqno, and the domains among its NFT items. A candidate the
   * chain did not answer (null) waits in `retries` for a later block (`now`: the group's newest).
   */
  private async detectBlock(
    block: DetectionUnit,
    now: number,
  ): Promise<{ results: Array<Detected | null>; entries: Array<DnsEntryRow | null> }> {
    const failed = (i: number) => {
      const candidate = block.accounts[i];
      this.retries.failed({ candidate, seqno: block.seqno, failures: block.failures, since: block.since(candidate.account) }, now);
    };
    const results = await Promise.all(block.accounts.map((candidate) => this.contracts!.detect(revive(candidate), block.seqno)));
    results.forEach((result, i) => {
      if (result === null) failed(i);
    });
    // A domain read the chain did not answer: the item row is kept, and the whole candidate waits in `retries`, so
    // the retry writes the item again (same lt: its upsert takes it) with its domain, and the dns_entries row.
    const domainOf = async (result: Detected | null, i: number) => {
      if (!result?.item || !this.domains) return null;
      try {
        return await this.domains.detect(result.item, block.seqno);
      } catch {
        failed(i);
        return null;
      }
    };
    const entries = await Promise.all(results.map(domainOf));
    return { results, entries };
  }

  /** account -> what the event rows need of it, for the accounts among `accounts` detected now or stored. */
  private async known<R extends { address: string }>(
    accounts: string[],
    detected: Map<string, R>,
    about: (row: R) => string,
    select: string,
  ): Promise<Map<string, string>> {
    const known = new Map<string, string>();
    const unknown = [...new Set(accounts)].filter((a) => {
      const row = detected.get(a);
      if (row) known.set(a, about(row));
      return !row;
    });
    for (let i = 0; i < unknown.length; i += LOOKUP_CHUNK) {
      const chunk = unknown.slice(i, i + LOOKUP_CHUNK);
      const rows = await this.reads.all(`${select} WHERE address IN (${chunk.map(() => '?').join(', ')})`, chunk);
      for (const row of rows) known.set(text(row.address), optionalText(row.about) ?? '');
    }
    return known;
  }
}

/**
 * The newest state of each contract wins (blocks come in order), keeping the lt it was first met at in the group:
 * first_lt is the same whether blocks were committed one by one (live) or grouped (a catch-up).
 */
function keep(found: GroupContracts, result: Detected | null): void {
  if (!result) return;
  const newest = <R extends { address: string; lastTxLt: bigint; firstLt?: bigint }>(map: Map<string, R>, row: R) => {
    const earlier = map.get(row.address);
    map.set(row.address, earlier ? { ...row, firstLt: earlier.firstLt ?? earlier.lastTxLt } : row);
  };
  if (result.master) newest(found.masters, result.master);
  if (result.wallet) newest(found.wallets, result.wallet);
  if (result.collection) newest(found.collections, result.collection);
  if (result.item) newest(found.items, result.item);
  if (result.sale) found.sales.set(result.sale.address, result.sale);
  if (result.auction) found.auctions.set(result.auction.address, result.auction);
  if (result.multisig) newest(found.multisigs, result.multisig);
  if (result.order) newest(found.orders, result.order);
  if (result.vesting) newest(found.vestings, result.vesting);
  if (result.dexPool) newest(found.dexPools, result.dexPool);
}

/** True when the group found a contract of any kind at `account`. */
function isFound(found: GroupContracts, account: string): boolean {
  return Object.values(found).some((byAddress: Map<string, unknown>) => byAddress.has(account));
}

/** Candidates asked at one block's state: a block of the group, or a retry (`failures` so far: detection-retry.ts). */
interface DetectionUnit {
  seqno: number;
  accounts: TokenAccountCandidate[];
  failures: number;
  /** The block of an account's first failed state: a retry's, a waiting (or given up) account's, else this one. */
  since: (account: string) => number;
}

/** Consecutive blocks with at most DETECT_WINDOW_ACCOUNTS candidates together (a larger block alone), in order. */
function detectionWindows(blocks: DetectionUnit[]): DetectionUnit[][] {
  const windows: DetectionUnit[][] = [];
  let accounts = Infinity;
  for (const block of blocks) {
    if (accounts + block.accounts.length > DETECT_WINDOW_ACCOUNTS) {
      windows.push([]);
      accounts = 0;
    }
    windows.at(-1)!.push(block);
    accounts += block.accounts.length;
  }
  return windows;
}

/** Buffers that crossed a thread arrive as Uint8Arrays. */
function revive(candidate: TokenAccountCandidate): TokenAccountCandidate {
  return { ...candidate, codeHash: buffer(candidate.codeHash), dataHash: buffer(candidate.dataHash) };
}
