/**
 * The index's queries, one method per question v3 asks, each answered by the reader of its resource:
 *   read/blocks.ts        blocks, shard states, the masterchain range
 *   read/transactions.ts  transactions by filter, by message, by adjacency; the peers of a page of them
 *   read/messages.ts      messages by filter and by hash
 *   read/accounts.ts      account state documents, latest states, the richest accounts
 *   read/metadata.ts      the token metadata of addresses
 *   read/pages.ts         a page of records with everything else its answer shows (api/v3/format reads nothing)
 *   traces/reader.ts      traces and a /traces page
 * and, as properties, the token, NFT and DNS tables' readers. Filters, orderings and their tie-breaks follow
 * toncenter's index (ton-index-go's crud layer); each reader's header says its order. Records carry the stored
 * JSON documents as text (read/records.ts); api/v3 parses and merges them.
 */
import type { Block } from '../chain/types.js';
import { DnsReader } from './dns/reader.js';
import { MultisigReader } from './multisig/reader.js';
import { VestingReader } from './vesting/reader.js';
import { AccountReader, type AccountBalanceRecord, type AddressBookStates } from './read/accounts.js';
import { BlockReader } from './read/blocks.js';
import { MessageReader } from './read/messages.js';
import { MetadataReader, type AddressMetadata } from './read/metadata.js';
import { PageReader, type MessagePage, type TransactionPage } from './read/pages.js';
import type { LatestStateRecord, MessageRecord, TransactionRecord } from './read/records.js';
import { TransactionReader, type PeerStates } from './read/transactions.js';
import type { SqlReads } from './sql/driver.js';
import { int } from './sql/values.js';
import { NftReader } from './tokens/nft-reader.js';
import { ActionReader } from './actions/reader.js';
import { TokenReader } from './tokens/reader.js';
import { TraceReader, type TracedTransaction, type TracePage, type TracePageLimits } from './traces/reader.js';
import type { TraceRow } from './traces/trace-row.js';
import type {
  BlockFilter,
  Direction,
  MessageFilter,
  Page,
  SortOrder,
  TraceFilter,
  TransactionFilter,
  TransactionsByMessageFilter,
} from './types.js';

export class IndexReader {
  /** The token tables' queries (tokens/reader.ts). */
  readonly tokens: TokenReader;
  /** The NFT tables' queries (tokens/nft-reader.ts). */
  readonly nfts: NftReader;
  /** dns_entries queries (dns/reader.ts). */
  readonly dns: DnsReader;
  /** The actions' queries (actions/reader.ts). */
  readonly actions: ActionReader;
  /** Multisig v2 wallets and orders (multisig/reader.ts). */
  readonly multisig: MultisigReader;
  /** Vesting wallets (vesting/reader.ts). */
  readonly vesting: VestingReader;
  private readonly blockReader: BlockReader;
  private readonly transactionReader: TransactionReader;
  private readonly messageReader: MessageReader;
  private readonly accountReader: AccountReader;
  private readonly traceReader: TraceReader;
  private readonly metadataReader: MetadataReader;
  private readonly pageReader: PageReader;

  constructor(private readonly driver: SqlReads) {
    this.tokens = new TokenReader(driver);
    this.nfts = new NftReader(driver);
    this.dns = new DnsReader(driver);
    this.actions = new ActionReader(driver);
    this.multisig = new MultisigReader(driver);
    this.vesting = new VestingReader(driver);
    this.blockReader = new BlockReader(driver);
    this.transactionReader = new TransactionReader(driver);
    this.messageReader = new MessageReader(driver);
    this.accountReader = new AccountReader(driver);
    this.traceReader = new TraceReader(driver);
    this.metadataReader = new MetadataReader(this.tokens, this.nfts);
    this.pageReader = new PageReader(this.transactionReader, this.messageReader, this.accountReader, this.dns, this.metadataReader);
  }

  /** The first and the last indexed masterchain blocks, or null before the first block is written. */
  masterchainRange(): Promise<{ first: Block; last: Block } | null> {
    return this.blockReader.masterchainRange();
  }

  /** The newest indexed masterchain seqno, -1 when the index is empty. */
  lastMasterchainSeqno(): Promise<number> {
    return this.blockReader.lastMasterchainSeqno();
  }

  masterchainBlockExists(seqno: number): Promise<boolean> {
    return this.blockReader.masterchainBlockExists(seqno);
  }

  blocks(filter: BlockFilter, sort: SortOrder, page: Page): Promise<Block[]> {
    return this.blockReader.blocks(filter, sort, page);
  }

  /** The shard blocks a masterchain block commits (its shard state), in (workchain, shard) order. */
  shardState(mcSeqno: number): Promise<Block[]> {
    return this.blockReader.shardState(mcSeqno);
  }

