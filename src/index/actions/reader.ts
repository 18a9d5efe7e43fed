/**
 * The actions' queries, with ton-index-go's filters and orders (`index/crud/crud_actions_v2.go`): by account
 * through `action_accounts` (an index range in the answer's order), by trace, action id, masterchain block, time
 * or lt of the trace's end, by the transactions or messages an action holds; the version filter on every one.
 * Order: the trace's end (lt, or utime when a time bound is given), trace_id, the action's end, action_id.
 *
 * Where toncenter's query builder lets one filter silently replace another, the rules are written out:
 * `action_id` given, only it (and the type filters) select; else `trace_id` without `account`, only it.
 * By transaction or message, the actions are those of the traces holding them, then kept when they hold one of
 * those transactions (their `transactions` list), then paged.
 */
import type { SqlReads, SqlRow, SqlValue } from '../sql/driver.js';
import { bigint, bytes, optionalBytes, text } from '../sql/values.js';
import { orderSql, pageSql, placeholders, Where } from '../sql/where.js';
import type { Page, SortOrder } from '../types.js';
import { PARENT_TYPES } from './action-types.js';
import { jettonWalletCandidates, type ActionTransactions } from './balance-changes.js';
import type { JettonWalletInfo, KnownContracts, TraceInput } from './trace-input.js';
import { actionHead, type ActionPart } from './action-part.js';
import { jvaultStakeWallets, knownContracts, traceInputs } from './trace-source.js';
import { traceRowOf } from '../traces/trace-row.js';

/** A trace's actions as a stream first matches them (ActionReader.accountsAt): the union of their accounts. */
export interface ActionAccounts {
  traceId: string;
  endLt: bigint;
  /** Its external message's normalized hash, else its trace id (`trace_external_hash_norm`). */
  key: string;
  accounts: Set<string>;
}

/** toncenter's ActionRequest with its time and lt window, as v3 parses it (parameter names kept). */
export interface ActionQuery {
  account?: string;
  tx_hash?: Buffer[];
  msg_hash?: Buffer[];
  action_id?: Buffer[];
  trace_id?: Buffer[];
  mc_seqno?: number;
  /** Bounds on the trace's end. */
  start_utime?: number;
  end_utime?: number;
  start_lt?: bigint;
  end_lt?: bigint;
  /** Only these types (instead of the supported ones). */
  action_type?: string[];
  exclude_action_type?: string[];
  /** The types the client understands (versions.ts, expanded). */
  supported: ReadonlySet<string>;
}

export interface StoredAction {
  traceId: Buffer;
  actionId: Buffer;
  /** The answer without `accounts` and `finality` (action-rows.ts). */
  doc: string;
  /** JSON array of raw addresses. */
  accounts: string;
}

const COLUMNS = 'A.trace_id, A.action_id, A.doc, A.accounts';

function storedAction(row: SqlRow): StoredAction {
  return { traceId: bytes(row.trace_id), actionId: bytes(row.action_id), doc: text(row.doc), accounts: text(row.accounts) };
}

/** The version filter: an understood type (or one asked for), and no understood ancestor. */
function typeConditions(where: Where, filter: Pick<ActionQuery, 'action_type' | 'exclude_action_type' | 'supported'>): void {
  if (filter.action_type && filter.action_type.length > 0) where.in('A.type', filter.action_type);
  else where.in('A.type', [...filter.supported]);
  where.in('A.type', filter.exclude_action_type, true);
  const hidden = PARENT_TYPES.filter((t) => filter.supported.has(t));
  if (hidden.length > 0)
    where.add(`(A.ancestors IS NULL OR NOT (${hidden.map(() => 'A.ancestors LIKE ?').join(' OR ')}))`, ...hidden.map((t) => `%,${t},%`));
}

export class ActionReader {
  constructor(private readonly driver: SqlReads) {}

