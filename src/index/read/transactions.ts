/**
 * The transactions table's queries. Order (toncenter's index): lt, then account ascending; one account: that
 * account's lt order.
 */
import { ownDomainSql } from '../dns/reader.js';
import { splitTransactionDoc } from '../documents.js';
import type { SqlReads, SqlValue } from '../sql/driver.js';
import { int, signedShard, text } from '../sql/values.js';
import { orderSql, pageSql, placeholders, Where } from '../sql/where.js';
import { tokenContractSql } from '../tokens/reader.js';
import type { Direction, Page, SortOrder, TransactionFilter, TransactionsByMessageFilter } from '../types.js';
import type { AddressBookStates } from './accounts.js';
import { latestOf, transactionOf, TX_COLUMNS, type TransactionRecord } from './records.js';

/** IndexReader.transactionPeerStates: what the address book needs of the accounts a page mentions. */
export interface PeerStates extends AddressBookStates {
  /** Those with a row in a token table (tokens/reader.ts tokenContractSql), when asked; else none. */
  tokenContracts: string[];
}

export class TransactionReader {
  constructor(private readonly reads: SqlReads) {}

  async transactions(filter: TransactionFilter, sort: SortOrder, page: Page): Promise<TransactionRecord[]> {
    const where = new Where()
      .in('account', filter.accounts)
      .in('account', filter.excludeAccounts, true)
      .add('hash = ?', filter.hash)
      .add('lt = ?', filter.lt)
      .between('lt', filter.startLt, filter.endLt)
      .between('now', filter.startUtime, filter.endUtime)
      .add('block_workchain = ?', filter.workchain)
      .add('block_shard = ?', filter.shard === undefined ? undefined : signedShard(filter.shard))
      .add('block_seqno = ?', filter.seqno)
      .add('mc_seqno = ?', filter.mcSeqno)
      .in('trace_id', filter.traceIds);
    // Transactions of one block (or one masterchain round) sit in that lt range: bound the lt index
    // scan by it instead of reading every transaction.
    if (filter.mcSeqno !== undefined) {
      where.add(
        'lt BETWEEN (SELECT MIN(start_lt) FROM blocks WHERE mc_seqno = ?) AND (SELECT MAX(end_lt) FROM blocks WHERE mc_seqno = ?)',
        filter.mcSeqno,
        filter.mcSeqno,
      );
    }
    if (filter.workchain !== undefined && filter.shard !== undefined && filter.seqno !== undefined) {
      const key = [filter.workchain, signedShard(filter.shard), filter.seqno];
      where.add(
        'lt BETWEEN (SELECT start_lt FROM blocks WHERE workchain = ? AND shard = ? AND seqno = ?) AND (SELECT end_lt FROM blocks WHERE workchain = ? AND shard = ? AND seqno = ?)',
        ...key,
        ...key,
      );
    }
    const dir = orderSql(sort);
    const orderBy = filter.accounts?.length === 1 ? `account, lt ${dir}` : `lt ${dir}, account`;
    const rows = await this.reads.all(`SELECT ${TX_COLUMNS} FROM transactions ${where} ORDER BY ${orderBy} ${pageSql(page)}`, where.params);
    return rows.map(transactionOf);
  }

  /**
   * Transactions whose inbound (direction in) or outbound (out) message matches; both when no direction.
   * As in toncenter, an opcode selects inbound messages only.
   */
  async transactionsByMessage(filter: TransactionsByMessageFilter, page: Page): Promise<TransactionRecord[]> {
    const direction: Direction | undefined = filter.opcode !== undefined ? 'in' : filter.direction;
    // A message hash may be the message's own or its normalized hash: one index lookup for each.
    const hashColumns = filter.msgHash ? ['msg_hash', 'hash_norm'] : [undefined];
    const sides: string[] = [];
    const params: SqlValue[] = [];
    for (const side of ['in', 'out'] as const) {
      if (direction !== undefined && direction !== side) continue;
      const column = side === 'in' ? 'in_tx_hash' : 'out_tx_hash';
      for (const hashColumn of hashColumns) {
        const where = new Where()
          .add(`${hashColumn} = ?`, hashColumn ? filter.msgHash : undefined)
          .add('body_hash = ?', filter.bodyHash)
          .add('opcode = ?', filter.opcode)
          .add(`${column} IS NOT NULL`);
        sides.push(`SELECT ${column} FROM messages ${where}`);
        params.push(...where.params);
      }
    }
    const rows = await this.reads.all(
      `SELECT ${TX_COLUMNS} FROM transactions WHERE hash IN (${sides.join(' UNION ')}) ORDER BY lt DESC, account ${pageSql(page)}`,
      params,
    );
    return rows.map(transactionOf);
  }

