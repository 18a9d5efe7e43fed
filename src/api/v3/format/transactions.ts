/**
 * A page of v3 transactions from the index's stored documents. Each document is the transaction's v3
 * JSON with its messages as hashes and no account states (index/documents.ts: its layout, and where it is
 * cut). The page is written as text: the document up to its messages, then the stored message documents,
 * the account states before and after (the stored state, or the hash only for a state the index does not
 * keep, as toncenter writes it), then the rest. Then the address_book of every account the page mentions.
 */
import type { AddressMetadata } from '../../../index/read/metadata.js';
import type { TransactionPage } from '../../../index/read/pages.js';
import { headWithTraceId } from '../../../index/documents.js';
import { v3AccountState } from '../../../ton/account-state-json.js';
import { jsonObject, type JsonText } from '../../json-text.js';
import { addressBookOf } from './address-book.js';
import { withDecodedBody } from './decoded-body.js';
import { withDecodedOpcode } from './decoded-opcode.js';

export interface RenderedTransactions {
  /** Each record's v3 JSON text, in the records' order. */
  texts: string[];
  /** Each record's inbound message hash and outbound message hashes (base64), for trace trees. */
  messages: { inMsg: string | null; outMsgs: string[] }[];
  /** Each record's account, the sender of its inbound message and the receivers of its outbound ones (raw). */
  mentioned: string[][];
  addressBook: object;
  /** The page's metadata, when it was read with it (IndexReader.transactionPage). */
  metadata?: Record<string, AddressMetadata>;
}

export function transactionsText(page: TransactionPage, testOnly: boolean): JsonText {
  const { texts, addressBook } = renderTransactions(page, testOnly);
  return jsonObject([
    ['transactions', `[${texts.join(',')}]`],
    ['address_book', JSON.stringify(addressBook)],
  ]);
}

/**
 * Transactions as v3 JSON texts with the address book of every account they mention, from what the page holds
 * (`withAddressBook` false: none, for a reader that writes none).
 */
export function renderTransactions(page: TransactionPage, testOnly: boolean, withAddressBook = true): RenderedTransactions {
  const { records, stored, messages, states, peers } = page;
  const byHash = new Map(messages.map((m) => [m.hash.toString('base64'), { ...m, doc: withDecodedBody(withDecodedOpcode(m.doc)) }]));
  const state = (hash: Buffer) => states.get(hash.toString('base64')) ?? JSON.stringify(v3AccountState(hash, null));
  const mentioned: string[][] = [];
  const transactions = stored.map(({ head, tail }, i) => {
    const inMsg = tail.in_msg ? byHash.get(tail.in_msg) : undefined;
    const outMsgs = tail.out_msgs.map((h) => byHash.get(h)).filter((m) => m !== undefined);
    // toncenter's address book of a transaction page: the accounts, the senders of their inbound
    // messages and the receivers of their outbound ones.
    mentioned.push([records[i].account, inMsg?.source ?? null, ...outMsgs.map((m) => m.destination)].filter((a) => a !== null));
    return (
      `${headWithTraceId(head, records[i].traceId)},"in_msg":${inMsg?.doc ?? 'null'},"out_msgs":[${outMsgs.map((m) => m.doc).join(',')}]` +
      `,"account_state_before":${state(records[i].stateBefore)},"account_state_after":${state(records[i].stateAfter)}` +
      `,"emulated":${JSON.stringify(tail.emulated)},"finality":${JSON.stringify(tail.finality)}}`
    );
  });
  return {
    texts: transactions,
    messages: stored.map(({ tail }) => ({ inMsg: tail.in_msg, outMsgs: tail.out_msgs })),
    mentioned,
    addressBook: withAddressBook ? addressBookOf(mentioned.flat(), peers, testOnly) : {},
    ...(page.metadata ? { metadata: page.metadata } : {}),
  };
}
