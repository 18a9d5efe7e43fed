/**
 * The messages table's queries. Order (toncenter's index): "effective lt" (created_lt, or for an external-in
 * message the lt of the transaction it started), then hash.
 */
import type { SqlReads } from '../sql/driver.js';
import { orderSql, pageSql, Where } from '../sql/where.js';
import type { MessageFilter, Page, SortOrder } from '../types.js';
import { messageOf, MSG_COLUMNS, type MessageRecord } from './records.js';

export class MessageReader {
  constructor(private readonly reads: SqlReads) {}

  /** Messages by hash (for a page of transactions), in no particular order. */
  async messagesByHash(hashes: readonly Buffer[]): Promise<MessageRecord[]> {
    if (hashes.length === 0) return [];
    const rows = await this.reads.all(
      `SELECT ${MSG_COLUMNS} FROM messages WHERE msg_hash IN (${hashes.map(() => '?').join(', ')})`,
      hashes,
    );
    return rows.map(messageOf);
  }

  async messages(filter: MessageFilter, sort: SortOrder, page: Page): Promise<MessageRecord[]> {
    const where = new Where();
    if (filter.source === null) where.add('source IS NULL');
    else where.add('source = ?', filter.source);
    if (filter.destination === null) where.add('destination IS NULL');
    else where.add('destination = ?', filter.destination);
    where
      .add('body_hash = ?', filter.bodyHash)
      .add('opcode = ?', filter.opcode)
      .between('created_at', filter.startUtime, filter.endUtime)
      .between('created_lt', filter.startLt, filter.endLt);
    if (filter.direction === 'in') where.add('in_tx_hash IS NOT NULL');
    if (filter.direction === 'out') where.add('out_tx_hash IS NOT NULL');
    // External-in messages are the ones without created_lt.
    if (filter.excludeExternals) where.add('created_lt IS NOT NULL');
    if (filter.onlyExternals) where.add('created_lt IS NULL');
    const dir = orderSql(sort);
    const tail = `ORDER BY sort_lt ${dir}, msg_hash ${dir} ${pageSql(page)}`;
    if (filter.msgHashes && filter.msgHashes.length > 0) {
      // By hash or by normalized hash: a UNION of two index lookups (an OR of the two would let a
      // planner without statistics scan the whole table in sort_lt order instead).
      const byHash = (column: string) => {
        const part = new Where().in(column, filter.msgHashes).append(where);
        return { sql: `SELECT ${MSG_COLUMNS}, sort_lt FROM messages ${part}`, params: part.params };
      };
      const a = byHash('msg_hash');
      const b = byHash('hash_norm');
      const rows = await this.reads.all(`${a.sql} UNION ${b.sql} ${tail}`, [...a.params, ...b.params]);
      return rows.map(messageOf);
    }
    // One address filter: lead with its column so the (address, sort_lt) index serves the order.
    const lead =
      typeof filter.source === 'string' && filter.destination === undefined
        ? 'source, '
        : typeof filter.destination === 'string' && filter.source === undefined
          ? 'destination, '
          : '';
    const rows = await this.reads.all(
      `SELECT ${MSG_COLUMNS} FROM messages ${where} ORDER BY ${lead}sort_lt ${dir}, msg_hash ${dir} ${pageSql(page)}`,
      where.params,
    );
    return rows.map(messageOf);
  }
}
