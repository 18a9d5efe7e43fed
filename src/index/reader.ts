/**
 * The index's queries, one method per question v3 asks. Filters, orderings and their tie-breaks follow
 * toncenter's index (ton-index-go's crud layer):
 *   blocks        gen_utime, then masterchain first, shard, seqno (all in the requested direction)
 *   transactions  lt, then account ascending; one account: that account's lt order
 *   messages      "effective lt" (created_lt, or for an external-in message the lt of the transaction
 *                 it started), then hash
 * Records carry the stored JSON documents as text; api/v3 parses and merges them.
 */
import type { Block, BlockConsensus, BlockId } from '../chain/types.js';
import type { DetectedWallet } from '../ton/wallet-detect.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../ton/workchain.js';
import type { SqlReads, SqlRow, SqlValue } from './sql/driver.js';
import { bigint, bytes, int, optionalBytes, optionalText, signedShard, text, unsignedShard } from './sql/values.js';
import { orderSql, pageSql, placeholders, Where } from './sql/where.js';
import { TRACE_COLUMNS, traceRowOf, type TraceRow } from './traces/trace-row.js';
import { TokenReader, tokenContractSql } from './tokens/reader.js';
import { NftReader } from './tokens/nft-reader.js';
import { DnsReader, ownDomainSql } from './dns/reader.js';
import type { BlockFilter, Direction, MessageFilter, Page, SortOrder, TraceFilter, TransactionFilter, TransactionsByMessageFilter } from './types.js';

export interface TransactionRecord {
  hash: Buffer;
  account: string;
  lt: bigint;
  /** The v3 transaction JSON; `in_msg` is a message hash (or null) and `out_msgs` a list of hashes. */
  doc: string;
  stateBefore: Buffer;
  stateAfter: Buffer;
  /** The trace it belongs to (null only in an index whose trace back-fill has not run). */
  traceId: Buffer | null;
}

export interface MessageRecord {
  hash: Buffer;
  /** The v3 message JSON. */
  doc: string;
  /** Raw uppercase addresses; null for an external end. */
  source: string | null;
  destination: string | null;
  inTxHash: Buffer | null;
  outTxHash: Buffer | null;
}

export interface LatestStateRecord {
  account: string;
  stateHash: Buffer;
  status: 'active' | 'uninit' | 'frozen' | 'nonexist';
  balance: string;
  /** JSON `{"id": "amount"}`, null when the account holds none. */
  extraCurrencies: string | null;
  frozenHash: Buffer | null;
  codeHash: Buffer | null;
  dataHash: Buffer | null;
  codeBoc: Buffer | null;
  dataBoc: Buffer | null;
  lastTransHash: Buffer;
  lastTransLt: bigint;
  wallet: DetectedWallet | null;
  /** Interface names the code's get-methods say (tokens/method-ids.ts); [] when none or for wallets. */
  interfaces: string[];
}

/** IndexReader.transactionPeerStates: what the address book needs of the accounts a page mentions. */
export interface PeerStates {
  /** The latest states (accounts without one are left out). */
  states: LatestStateRecord[];
  /** account -> its address book domain. */
  domains: Map<string, string>;
  /** Those with a row in a token table (tokens/reader.ts tokenContractSql), when asked; else none. */
  tokenContracts: string[];
}

export interface AccountBalanceRecord {
  account: string;
  balance: string;
}

const TX_COLUMNS = 'hash, account, lt, doc, state_before, state_after, trace_id';
const MSG_COLUMNS = 'msg_hash, doc, source, destination, in_tx_hash, out_tx_hash';
const MC_SHARD = signedShard(WHOLE_SHARD);

/** What a /traces page may carry (api/v3/format/traces.ts sets them): see IndexReader.tracePage. */
export interface TracePageLimits {
  /** A trace with more transactions is listed without them. */
  perTrace: number;
  /** The most transactions one page carries. */
  perPage: number;
}

/** Why a trace of a page is listed without its transactions. */
export type TraceWithheld = 'too large' | 'page full';

