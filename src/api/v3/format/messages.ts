/**
 * A page of v3 messages (/messages) from the index's stored documents, written as text: each stored
 * message JSON with the hashes of the transactions that received and created it put in toncenter's
 * place (after import_fee, before message_content, index/documents.ts; written only when known), then
 * the address_book of their sources and destinations, and the metadata of the token contracts among them.
 */
import type { MessagePage } from '../../../index/read/pages.js';
import type { MessageRecord } from '../../../index/read/records.js';
import { messageDocWithEnds } from '../../../index/documents.js';
import { jsonObject, type JsonText } from '../../json-text.js';
import { withDecodedBody } from './decoded-body.js';
import { withDecodedOpcode } from './decoded-opcode.js';
import { addressBookOf } from './address-book.js';

function withEnds(record: MessageRecord): string {
  return messageDocWithEnds(withDecodedBody(withDecodedOpcode(record.doc)), record.inTxHash, record.outTxHash);
}

export function messagesText(page: MessagePage, testOnly: boolean): JsonText {
  const { records } = page;
  const book = addressBookOf(
    records.flatMap((m) => [m.source, m.destination]),
    page.addressBook,
    testOnly,
  );
  return jsonObject([
    ['messages', `[${records.map(withEnds).join(',')}]`],
    ['address_book', JSON.stringify(book)],
    ['metadata', JSON.stringify(page.metadata)],
  ]);
}
