/**
 * A transaction parsed from its cell the way the index and the chain read it: `raw` is the cell
 * itself and the messages are parsed when first read.
 *
 * @ton/core's loadTransaction rebuilds the root cell from its slice (hashing it again) and parses
 * every message with its body (another cell built and hashed per inline body). Readers here take the
 * messages from the original cells instead (message-cells.ts: the stored cell is what the hash is
 * of), so that work was thrown away: it was a third of parsing a transaction in the index's thread.
 * The fields are @ton/core's, read by @ton/core's own loaders, in the TL-B order:
 *   transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64
 *     now:uint32 outmsg_cnt:uint15 orig_status:AccountStatus end_status:AccountStatus
 *     ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
 *     total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account) description:^TransactionDescr
 */
import {
  beginCell,
  Dictionary,
  loadAccountStatus,
  loadCurrencyCollection,
  loadHashUpdate,
  loadMessage,
  loadTransactionDescription,
  storeMessage,
  type Cell,
  type DictionaryValue,
  type Message,
  type Transaction,
} from '@ton/core';

/** A dictionary value that is a message in a reference (out_msgs: HashmapE 15 ^(Message Any)). */
export const MESSAGE_REF: DictionaryValue<Message> = {
  serialize: (message, builder) => builder.storeRef(beginCell().store(storeMessage(message))),
  parse: (slice) => loadMessage(slice.loadRef().beginParse()),
};

export function loadTransactionCell(cell: Cell): Transaction {
  const slice = cell.beginParse();
  if (slice.loadUint(4) !== 0x07) throw new Error('Invalid data: not a transaction (tag 0111 expected)');
  const address = slice.loadUintBig(256);
  const lt = slice.loadUintBig(64);
  const prevTransactionHash = slice.loadUintBig(256);
  const prevTransactionLt = slice.loadUintBig(64);
  const now = slice.loadUint(32);
  const outMessagesCount = slice.loadUint(15);
  const oldStatus = loadAccountStatus(slice);
  const endStatus = loadAccountStatus(slice);
  const messagesCell = slice.loadRef();
  const totalFees = loadCurrencyCollection(slice);
  const stateUpdate = loadHashUpdate(slice.loadRef().beginParse());
  const description = loadTransactionDescription(slice.loadRef().beginParse());
  let messages: Pick<Transaction, 'inMessage' | 'outMessages'> | undefined;
  const parseMessages = () => {
    if (!messages) {
      const ms = messagesCell.beginParse();
      const inMessage = ms.loadBit() ? loadMessage(ms.loadRef().beginParse()) : undefined;
      const outMessages = ms.loadDict(Dictionary.Keys.Uint(15), MESSAGE_REF);
      ms.endParse();
      messages = { inMessage, outMessages };
    }
    return messages;
  };
  return {
    address,
    lt,
    prevTransactionHash,
    prevTransactionLt,
    now,
    outMessagesCount,
    oldStatus,
    endStatus,
    get inMessage() {
      return parseMessages().inMessage;
    },
    get outMessages() {
      return parseMessages().outMessages;
    },
    totalFees,
    stateUpdate,
    description,
    raw: cell,
    hash: () => cell.hash(),
  };
}

/** Parses the @ton/core Transaction of a transaction cell on first access, once (its messages on first read). */
export function lazyTransaction(cell: Cell): () => Transaction {
  let tx: Transaction | undefined;
  return () => (tx ??= loadTransactionCell(cell));
}