export interface TracePage {
  /** In page order; `withheld` null: its transactions are in `transactions`. */
  traces: (TraceRow & { withheld: TraceWithheld | null })[];
  /** The carried traces' transactions, by trace in page order, then lt and account. */
  transactions: TransactionRecord[];
}

/** traces()'s statement, and its ORDER BY as [column, direction] pairs (tracePage repeats the order). */
function tracesSql(filter: TraceFilter, sort: SortOrder, page: Page): { sql: string; params: SqlValue[]; orderBy: [string, string][] } {
  const where = new Where();
  if (filter.account !== undefined) where.add('trace_id IN (SELECT trace_id FROM transactions WHERE account = ?)', filter.account);
  if (filter.traceIds && filter.traceIds.length > 0) where.in('trace_id', filter.traceIds);
  if (filter.txHashes && filter.txHashes.length > 0) {
    where.add(`trace_id IN (SELECT trace_id FROM transactions WHERE hash IN (${placeholders(filter.txHashes)}))`, ...filter.txHashes);
  }
  if (filter.msgHashes && filter.msgHashes.length > 0) {
    // The message's own hash or its normalized one: two index lookups (an OR would scan).
    const marks = placeholders(filter.msgHashes);
    where.add(
      `trace_id IN (SELECT trace_id FROM messages WHERE msg_hash IN (${marks}) UNION SELECT trace_id FROM messages WHERE hash_norm IN (${marks}))`,
      ...filter.msgHashes,
      ...filter.msgHashes,
    );
  }
  if (filter.mcSeqno !== undefined) where.add(`state = 'complete'`).add('mc_seqno_end = ?', filter.mcSeqno);
  where
    .add('end_utime >= ?', filter.startUtime)
    .add('end_utime <= ?', filter.endUtime)
    .add('end_lt >= ?', filter.startLt)
    .add('end_lt <= ?', filter.endLt);
  const dir = orderSql(sort);
  const byUtime = filter.startUtime !== undefined || filter.endUtime !== undefined;
  const orderBy: [string, string][] = [[byUtime ? 'end_utime' : 'end_lt', dir], ['trace_id', dir]];
  return {
    sql: `SELECT ${TRACE_COLUMNS.join(', ')} FROM traces ${where} ORDER BY ${orderBy.map(([c, d]) => `${c} ${d}`).join(', ')} ${pageSql(page)}`,
    params: where.params,
    orderBy,
  };
}

function blockOf(row: SqlRow): Block {
  const workchain = int(row.workchain);
  const seqno = int(row.seqno);
  const masterRef = row.master_ref_seqno === null || row.master_ref_seqno === undefined ? undefined : int(row.master_ref_seqno);
  const prev = JSON.parse(text(row.prev_blocks)) as [number, string, number, string, string][];
  const block: Block = {
    id: { workchain, shard: unsignedShard(row.shard), seqno, rootHash: bytes(row.root_hash), fileHash: bytes(row.file_hash) },
    globalId: int(row.global_id),
    version: int(row.version),
    genUtime: int(row.gen_utime),
    startLt: bigint(row.start_lt),
    endLt: bigint(row.end_lt),
    prevBlocks: prev.map(([w, s, n, r, f]): BlockId => ({ workchain: w, shard: BigInt(s), seqno: n, rootHash: Buffer.from(r, 'base64'), fileHash: Buffer.from(f, 'base64') })),
    stateRootHash: bytes(row.state_root_hash),
    randSeed: bytes(row.rand_seed),
    txCount: int(row.tx_count),
    isKeyBlock: int(row.key_block) !== 0,
    prevKeyBlockSeqno: int(row.prev_key_block_seqno),
    minRefMcSeqno: int(row.min_ref_mc_seqno),
  };
  if (row.consensus !== null && row.consensus !== undefined) {
    const c = JSON.parse(text(row.consensus)) as Omit<BlockConsensus, 'createdBy'> & { createdBy: string };
    block.consensus = { ...c, createdBy: Buffer.from(c.createdBy, 'base64') };
  }
  // Shard blocks are committed by a masterchain block; the ref is always the masterchain's whole shard.
  if (masterRef !== undefined) block.masterRef = { workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: masterRef };
  return block;
}