  /**
   * The transactions on the other end of a transaction's messages: direction `in` the one that sent
   * its inbound message (its parent), `out` the ones that received its outbound messages (its
   * children), both when no direction. Oldest first, as toncenter lists them.
   */
  async adjacentTransactions(hash: Buffer, direction?: Direction): Promise<TransactionRecord[]> {
    const [tx] = await this.reads.all('SELECT doc FROM transactions WHERE hash = ?', [hash]);
    if (!tx) return [];
    const doc = splitTransactionDoc(text(tx.doc)).tail;
    const parts: string[] = [];
    const params: SqlValue[] = [];
    if (direction !== 'out' && doc.in_msg) {
      parts.push('SELECT out_tx_hash FROM messages WHERE msg_hash = ? AND out_tx_hash IS NOT NULL');
      params.push(Buffer.from(doc.in_msg, 'base64'));
    }
    if (direction !== 'in' && doc.out_msgs.length > 0) {
      parts.push(
        `SELECT in_tx_hash FROM messages WHERE msg_hash IN (${doc.out_msgs.map(() => '?').join(', ')}) AND in_tx_hash IS NOT NULL`,
      );
      params.push(...doc.out_msgs.map((m) => Buffer.from(m, 'base64')));
    }
    if (parts.length === 0) return [];
    const rows = await this.reads.all(
      `SELECT ${TX_COLUMNS} FROM transactions WHERE hash IN (${parts.join(' UNION ')}) ORDER BY lt ASC, account`,
      params,
    );
    return rows.map(transactionOf);
  }

  /**
   * What the address book of a page of transactions needs of every account it mentions (the transactions'
   * own accounts, the senders of their inbound messages and the receivers of their outbound ones): the
   * latest state (no BoCs) of those that have one, the domain of those that own one (dns/reader.ts), and,
   * `withTokenContracts`, which of them are token contracts (a row in a token table: their metadata is worth
   * a lookup; four index probes per account, so only pages that show metadata ask).
   * One query, run alongside the message lookup, so the address book waits for no later round trip.
   */
  async transactionPeerStates(
    accounts: readonly string[],
    inMessages: readonly Buffer[],
    outMessages: readonly Buffer[],
    withTokenContracts = false,
  ): Promise<PeerStates> {
    // The addresses as one small set (a UNION), joined to the states by primary key: an OR of the
    // three sources would make PostgreSQL filter every row of latest_account_states. The page's own
    // accounts are one term (an IN list), not one term each: SQLite refuses a compound SELECT of more
    // than 500 terms (a /traces page of 1,000 traces names more accounts than that).
    const parts: string[] =
      accounts.length > 0 ? [`SELECT account FROM latest_account_states WHERE account IN (${placeholders(accounts)})`] : [];
    const params: SqlValue[] = [...accounts];
    if (inMessages.length > 0) {
      parts.push(`SELECT source AS account FROM messages WHERE msg_hash IN (${placeholders(inMessages)})`);
      params.push(...inMessages);
    }
    if (outMessages.length > 0) {
      parts.push(`SELECT destination AS account FROM messages WHERE msg_hash IN (${placeholders(outMessages)})`);
      params.push(...outMessages);
    }
    if (parts.length === 0) return { states: [], domains: new Map(), tokenContracts: [] };
    const rows = await this.reads.all(
      `SELECT m.account, s.state_hash, s.status, s.balance, s.extra_currencies, s.frozen_hash, s.code_hash, s.data_hash, NULL AS code_boc, NULL AS data_boc,
              s.last_trans_hash, s.last_trans_lt, s.wallet, s.interfaces, (${ownDomainSql('m.account')}) AS domain,
              ${withTokenContracts ? `CASE WHEN ${tokenContractSql('m.account')} THEN 1 ELSE 0 END` : '0'} AS token_contract
       FROM (${parts.join(' UNION ')}) m LEFT JOIN latest_account_states s ON s.account = m.account
       WHERE m.account IS NOT NULL`,
      params,
    );
    const domains = new Map<string, string>();
    const tokenContracts: string[] = [];
    for (const row of rows) {
      if (row.domain !== null && row.domain !== undefined) domains.set(text(row.account), text(row.domain));
      if (int(row.token_contract) === 1) tokenContracts.push(text(row.account));
    }
    return { states: rows.filter((row) => row.state_hash !== null && row.state_hash !== undefined).map(latestOf), domains, tokenContracts };
  }
}
