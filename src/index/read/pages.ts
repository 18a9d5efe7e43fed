/**
 * A page of records with everything else its v3 answer shows, so api/v3/format writes the answer from what it
 * is handed and asks the index nothing. The reads a page needs besides its records are asked together, so they
 * cost one round trip (one message to a reader thread; on PostgreSQL, connections at once instead of one after
 * the other):
 *   transactionPage    the transactions' messages, their account states before and after, and the address book
 *                      of every account they mention; with `withMetadata` (/traces), the metadata of the token
 *                      contracts among those: one more round trip, only when there are some
 *   messagePage        the address book and the metadata of the messages' sources and destinations
 *   addressBookStates  what an address book says of accounts: their latest states and the domains they own
 */
import type { DnsReader } from '../dns/reader.js';
import { splitTransactionDoc, type StoredTransaction } from '../documents.js';
import type { AccountReader, AddressBookStates } from './accounts.js';
import type { MessageReader } from './messages.js';
import type { AddressMetadata, MetadataReader } from './metadata.js';
import type { MessageRecord, TransactionRecord } from './records.js';
import type { PeerStates, TransactionReader } from './transactions.js';

export interface TransactionPage {
  records: TransactionRecord[];
  /** Each record's document, cut where its messages begin (documents.ts). */
  stored: StoredTransaction[];
  /** The transactions' messages (each once), in no particular order. */
  messages: MessageRecord[];
  /** Account state documents by state hash (base64); a state the index does not keep is not there. */
  states: Map<string, string>;
  /** The states and domains of the accounts the page mentions; which are token contracts, with `withMetadata`. */
  peers: PeerStates;
  /** With `withMetadata`: the metadata of the token contracts among the accounts mentioned. */
  metadata?: Record<string, AddressMetadata>;
}

export interface MessagePage {
  records: MessageRecord[];
  /** The address book's states and domains of the messages' sources and destinations. */
  addressBook: AddressBookStates;
  metadata: Record<string, AddressMetadata>;
}

const distinct = (addresses: Iterable<string | null>) => [...new Set([...addresses].filter((a): a is string => a !== null))];

export class PageReader {
  constructor(
    private readonly transactions: TransactionReader,
    private readonly messages: MessageReader,
    private readonly accounts: AccountReader,
    private readonly dns: DnsReader,
    private readonly tokenMetadata: MetadataReader,
  ) {}

  /** `withAddressBook` false (and no metadata): the peers' states are not read (a reader that writes no address book). */
  async transactionPage(records: TransactionRecord[], withMetadata = false, withAddressBook = true): Promise<TransactionPage> {
    const stored = records.map((r) => splitTransactionDoc(r.doc));
    const bytes = (hash: string) => Buffer.from(hash, 'base64');
    const inHashes = stored.flatMap(({ tail }) => (tail.in_msg ? [bytes(tail.in_msg)] : []));
    const outHashes = stored.flatMap(({ tail }) => tail.out_msgs.map(bytes));
    // Three independent lookups at once (on PostgreSQL, three connections instead of three round trips).
    const [messages, states, peers] = await Promise.all([
      this.messages.messagesByHash([...inHashes, ...outHashes]),
      this.accounts.accountStateDocs(records.flatMap((r) => [r.stateBefore, r.stateAfter])),
      withAddressBook || withMetadata
        ? this.transactions.transactionPeerStates([...new Set(records.map((r) => r.account))], inHashes, outHashes, withMetadata)
        : { states: [], domains: new Map<string, string>(), tokenContracts: [] },
    ]);
    return {
      records,
      stored,
      messages,
      states,
      peers,
      ...(withMetadata ? { metadata: await this.tokenMetadata.metadata(peers.tokenContracts) } : {}),
    };
  }

  async messagePage(records: MessageRecord[]): Promise<MessagePage> {
    const addresses = records.flatMap((m) => [m.source, m.destination]);
    const [addressBook, metadata] = await Promise.all([this.addressBookStates(addresses), this.tokenMetadata.metadata(addresses)]);
    return { records, addressBook, metadata };
  }

  /** The latest states (no BoCs) and the domains of the distinct addresses given (null entries skipped). */
  async addressBookStates(addresses: Iterable<string | null>): Promise<AddressBookStates> {
    const list = distinct(addresses);
    const [states, domains] = await Promise.all([this.accounts.latestStates(list, false), this.dns.domainsOf(list)]);
    return { states, domains };
  }
}