function transactionOf(row: SqlRow): TransactionRecord {
  return {
    hash: bytes(row.hash),
    account: text(row.account),
    lt: bigint(row.lt),
    doc: text(row.doc),
    stateBefore: bytes(row.state_before),
    stateAfter: bytes(row.state_after),
    traceId: optionalBytes(row.trace_id),
  };
}

function messageOf(row: SqlRow): MessageRecord {
  return {
    hash: bytes(row.msg_hash),
    doc: text(row.doc),
    source: optionalText(row.source),
    destination: optionalText(row.destination),
    inTxHash: optionalBytes(row.in_tx_hash),
    outTxHash: optionalBytes(row.out_tx_hash),
  };
}

function latestOf(row: SqlRow): LatestStateRecord {
  const wallet = optionalText(row.wallet);
  return {
    account: text(row.account),
    stateHash: bytes(row.state_hash),
    status: text(row.status) as LatestStateRecord['status'],
    balance: text(row.balance),
    extraCurrencies: optionalText(row.extra_currencies),
    frozenHash: optionalBytes(row.frozen_hash),
    codeHash: optionalBytes(row.code_hash),
    dataHash: optionalBytes(row.data_hash),
    codeBoc: optionalBytes(row.code_boc),
    dataBoc: optionalBytes(row.data_boc),
    lastTransHash: bytes(row.last_trans_hash),
    lastTransLt: bigint(row.last_trans_lt),
    wallet: wallet === null ? null : (JSON.parse(wallet) as DetectedWallet),
    interfaces: typeof row.interfaces === 'string' ? (JSON.parse(row.interfaces) as string[]) : [],
  };
}

export class IndexReader {
  /** The token tables' queries (tokens/reader.ts). */
  readonly tokens: TokenReader;
  /** The NFT tables' queries (tokens/nft-reader.ts). */
  readonly nfts: NftReader;
  /** dns_entries queries (dns/reader.ts). */
  readonly dns: DnsReader;

  constructor(private readonly driver: SqlReads) {
    this.tokens = new TokenReader(driver);
    this.nfts = new NftReader(driver);
    this.dns = new DnsReader(driver);
  }

  /** The first and the last indexed masterchain blocks, or null before the first block is written. */
  async masterchainRange(): Promise<{ first: Block; last: Block } | null> {
    const query = (dir: string) => `SELECT * FROM blocks WHERE workchain = -1 AND shard = ? ORDER BY seqno ${dir} LIMIT 1`;
    // Asked together: one round trip to a reader thread, not two.
    const [[last], [first]] = await Promise.all([this.driver.all(query('DESC'), [MC_SHARD]), this.driver.all(query('ASC'), [MC_SHARD])]);
    if (!last || !first) return null;
    return { first: blockOf(first), last: blockOf(last) };
  }

  /** The newest indexed masterchain seqno, -1 when the index is empty. */
  async lastMasterchainSeqno(): Promise<number> {
    const [row] = await this.driver.all('SELECT seqno FROM blocks WHERE workchain = -1 AND shard = ? ORDER BY seqno DESC LIMIT 1', [MC_SHARD]);
    return row ? int(row.seqno) : -1;
  }

  async masterchainBlockExists(seqno: number): Promise<boolean> {
    const rows = await this.driver.all('SELECT 1 AS found FROM blocks WHERE workchain = -1 AND shard = ? AND seqno = ?', [MC_SHARD, seqno]);
    return rows.length > 0;
  }