  /** A page of actions (toncenter's /api/v3/actions). */
  async actions(filter: ActionQuery, sort: SortOrder, page: Page): Promise<StoredAction[]> {
    const byId = filter.action_id !== undefined && filter.action_id.length > 0;
    const byTrace = filter.trace_id !== undefined && filter.trace_id.length > 0;
    const byUtime = filter.start_utime !== undefined || filter.end_utime !== undefined;
    const viaAccount = filter.account !== undefined && !byId;
    const t = viaAccount ? 'AA' : 'A';
    const [traceEnd, actionEnd] = byUtime
      ? [`${t}.trace_end_utime`, viaAccount ? 'AA.action_end_utime' : 'A.end_utime']
      : [`${t}.trace_end_lt`, viaAccount ? 'AA.action_end_lt' : 'A.end_lt'];
    const where = new Where();
    const holding = await this.holdingTransactions(filter);
    if (byId) where.in('A.action_id', filter.action_id);
    else if (byTrace && !viaAccount) where.in('A.trace_id', filter.trace_id);
    else {
      if (viaAccount) where.add('AA.account = ?', filter.account);
      where.in(`${t}.trace_id`, filter.trace_id);
      where
        .add(`${t}.trace_end_utime >= ?`, filter.start_utime)
        .add(`${t}.trace_end_utime <= ?`, filter.end_utime)
        .add(`${t}.trace_end_lt >= ?`, filter.start_lt)
        .add(`${t}.trace_end_lt <= ?`, filter.end_lt)
        .add('A.trace_mc_seqno_end = ?', filter.mc_seqno);
      if (holding) {
        if (holding.traces.length === 0) return [];
        where.in('A.trace_id', holding.traces);
      }
    }
    typeConditions(where, filter);
    const from = viaAccount ? 'action_accounts AA JOIN actions A ON A.trace_id = AA.trace_id AND A.action_id = AA.action_id' : 'actions A';
    const dir = orderSql(sort);
    const order = `ORDER BY ${traceEnd} ${dir}, ${t}.trace_id ${dir}, ${actionEnd} ${dir}, ${t}.action_id ${dir}`;
    // Held transactions are checked on the documents: every action of those traces is read, then the page cut.
    const pageOf = holding && !byId ? '' : pageSql(page);
    const rows = (await this.driver.all(`SELECT ${COLUMNS} FROM ${from} ${where} ${order} ${pageOf}`, where.params)).map(storedAction);
    if (pageOf !== '' || !holding) return rows;
    const held = rows.filter((a) => (JSON.parse(a.doc) as { transactions: string[] }).transactions.some((h) => holding.hashes.has(h)));
    return held.slice(page.offset, page.offset + page.limit);
  }

  /** The transactions the tx_hash / msg_hash filters name, and their traces; undefined when neither is given. */
  private async holdingTransactions(filter: ActionQuery): Promise<{ hashes: Set<string>; traces: Buffer[] } | undefined> {
    const txHashes = filter.tx_hash ?? [];
    const msgHashes = filter.msg_hash ?? [];
    if (txHashes.length === 0 && msgHashes.length === 0) return undefined;
    const hashes = new Set(txHashes.map((h) => h.toString('base64')));
    if (msgHashes.length > 0) {
      const rows = await this.driver.all(
        `SELECT in_tx_hash, out_tx_hash FROM messages WHERE msg_hash IN (${placeholders(msgHashes)}) OR hash_norm IN (${placeholders(msgHashes)})`,
        [...msgHashes, ...msgHashes],
      );
      const found = new Set(
        rows.flatMap((r) =>
          [r.in_tx_hash, r.out_tx_hash].filter((h) => h !== null && h !== undefined).map((h) => bytes(h).toString('base64')),
        ),
      );
      if (txHashes.length > 0) {
        // Both filters: the transactions named by hash that also carry one of the messages.
        for (const h of [...hashes]) if (!found.has(h)) hashes.delete(h);
      } else {
        for (const h of found) hashes.add(h);
      }
    }
    if (hashes.size === 0) return { hashes, traces: [] };
    const keys: SqlValue[] = [...hashes].map((h) => Buffer.from(h, 'base64'));
    const rows = await this.driver.all(
      `SELECT DISTINCT trace_id FROM transactions WHERE hash IN (${placeholders(keys)}) AND trace_id IS NOT NULL`,
      keys,
    );
    return { hashes, traces: rows.map((r) => bytes(r.trace_id)) };
  }

  /** The actions of `traceIds` a client that understands `supported` is shown, by trace, in toncenter's order (start_lt, end_lt). */
  async ofTraces(traceIds: readonly Buffer[], supported: ReadonlySet<string>): Promise<Map<string, StoredAction[]>> {
    const byTrace = new Map<string, StoredAction[]>();
    if (traceIds.length === 0) return byTrace;
    const where = new Where().in('A.trace_id', [...traceIds]);
    typeConditions(where, { supported });
    const rows = await this.driver.all(
      `SELECT ${COLUMNS} FROM actions A ${where} ORDER BY A.trace_id, A.start_lt, A.end_lt, A.action_id`,
      where.params,
    );
    for (const action of rows.map(storedAction)) {
      const id = action.traceId.toString('base64');
      const list = byTrace.get(id);
      if (list) list.push(action);
      else byTrace.set(id, [action]);
    }
    return byTrace;
  }

  /**
   * Who the actions stored with masterchain block `seqno` concern (those of the traces that ended there, classified
   * with it): per trace (id, its end_lt, the key a stream names it by: its external message's normalized hash, else
   * its id), the union of its actions' accounts. What a stream matches its followed addresses against before it
   * reads any action (`everyActionOf`). One index range (actions_mc_seqno), no action's text.
   */
  async accountsAt(seqno: number): Promise<ActionAccounts[]> {
    const rows = await this.driver.all(
      `SELECT A.trace_id, A.trace_end_lt, A.accounts, T.external_hash_norm FROM actions A JOIN traces T ON T.trace_id = A.trace_id
       WHERE A.trace_mc_seqno_end = ?`,
      [seqno],
    );
    const byTrace = new Map<string, ActionAccounts>();
    for (const row of rows) {
      const traceId = bytes(row.trace_id).toString('base64');
      let trace = byTrace.get(traceId);
      if (!trace) {
        const norm = optionalBytes(row.external_hash_norm)?.toString('base64');
        byTrace.set(traceId, (trace = { traceId, endLt: bigint(row.trace_end_lt), key: norm ?? traceId, accounts: new Set() }));
      }
      for (const account of JSON.parse(text(row.accounts)) as string[]) trace.accounts.add(account);
    }
    return [...byTrace.values()];
  }

