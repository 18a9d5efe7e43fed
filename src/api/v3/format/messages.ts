/**
 * v3 messages (/messages) from the index's stored documents, with the hashes of the transactions that
 * created and received each one (written only when known, in toncenter's field position), the
 * address_book of their sources and destinations, and metadata (empty: no tokens are indexed).
 */
import type { IndexReader, MessageRecord } from '../../../index/reader.js';
import { formatHash } from '../../../ton/hash.js';
import type { V3MessageJson } from '../../../ton/message-json.js';
import { addressBook, type AddressBookRow } from './address-book.js';

export interface MessagesJson {
  messages: V3MessageJson[];
  address_book: Record<string, AddressBookRow>;
  metadata: Record<string, never>;
}

/** Key order as toncenter writes it: ... import_fee, in_msg_tx_hash, out_msg_tx_hash, message_content, init_state, hash_norm. */
function withEnds(record: MessageRecord): V3MessageJson {
  const { message_content, init_state, hash_norm, ...head } = JSON.parse(record.doc) as V3MessageJson;
  return {
    ...head,
    ...(record.inTxHash ? { in_msg_tx_hash: formatHash(record.inTxHash) } : {}),
    ...(record.outTxHash ? { out_msg_tx_hash: formatHash(record.outTxHash) } : {}),
    message_content,
    init_state,
    ...(hash_norm ? { hash_norm } : {}),
  };
}

export async function messagesJson(reader: IndexReader, records: MessageRecord[], testOnly: boolean): Promise<MessagesJson> {
  const messages = records.map(withEnds);
  const mentioned = messages.flatMap((m) => [m.source, m.destination]);
  return { messages, address_book: await addressBook(reader, mentioned, testOnly), metadata: {} };
}