  transactions(filter: TransactionFilter, sort: SortOrder, page: Page): Promise<TransactionRecord[]> {
    return this.transactionReader.transactions(filter, sort, page);
  }

  /** Transactions whose inbound (direction in) or outbound (out) message matches (read/transactions.ts). */
  transactionsByMessage(filter: TransactionsByMessageFilter, page: Page): Promise<TransactionRecord[]> {
    return this.transactionReader.transactionsByMessage(filter, page);
  }

  /** The transactions on the other end of a transaction's messages (read/transactions.ts). */
  adjacentTransactions(hash: Buffer, direction?: Direction): Promise<TransactionRecord[]> {
    return this.transactionReader.adjacentTransactions(hash, direction);
  }

  /** What the address book of a page of transactions needs of every account it mentions (read/transactions.ts). */
  transactionPeerStates(
    accounts: readonly string[],
    inMessages: readonly Buffer[],
    outMessages: readonly Buffer[],
    withTokenContracts = false,
  ): Promise<PeerStates> {
    return this.transactionReader.transactionPeerStates(accounts, inMessages, outMessages, withTokenContracts);
  }

  /** Messages by hash (for a page of transactions), in no particular order. */
  messagesByHash(hashes: readonly Buffer[]): Promise<MessageRecord[]> {
    return this.messageReader.messagesByHash(hashes);
  }

  messages(filter: MessageFilter, sort: SortOrder, page: Page): Promise<MessageRecord[]> {
    return this.messageReader.messages(filter, sort, page);
  }

  /** v3 AccountState documents by state hash. */
  accountStateDocs(hashes: readonly Buffer[]): Promise<Map<string, string>> {
    return this.accountReader.accountStateDocs(hashes);
  }

  /** The newest state of each account that has one (unknown accounts are left out). */
  latestStates(accounts: readonly string[], withBocs: boolean): Promise<LatestStateRecord[]> {
    return this.accountReader.latestStates(accounts, withBocs);
  }

  topAccountsByBalance(page: Page): Promise<AccountBalanceRecord[]> {
    return this.accountReader.topAccountsByBalance(page);
  }

  /** Traces by toncenter's filters (traces/reader.ts). */
  traces(filter: TraceFilter, sort: SortOrder, page: Page): Promise<TraceRow[]> {
    return this.traceReader.traces(filter, sort, page);
  }

  /** A /traces page in one statement: the traces and the transactions of those it carries (traces/reader.ts). */
  tracePage(filter: TraceFilter, sort: SortOrder, page: Page, limits: TracePageLimits): Promise<TracePage> {
    return this.traceReader.tracePage(filter, sort, page, limits);
  }

  /** These transactions with their traces' normalized external hashes, in /traces page order (traces/reader.ts). */
  tracedTransactions(hashes: readonly Buffer[]): Promise<TracedTransaction[]> {
    return this.traceReader.tracedTransactions(hashes);
  }

  /** The transactions of these traces, by trace, then lt and account (traces/reader.ts). */
  traceTransactions(traceIds: readonly Buffer[]): Promise<TransactionRecord[]> {
    return this.traceReader.traceTransactions(traceIds);
  }

  /** The token metadata of the addresses given (null entries skipped): read/metadata.ts. */
  metadata(addresses: Iterable<string | null>): Promise<Record<string, AddressMetadata>> {
    return this.metadataReader.metadata(addresses);
  }

  /**
   * These transactions with their messages, account states and the address book of every account they mention,
   * in one round trip; `withMetadata`, the metadata of the token contracts among those too (read/pages.ts).
   */
  transactionPage(records: TransactionRecord[], withMetadata = false, withAddressBook = true): Promise<TransactionPage> {
    return this.pageReader.transactionPage(records, withMetadata, withAddressBook);
  }

  /** These messages with the address book and metadata of their sources and destinations (read/pages.ts). */
  messagePage(records: MessageRecord[]): Promise<MessagePage> {
    return this.pageReader.messagePage(records);
  }

  /** The address book's states and domains of the addresses given (null entries skipped): read/pages.ts. */
  addressBookStates(addresses: Iterable<string | null>): Promise<AddressBookStates> {
    return this.pageReader.addressBookStates(addresses);
  }

  /** How much the index holds (benchmarks, diagnostics). */
  async counts(): Promise<{ blocks: number; transactions: number; messages: number; accounts: number }> {
    const count = async (table: string) => int((await this.driver.all(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
    return {
      blocks: await count('blocks'),
      transactions: await count('transactions'),
      messages: await count('messages'),
      accounts: await count('latest_account_states'),
    };
  }
}