  /**
   * Every action of `traceIds` (base64), whatever its type, with what a stream filters on per client (type,
   * ancestors, accounts), by trace, in the order toncenter's stream sends them (end_lt, then start_lt, newest first).
   */
  async everyActionOf(traceIds: readonly string[]): Promise<Map<string, ActionPart[]>> {
    const byTrace = new Map<string, ActionPart[]>();
    if (traceIds.length === 0) return byTrace;
    const keys = traceIds.map((id) => Buffer.from(id, 'base64'));
    const rows = await this.driver.all(
      `SELECT A.trace_id, A.type, A.ancestors, A.accounts, A.doc FROM actions A WHERE A.trace_id IN (${placeholders(keys)})
       ORDER BY A.trace_id, A.end_lt DESC, A.start_lt DESC, A.action_id`,
      keys,
    );
    for (const row of rows) {
      const id = bytes(row.trace_id).toString('base64');
      const ancestors =
        row.ancestors === null
          ? []
          : text(row.ancestors)
              .split(',')
              .filter((t) => t !== '');
      const part: ActionPart = {
        head: actionHead(text(row.doc), text(row.accounts)),
        type: text(row.type),
        accounts: JSON.parse(text(row.accounts)) as string[],
        ancestorTypes: ancestors,
      };
      const list = byTrace.get(id);
      if (list) list.push(part);
      else byTrace.set(id, [part]);
    }
    return byTrace;
  }

  /**
   * The contracts the index knows among `accounts`, as a sealed trace's classification reads them (token contracts,
   * sales, auctions, orders, DEX pools, nominator pools), and the JVault stake wallets among `stakeWallets`: what a
   * pending or emulated trace's classification reads from the index.
   */
  async knownContracts(accounts: Iterable<string>, stakeWallets: Iterable<string> = []): Promise<KnownContracts> {
    const [known, jvault] = await Promise.all([knownContracts(this.driver, accounts), jvaultStakeWallets(this.driver, stakeWallets)]);
    return { ...known, jvaultStakeWallets: jvault };
  }

  /** The trace of an action (toncenter's /balanceChanges by action_id), null when no action has that id. */
  async traceOfAction(actionId: Buffer): Promise<Buffer | null> {
    const [row] = await this.driver.all('SELECT trace_id FROM actions WHERE action_id = ? LIMIT 1', [actionId]);
    return row ? bytes(row.trace_id) : null;
  }

  /** What /balanceChanges computes from (balance-changes.ts): the trace, its jetton wallets, its actions' transactions; null for no such trace. */
  async balanceInputs(
    traceId: Buffer,
  ): Promise<{ trace: TraceInput; wallets: ReadonlyMap<string, JettonWalletInfo>; actions: ActionTransactions[] } | null> {
    const [row] = await this.driver.all('SELECT * FROM traces WHERE trace_id = ?', [traceId]);
    if (!row) return null;
    const [trace] = await traceInputs(this.driver, [traceRowOf(row)]);
    if (trace.transactions.length === 0) return null;
    const [{ jettonWallets }, actions] = await Promise.all([
      knownContracts(this.driver, jettonWalletCandidates(trace)),
      this.driver.all('SELECT action_id, type, doc FROM actions WHERE trace_id = ?', [traceId]),
    ]);
    return {
      trace,
      wallets: jettonWallets,
      actions: actions.map((a) => ({
        actionId: bytes(a.action_id).toString('base64'),
        type: text(a.type),
        transactions: (JSON.parse(text(a.doc)) as { transactions: string[] }).transactions,
      })),
    };
  }

  /** toncenter's classification_state of each classified trace among `traceIds` (base64 -> state). */
  async classificationStates(traceIds: readonly Buffer[]): Promise<Map<string, string>> {
    if (traceIds.length === 0) return new Map();
    const rows = await this.driver.all(`SELECT trace_id, state FROM trace_classifications WHERE trace_id IN (${placeholders(traceIds)})`, [
      ...traceIds,
    ]);
    return new Map(rows.map((r) => [bytes(r.trace_id).toString('base64'), text(r.state)]));
  }
}

/** An action's answer: its stored document, `accounts` when asked, `transactions_full` when given, and `finality`. */
export function actionText(action: StoredAction, options: { accounts?: boolean; transactions?: string[] } = {}): string {
  let answer = options.accounts ? actionHead(action.doc, action.accounts) : action.doc.slice(0, -1);
  if (options.transactions && options.transactions.length > 0) answer += `,"transactions_full":[${options.transactions.join(',')}]`;
  return `${answer},"finality":"finalized"}`;
}