  async blocks(filter: BlockFilter, sort: SortOrder, page: Page): Promise<Block[]> {
    const where = new Where()
      .add('workchain = ?', filter.workchain)
      .add('shard = ?', filter.shard === undefined ? undefined : signedShard(filter.shard))
      .add('seqno = ?', filter.seqno)
      .add('root_hash = ?', filter.rootHash)
      .add('file_hash = ?', filter.fileHash)
      .add('mc_seqno = ?', filter.mcSeqno)
      .add('gen_utime >= ?', filter.startUtime)
      .add('gen_utime <= ?', filter.endUtime)
      // toncenter compares both lt bounds with the block's start_lt.
      .add('start_lt >= ?', filter.startLt)
      .add('start_lt <= ?', filter.endLt);
    const dir = orderSql(sort);
    const masterFirst = sort === 'asc' ? 'DESC' : 'ASC';
    const rows = await this.driver.all(
      `SELECT * FROM blocks ${where} ORDER BY gen_utime ${dir}, workchain ${masterFirst}, shard ${dir}, seqno ${dir} ${pageSql(page)}`,
      where.params,
    );
    return rows.map(blockOf);
  }

  /** The shard blocks a masterchain block commits (its shard state), in (workchain, shard) order. */
  async shardState(mcSeqno: number): Promise<Block[]> {
    const rows = await this.driver.all(
      `SELECT b.* FROM shard_state s JOIN blocks b ON b.workchain = s.workchain AND b.shard = s.shard AND b.seqno = s.seqno
       WHERE s.mc_seqno = ? ORDER BY b.workchain, b.shard, b.seqno`,
      [mcSeqno],
    );
    return rows.map(blockOf);
  }

