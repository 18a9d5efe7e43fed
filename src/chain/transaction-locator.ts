/**
 * Where a chain that cannot find a transaction itself learns where it is: chain/lite asks it for a transaction
 * by its hash alone and for the transactions of a message (a liteserver finds neither), then reads them from the
 * liteservers and checks them. The live index answers it (src/index's IndexReader has these two reads); whoever
 * composes the two (cli/start.ts) hands it over, so the chain never imports the index.
 */

/** What a located transaction is read by: its account (raw form), lt and hash. */
export interface LocatedTransaction {
  account: string;
  lt: bigint;
  hash: Buffer;
}

export interface TransactionLocator {
  /** The transactions with this hash, in `sort` order. */
  transactions(filter: { hash: Buffer }, sort: 'asc' | 'desc', page: { limit: number; offset: number }): Promise<LocatedTransaction[]>;
  /** The transactions that received (`in`) or sent (`out`) the message with this hash. */
  transactionsByMessage(
    filter: { msgHash: Buffer; direction: 'in' | 'out' },
    page: { limit: number; offset: number },
  ): Promise<LocatedTransaction[]>;
}
