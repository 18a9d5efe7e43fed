/**
 * v3 transactions from the index's stored documents: each document holds the transaction's v3 JSON
 * with its messages as hashes; this puts the message documents back in and adds the account states
 * before and after (known states with their details, others with the hash only, as toncenter writes
 * a state it does not keep). Then the address_book of every account the page mentions.
 */
import type { IndexReader, TransactionRecord } from '../../../index/reader.js';
import { v3AccountState } from '../../../ton/account-state-json.js';
import type { V3MessageJson } from '../../../ton/message-json.js';
import { addressBookOf, type AddressBookRow } from './address-book.js';

interface StoredTransaction {
  account: string;
  in_msg: string | null;
  out_msgs: string[];
  emulated: boolean;
  finality: string;
  [key: string]: unknown;
}

export interface TransactionsJson {
  transactions: Record<string, unknown>[];
  address_book: Record<string, AddressBookRow>;
}

function stateJson(hash: Buffer, docs: Map<string, string>): unknown {
  const doc = docs.get(hash.toString('base64'));
  return doc ? JSON.parse(doc) : v3AccountState(hash, null);
}

export async function transactionsJson(reader: IndexReader, records: TransactionRecord[], testOnly: boolean): Promise<TransactionsJson> {
  const stored = records.map((r) => JSON.parse(r.doc) as StoredTransaction);
  const bytes = (hash: string) => Buffer.from(hash, 'base64');
  const inHashes = stored.flatMap((t) => (t.in_msg ? [bytes(t.in_msg)] : []));
  const outHashes = stored.flatMap((t) => t.out_msgs.map(bytes));
  // Three independent lookups at once (on PostgreSQL, three connections instead of three round trips).
  const [messages, states, peers] = await Promise.all([
    reader.messagesByHash([...inHashes, ...outHashes]),
    reader.accountStateDocs(records.flatMap((r) => [r.stateBefore, r.stateAfter])),
    reader.transactionPeerStates([...new Set(records.map((r) => r.account))], inHashes, outHashes),
  ]);
  const byHash = new Map(messages.map((m) => [m.hash.toString('base64'), JSON.parse(m.doc) as V3MessageJson]));
  const transactions = stored.map((doc, i) => {
    const { emulated, finality, ...head } = doc;
    return {
      ...head,
      in_msg: doc.in_msg ? byHash.get(doc.in_msg) ?? null : null,
      out_msgs: doc.out_msgs.map((h) => byHash.get(h)).filter((m): m is V3MessageJson => m !== undefined),
      account_state_before: stateJson(records[i].stateBefore, states),
      account_state_after: stateJson(records[i].stateAfter, states),
      emulated,
      finality,
    };
  });
  // toncenter's address book of a transaction page: the accounts, the senders of their inbound
  // messages and the receivers of their outbound ones.
  const mentioned = transactions.flatMap((t) => [t.account, t.in_msg?.source ?? null, ...t.out_msgs.map((m) => m.destination)]);
  return { transactions, address_book: addressBookOf(mentioned, peers, testOnly) };
}