  async transactions(filter: TransactionFilter, sort: SortOrder, page: Page): Promise<TransactionRecord[]> {
    const where = new Where()
      .in('account', filter.accounts)
      .in('account', filter.excludeAccounts, true)
      .add('hash = ?', filter.hash)
      .add('lt = ?', filter.lt)
      .add('lt >= ?', filter.startLt)
      .add('lt <= ?', filter.endLt)
      .add('now >= ?', filter.startUtime)
      .add('now <= ?', filter.endUtime)
      .add('block_workchain = ?', filter.workchain)
      .add('block_shard = ?', filter.shard === undefined ? undefined : signedShard(filter.shard))
      .add('block_seqno = ?', filter.seqno)
      .add('mc_seqno = ?', filter.mcSeqno)
      .in('trace_id', filter.traceIds);
    // Transactions of one block (or one masterchain round) sit in that lt range: bound the lt index
    // scan by it instead of reading every transaction.
    if (filter.mcSeqno !== undefined) {
      where.add('lt BETWEEN (SELECT MIN(start_lt) FROM blocks WHERE mc_seqno = ?) AND (SELECT MAX(end_lt) FROM blocks WHERE mc_seqno = ?)', filter.mcSeqno, filter.mcSeqno);
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
    const rows = await this.driver.all(`SELECT ${TX_COLUMNS} FROM transactions ${where} ORDER BY ${orderBy} ${pageSql(page)}`, where.params);
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
    const rows = await this.driver.all(
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
    const [tx] = await this.driver.all('SELECT doc FROM transactions WHERE hash = ?', [hash]);
    if (!tx) return [];
    const doc = JSON.parse(text(tx.doc)) as { in_msg: string | null; out_msgs: string[] };
    const parts: string[] = [];
    const params: SqlValue[] = [];
    if (direction !== 'out' && doc.in_msg) {
      parts.push('SELECT out_tx_hash FROM messages WHERE msg_hash = ? AND out_tx_hash IS NOT NULL');
      params.push(Buffer.from(doc.in_msg, 'base64'));
    }
    if (direction !== 'in' && doc.out_msgs.length > 0) {
      parts.push(`SELECT in_tx_hash FROM messages WHERE msg_hash IN (${doc.out_msgs.map(() => '?').join(', ')}) AND in_tx_hash IS NOT NULL`);
      params.push(...doc.out_msgs.map((m) => Buffer.from(m, 'base64')));
    }
    if (parts.length === 0) return [];
    const rows = await this.driver.all(`SELECT ${TX_COLUMNS} FROM transactions WHERE hash IN (${parts.join(' UNION ')}) ORDER BY lt ASC, account`, params);
    return rows.map(transactionOf);
  }

  /** Messages by hash (for a page of transactions), in no particular order. */
  async messagesByHash(hashes: readonly Buffer[]): Promise<MessageRecord[]> {
    if (hashes.length === 0) return [];
    const rows = await this.driver.all(`SELECT ${MSG_COLUMNS} FROM messages WHERE msg_hash IN (${hashes.map(() => '?').join(', ')})`, hashes);
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
      .add('created_at >= ?', filter.startUtime)
      .add('created_at <= ?', filter.endUtime)
      .add('created_lt >= ?', filter.startLt)
      .add('created_lt <= ?', filter.endLt);
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
      const rows = await this.driver.all(`${a.sql} UNION ${b.sql} ${tail}`, [...a.params, ...b.params]);
      return rows.map(messageOf);
    }
    // One address filter: lead with its column so the (address, sort_lt) index serves the order.
    const lead =
      typeof filter.source === 'string' && filter.destination === undefined
        ? 'source, '
        : typeof filter.destination === 'string' && filter.source === undefined
          ? 'destination, '
          : '';
    const rows = await this.driver.all(`SELECT ${MSG_COLUMNS} FROM messages ${where} ORDER BY ${lead}sort_lt ${dir}, msg_hash ${dir} ${pageSql(page)}`, where.params);
    return rows.map(messageOf);
  }

  /** v3 AccountState documents by state hash. */
  async accountStateDocs(hashes: readonly Buffer[]): Promise<Map<string, string>> {
    if (hashes.length === 0) return new Map();
    const rows = await this.driver.all(`SELECT hash, doc FROM account_states WHERE hash IN (${hashes.map(() => '?').join(', ')})`, hashes);
    return new Map(rows.map((row) => [bytes(row.hash).toString('base64'), text(row.doc)]));
  }

  /** The newest state of each account that has one (unknown accounts are left out). */
  async latestStates(accounts: readonly string[], withBocs: boolean): Promise<LatestStateRecord[]> {
    if (accounts.length === 0) return [];
    const columns = withBocs ? '*' : 'account, state_hash, status, balance, extra_currencies, frozen_hash, code_hash, data_hash, NULL AS code_boc, NULL AS data_boc, last_trans_hash, last_trans_lt, wallet, interfaces';
    const rows = await this.driver.all(`SELECT ${columns} FROM latest_account_states WHERE account IN (${accounts.map(() => '?').join(', ')})`, [...accounts]);
    return rows.map(latestOf);
  }

  /**
   * Traces by toncenter's filters (at most one of account, traceIds, txHashes, msgHashes), ordered by
   * end_lt (end_utime when a utime bound is given), then trace_id. `mcSeqno`: complete traces that ended
   * in that masterchain block.
   */
  async traces(filter: TraceFilter, sort: SortOrder, page: Page): Promise<TraceRow[]> {
    const { sql, params } = tracesSql(filter, sort, page);
    return (await this.driver.all(sql, params)).map(traceRowOf);
  }

  /**
   * A /traces page in one statement: the traces as traces() finds them and, joined to them, the
   * transactions of those the page carries (by trace in page order, then lt and account: each trace's
   * transactions_order). One round trip instead of two: the page's reads are a chain, and each link costs a
   * network round trip where PostgreSQL is on another host (on localhost the two forms take the same time:
   * index/traces/README.md).
   *
   * Which traces are carried is decided here, in page order: a trace over `limits.perTrace` transactions
   * never is (and spends nothing); the others are while the running total of their transactions stays
   * within `limits.perPage`. The total only grows, so the first trace that does not fit and every trace
   * after it are left without their transactions: the carried traces are a prefix of the page (less the
   * too large ones), and a client goes on from the first one left out.
   */
  async tracePage(filter: TraceFilter, sort: SortOrder, page: Page, limits: TracePageLimits): Promise<TracePage> {
    const { sql: pageOfTraces, params, orderBy } = tracesSql(filter, sort, page);
    const perTrace = Math.trunc(limits.perTrace);
    const ordered = (prefix: string) => orderBy.map(([column, dir]) => `${prefix}${column} ${dir}`).join(', ');
    const rows = await this.driver.all(
      `WITH page AS (${pageOfTraces}),
       spent AS (
         SELECT page.*, SUM(CASE WHEN transactions <= ${perTrace} THEN transactions ELSE 0 END)
                        OVER (ORDER BY ${ordered('')} ROWS UNBOUNDED PRECEDING) AS spent
         FROM page)
       SELECT spent.*,
              CASE WHEN spent.transactions > ${perTrace} THEN 'too large' WHEN spent.spent > ? THEN 'page full' END AS withheld,
              t.hash, t.account, t.lt, t.doc, t.state_before, t.state_after
       FROM spent LEFT JOIN transactions t
         ON t.trace_id = spent.trace_id AND spent.transactions <= ${perTrace} AND spent.spent <= ?
       ORDER BY ${ordered('spent.')}, t.lt, t.account`,
      [...params, limits.perPage, limits.perPage],
    );
    const traces: TracePage['traces'] = [];
    const transactions: TransactionRecord[] = [];
    let last: Buffer | undefined;
    for (const row of rows) {
      // A trace's rows are adjacent (the statement orders by the trace first); a left-out trace has one, without a transaction.
      const id = bytes(row.trace_id);
      if (!last?.equals(id)) traces.push({ ...traceRowOf(row), withheld: optionalText(row.withheld) as TraceWithheld | null });
      last = id;
      if (row.hash !== null && row.hash !== undefined) transactions.push(transactionOf(row));
    }
    return { traces, transactions };
  }

  /**
   * The transactions of these traces, by trace, then lt and account (a trace's transactions_order). /traces reads
   * them with its page (tracePage); this is the same read alone (tests, bench:traces' two-statement comparison).
   */
  async traceTransactions(traceIds: readonly Buffer[]): Promise<TransactionRecord[]> {
    if (traceIds.length === 0) return [];
    const rows = await this.driver.all(
      `SELECT ${TX_COLUMNS} FROM transactions WHERE trace_id IN (${traceIds.map(() => '?').join(', ')}) ORDER BY trace_id, lt, account`,
      traceIds,
    );
    return rows.map(transactionOf);
  }

  /** How much the index holds (benchmarks, diagnostics). */
  async counts(): Promise<{ blocks: number; transactions: number; messages: number; accounts: number }> {
    const count = async (table: string) => int((await this.driver.all(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
    return { blocks: await count('blocks'), transactions: await count('transactions'), messages: await count('messages'), accounts: await count('latest_account_states') };
  }

  /**
   * What the address book of a page of transactions needs of every account it mentions (the transactions'
   * own accounts, the senders of their inbound messages and the receivers of their outbound ones): the
   * latest state (no BoCs) of those that have one, the domain of those that own one (dns/reader.ts), and,
   * `withTokenContracts`, which of them are token contracts (a row in a token table: their metadata is worth
   * a lookup; four index probes per account, so only pages that show metadata ask).
   * One query, run alongside the message lookup, so the address book waits for no later round trip.
   */
  async transactionPeerStates(accounts: readonly string[], inMessages: readonly Buffer[], outMessages: readonly Buffer[], withTokenContracts = false): Promise<PeerStates> {
    // The addresses as one small set (a UNION), joined to the states by primary key: an OR of the
    // three sources would make PostgreSQL filter every row of latest_account_states. The page's own
    // accounts are one term (an IN list), not one term each: SQLite refuses a compound SELECT of more
    // than 500 terms (a /traces page of 1,000 traces names more accounts than that).
    const parts: string[] = accounts.length > 0 ? [`SELECT account FROM latest_account_states WHERE account IN (${placeholders(accounts)})`] : [];
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
    const rows = await this.driver.all(
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

  async topAccountsByBalance(page: Page): Promise<AccountBalanceRecord[]> {
    const rows = await this.driver.all(`SELECT account, balance FROM latest_account_states ORDER BY balance_order DESC, account ${pageSql(page)}`);
    return rows.map((row) => ({ account: text(row.account), balance: text(row.balance) }));
  }
}
