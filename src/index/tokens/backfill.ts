/**
 * Detects the token contracts of an index written before token detection (migration 7 left a cursor row in
 * index_backfill_cursors: backfill-schema.ts). Runs in the background beside live indexing, in the thread that
 * commits blocks (the store thread), with the detector blocks are committed with: the same get-methods through
 * the chain (Chain.runGetMethod, so a lite network back-fills the same way), the same "code hash X is not
 * interface Y" cache, the same rows.
 *
 * It reads the index, not the chain's internals: latest_account_states in account order, in groups of
 * `groupAccounts`. For each group:
 *   - the accounts whose code has a token get-method are detected at the index's newest masterchain seqno (their
 *     states are at or before it; a state that changed since was detected live and is newer, and the upserts keep
 *     the newest);
 *   - `first_lt` (toncenter's insertion order) is what live detection would have written: the account's last lt
 *     in the first masterchain block where it had its current code (read from its transactions and their
 *     account_states), not the lt of today's state;
 *   - the past transfers and burns of the wallets and items found are derived from the index's own message rows
 *     (an inbound jetton transfer/burn or NFT transfer, parsed as live blocks are; mc_seqno and trace_id as
 *     stored), so the event tables hold what a live index holds;
 *   - address_book `interfaces` of rows written before migration 4 are filled as the render thread fills them;
 *   - the rows, the interfaces and the cursor (the group's last account) are committed in one transaction: a
 *     restart resumes after the last group committed. The row is deleted at the end;
 *   - the live detector's retries that come due during a group run there (it is the same detector), and a waiting
 *     account met here is detected at its newer state: what they find late is written to `late_finds` in the
 *     group's transaction, so the block committer classifies the traces indexed without it again
 *     (../actions/late-finds.ts).
 * A second pass, its own cursor row ('auctions', left by migration 18: auctions-schema.ts), runs after this one the
 * same way over the accounts whose code offers a sale detector's method (get_sale_data, get_auction_data_v4,
 * get_fix_price_data_v4) only (known wallets left out by the query): an index written before auction detection met
 * its getgems auctions and refused them as no sale. No events and no interfaces there (the first pass's); each
 * auction the pass meets, found now or already there, is a late find from its first stored block, so the traces it
 * took part in (a put on auction, bids, a cancel) are classified again with it (../actions/late-finds.ts). The "not
 * that interface" cache is the running detector's, in memory: an older process's refusals are not in it.
 * A third pass ('sales_v4', left by migration 19: sales-v4-schema.ts) runs after it the same way over the accounts
 * whose code offers get_fix_price_data_v4: getgems' v4 sales, which an older tongate did not read (they answer no
 * get_sale_data). It asks the sale detector only, and writes those accounts' address_book interfaces as the render
 * thread names them now (an older one named none for that method).
 * Fixed-price sales, in any pass: a sale the group writes (the index did not hold it at its current state: an
 * index before migration 8 or 19, a detection missed) or whose first_lt it puts back (live detection met it first,
 * at a later state) is a late find from its first stored block too, so its purchase, cancel or listing traces,
 * classified without it, are classified again. A sale already held as live wrote it is not: its traces were
 * classified with it.
 * (Migrations 12, 13 and 15 put the first pass's cursor back, so an index before 8 has its sales found there.)
 * Accounts already detected at their current state (by live detection, or an earlier run) are skipped, so a
 * network that never ran without detection pays a scan, not a get-method per contract; one that live detection
 * met first at that state (it changed after the upgrade) gets its first_lt put back to the earlier one.
 * Throttled: after each group it pauses at least as long as the group took (at most half of one thread, which
 * runs at the index threads' low priority), so block commits and reads keep their pace; get-methods run on the
 * emulator read workers (local chain) or a liteserver (lite), never on the HTTP thread.
 */
import { Cell } from '@ton/core';
import { formatHash } from '../../ton/hash.js';
import type { InsertBatch, SqlDriver, SqlValue } from '../sql/driver.js';
import { bigint, bytes, int, optionalBytes, optionalText, text } from '../sql/values.js';
import type { BackfillLogger } from '../traces/backfill.js';
import { AUCTION_BACKFILL, SALE_V4_BACKFILL, TOKEN_BACKFILL } from './backfill-schema.js';
import {
  accountCandidate,
  eventOfBody,
  MethodCache,
  type BlockTokens,
  type TokenAccountCandidate,
  type TokenEventCandidate,
} from './block-tokens.js';
import type { LateFind, TokenDetector } from './detector.js';
import { lateFindBatch } from '../actions/late-finds-schema.js';
import { JETTON_BURN, JETTON_TRANSFER } from './jetton-messages.js';
import { interfacesOfMethods, type TokenMethod } from './method-ids.js';
import { NFT_TRANSFER } from './nft-messages.js';
import { TOKEN_STATE_TABLES } from './rewind-tokens.js';

export interface TokenBackfillWarnings extends BackfillLogger {
  warn?(object: object, message: string): void;
}

export interface TokenBackfillProgress {
  /** Accounts looked at so far (this run). */
  accounts: number;
  /** Contract rows written so far (this run). */
  contracts: number;
  /** The last account of the group just committed. */
  cursor: string;
  /** The pass: the token back-fill ('tokens'), the auctions' ('auctions') or the v4 sales' ('sales_v4'). */
  pass: BackfillPass;
}

/** The cursor rows the back-fill walks, in this order (backfill-schema.ts). */
export type BackfillPass = typeof TOKEN_BACKFILL | typeof AUCTION_BACKFILL | typeof SALE_V4_BACKFILL;

export interface TokenBackfillOptions {
  logger?: TokenBackfillWarnings;
  /** The network's DNS root collections (raw): an item of one is back-filled until it has its dns_entries row. */
  dnsRoots?: readonly string[];
  /** Accounts read per group (default 100). */
  groupAccounts?: number;
  /** The least pause between groups (default 20 ms); the pause is at least the group's own time. */
  pauseMs?: number;
  /** Asked before each group: true stops the run (the index is closing); the next start resumes. */
  stopped?: () => boolean;
  /** After each group committed. */
  onGroup?: (progress: TokenBackfillProgress) => void;
  /**
   * After a group that wrote late finds to `late_finds` was committed: the block committer (its
   * `lateFindsStored`) then classifies their traces again (../actions/late-finds.ts).
   */
  lateFindsStored?: () => void;
}

export type TokenBackfillOutcome = 'none' | 'done' | 'stopped';

const GROUP_ACCOUNTS = 100;
const MIN_PAUSE_MS = 20;
const PROGRESS_EVERY_MS = 2_000;
const LOOKUP_CHUNK = 500;
/** Transactions read per page while looking for an account's first state with its current code. */
const HISTORY_PAGE = 32;
/** A group that fails (PostgreSQL deadlocked with a block commit, a connection lost) is tried again this many times. */
const ATTEMPTS = 5;
const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;
const EVENT_OPCODES = [JETTON_TRANSFER, JETTON_BURN, NFT_TRANSFER];
/** What the sale passes ask: the sale detector's methods (readSaleContract), of the codes each pass looks at. */
const SALE_METHODS: readonly TokenMethod[] = ['get_sale_data', 'get_auction_data_v4', 'get_fix_price_data_v4'];

interface PassShape {
  /** Its log lines. */
  what: string;
  start: string;
  /** Which accounts it reads (a condition on latest_account_states). */
  accounts: string;
  /** The codes it asks: any of these methods (the sale detector only); null: every candidate, every detector. */
  asks: readonly TokenMethod[] | null;
}

/** Each pass's log lines, which accounts it reads and which codes it asks. */
const PASSES: Record<BackfillPass, PassShape> = {
  [TOKEN_BACKFILL]: {
    what: 'token back-fill',
    start: 'index: detecting the token contracts among the accounts indexed before token detection',
    accounts: '',
    asks: null,
  },
  // A known wallet's code is no sale contract: most accounts of a network are left out by the query.
  [AUCTION_BACKFILL]: {
    what: 'auction back-fill',
    start: 'index: detecting the NFT auctions among the accounts indexed before auction detection',
    accounts: ' AND wallet IS NULL',
    asks: SALE_METHODS,
  },
  // Only the codes an older tongate could not read (migration 19): the others were met by the passes before.
  [SALE_V4_BACKFILL]: {
    what: 'v4 sale back-fill',
    start: 'index: detecting the getgems v4 sales among the accounts indexed before their detection',
    accounts: ' AND wallet IS NULL',
    asks: ['get_fix_price_data_v4'],
  },
};

const marks = (list: readonly unknown[]) => list.map(() => '?').join(', ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface StoredAccount {
  account: string;
  lastTxLt: bigint;
  code: Cell;
  data: Cell | undefined;
  wallet: string | null;
  interfaces: string | null;
}

async function chunked(addresses: string[], query: (chunk: string[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < addresses.length; i += LOOKUP_CHUNK) await query(addresses.slice(i, i + LOOKUP_CHUNK));
}

/**
 * Candidates already detected at their current state (live, or by an earlier run): no get-method for them. Each
 * with the rows whose first_lt is that state's own lt: live detection met it first now (it changed after the
 * upgrade, before the back-fill came to it), so its first_lt may be later than a live index's.
 */
async function alreadyDetected(
  driver: SqlDriver,
  candidates: TokenAccountCandidate[],
  dnsRoots: ReadonlySet<string>,
): Promise<Map<string, string[]>> {
  const lt = new Map(candidates.map((c) => [c.account, c.lastTxLt]));
  const done = new Map<string, string[]>();
  await chunked([...lt.keys()], async (chunk) => {
    for (const table of TOKEN_STATE_TABLES) {
      const item = table === 'nft_items';
      const rows = await driver.all(
        item
          ? `SELECT i.address, i.last_transaction_lt, i.first_lt, i.collection_address, d.nft_item_address AS domain FROM nft_items i LEFT JOIN dns_entries d ON d.nft_item_address = i.address WHERE i.address IN (${marks(chunk)})`
          : `SELECT address, last_transaction_lt, first_lt FROM ${table} WHERE address IN (${marks(chunk)})`,
        chunk,
      );
      for (const row of rows) {
        const address = text(row.address);
        if (bigint(row.last_transaction_lt) !== lt.get(address)) continue;
        // An item of a DNS root detected before dns_entries existed (migration 5) still lacks its domain.
        if (item && dnsRoots.has(optionalText(row.collection_address) ?? '') && !row.domain) continue;
        const tables = done.get(address) ?? [];
        if (bigint(row.first_lt) === lt.get(address)) tables.push(table);
        done.set(address, tables);
      }
    }
  });
  return done;
}

/** Past jetton transfers/burns and NFT transfers received by `accounts`, from the index's message rows. */
async function storedEvents(
  driver: SqlDriver,
  accounts: string[],
): Promise<{ events: Map<number, TokenEventCandidate[]>; traces: Map<string, Buffer> }> {
  const events = new Map<number, TokenEventCandidate[]>();
  const traces = new Map<string, Buffer>();
  await chunked(accounts, async (chunk) => {
    const rows = await driver.all(
      `SELECT m.source, m.opcode, m.doc AS message, t.hash, t.account, t.lt, t.now, t.mc_seqno, t.trace_id, t.doc AS tx
       FROM messages m JOIN transactions t ON t.hash = m.in_tx_hash
       WHERE m.destination IN (${marks(chunk)}) AND m.opcode IN (${EVENT_OPCODES.join(', ')})`,
      chunk,
    );
    for (const row of rows) {
      // An external message has no source: live detection takes internal ones only.
      const source = optionalText(row.source);
      if (source === null) continue;
      const account = text(row.account);
      let body: Cell;
      try {
        body = Cell.fromBase64((JSON.parse(text(row.message)) as { message_content: { body: string } }).message_content.body);
      } catch {
        continue;
      }
      const description = (JSON.parse(text(row.tx)) as { description?: { type?: string; aborted?: boolean } }).description;
      const txHash = bytes(row.hash);
      const event = eventOfBody(
        {
          txHash,
          txLt: bigint(row.lt),
          txNow: int(row.now),
          aborted: description?.type === 'ord' && description.aborted === true,
          account,
          source,
        },
        int(row.opcode),
        body,
      );
      if (!event) continue;
      const seqno = int(row.mc_seqno);
      const list = events.get(seqno);
      if (list) list.push(event);
      else events.set(seqno, [event]);
      const trace = optionalBytes(row.trace_id);
      if (trace) traces.set(txHash.toString('base64'), trace);
    }
  });
  return { events, traces };
}

/**
 * What live detection wrote as the contract's first_lt: its last lt in the first masterchain block after which it
 * had its current code (detection runs on each block's newest state). Null when the index lacks its history.
 */
async function firstDetectedLt(driver: SqlDriver, account: string, codeHash: string): Promise<bigint | null> {
  let after = -1n;
  let found: { mcSeqno: number; lt: bigint } | null = null;
  for (;;) {
    const rows = await driver.all(
      `SELECT t.lt, t.mc_seqno, s.doc FROM transactions t LEFT JOIN account_states s ON s.hash = t.state_after
       WHERE t.account = ? AND t.lt > ? ORDER BY t.lt LIMIT ${HISTORY_PAGE}`,
      [account, after],
    );
    for (const row of rows) {
      const lt = bigint(row.lt);
      const mcSeqno = int(row.mc_seqno);
      if (found) {
        if (mcSeqno !== found.mcSeqno) return found.lt;
        found.lt = lt;
        continue;
      }
      const doc = optionalText(row.doc);
      if (doc && (JSON.parse(doc) as { code_hash?: string | null }).code_hash === codeHash) found = { mcSeqno, lt };
    }
    if (rows.length < HISTORY_PAGE) return found?.lt ?? null;
    after = bigint(rows[rows.length - 1].lt);
  }
}

/** The addresses of the rows `batches` write to `table`. */
function written(batches: readonly InsertBatch[], table: string): string[] {
  return batches.flatMap((batch) => {
    if (batch.table !== table) return [];
    const address = batch.columns.indexOf('address');
    return batch.rows.map((row) => String(row[address]));
  });
}

/**
 * The upsert of a back-filled contract: the newest state wins, as live (a state detected live since is newer), and
 * the earlier first_lt wins (live may have met the contract first during the back-fill, at a later lt).
 */
function backfillConflict(batch: InsertBatch): string {
  const t = batch.table;
  const newer = `excluded.last_transaction_lt >= ${t}.last_transaction_lt`;
  const sets = batch.columns
    .filter((c) => c !== 'address')
    .map((c) =>
      c === 'first_lt'
        ? `first_lt = CASE WHEN excluded.first_lt < ${t}.first_lt THEN excluded.first_lt ELSE ${t}.first_lt END`
        : `${c} = CASE WHEN ${newer} THEN excluded.${c} ELSE ${t}.${c} END`,
    );
  return `ON CONFLICT (address) DO UPDATE SET ${sets.join(', ')}`;
}

class TokenBackfill {
  private readonly methods = new MethodCache();
  private readonly dnsRoots: ReadonlySet<string>;
  accounts = 0;
  contracts = 0;

  constructor(
    private readonly driver: SqlDriver,
    private readonly detector: () => TokenDetector,
    private readonly options: TokenBackfillOptions,
    private readonly pass: BackfillPass,
  ) {
    this.dnsRoots = new Set(options.dnsRoots ?? []);
  }

  /** One group after `cursor`: committed with the cursor moved to its last account; null when none is left. */
  async group(cursor: string, size: number): Promise<string | null> {
    const rows = await this.driver.all(
      `SELECT account, code_boc, data_boc, last_trans_lt, wallet, interfaces FROM latest_account_states WHERE account > ?${PASSES[this.pass].accounts} ORDER BY account LIMIT ${Math.trunc(size)}`,
      [cursor],
    );
    if (rows.length === 0) return null;
    const last = text(rows[rows.length - 1].account);
    if (!RAW_ADDRESS.test(last)) throw new Error(`${PASSES[this.pass].what}: unexpected account key ${last}`);
    // After the states: each is at or before this seqno, so the get-methods see it (or a newer one, detected live).
    const [head] = await this.driver.all('SELECT MAX(seqno) AS seqno FROM blocks WHERE workchain = -1');
    const seqno = int(head.seqno);
    const stored: StoredAccount[] = rows.flatMap((row) => {
      const code = optionalBytes(row.code_boc);
      if (!code) return [];
      const data = optionalBytes(row.data_boc);
      return [
        {
          account: text(row.account),
          lastTxLt: bigint(row.last_trans_lt),
          code: Cell.fromBoc(code)[0],
          data: data ? Cell.fromBoc(data)[0] : undefined,
          wallet: optionalText(row.wallet),
          interfaces: optionalText(row.interfaces),
        },
      ];
    });

    // address_book interfaces, as block-rows.ts writes them, for rows written before migration 4 (guarded by lt:
    // a state written live since has its own). The first pass's; the v4 sales' below.
    const after: string[] = [];
    const auctions = this.pass === AUCTION_BACKFILL;
    const { asks } = PASSES[this.pass];
    for (const s of asks ? [] : stored) {
      if (s.interfaces !== null || s.wallet !== null || !RAW_ADDRESS.test(s.account)) continue;
      const names = interfacesOfMethods(this.methods.of(s.code));
      if (names.length === 0) continue;
      after.push(
        `UPDATE latest_account_states SET interfaces = '${JSON.stringify(names)}' WHERE account = '${s.account}' AND last_trans_lt = ${s.lastTxLt} AND interfaces IS NULL`,
      );
    }

    const candidates = stored.flatMap((s) => accountCandidate(s.account, s.code, s.data, s.lastTxLt, this.methods) ?? []);
    // The sale passes ask the codes with one of their methods, and the sale detector only (so no wallet or item
    // events either).
    const found = asks
      ? candidates.flatMap((c) => {
          if (!c.methods.some((m) => asks.includes(m))) return [];
          return [{ ...c, methods: c.methods.filter((m) => SALE_METHODS.includes(m)) }];
        })
      : candidates;
    // An older tongate named no interface for get_fix_price_data_v4: the v4 sales' names as block-rows.ts writes them
    // now (guarded by lt as above; an account whose names are already these is left alone).
    if (this.pass === SALE_V4_BACKFILL) {
      const codes = new Map(stored.map((s) => [s.account, s.code]));
      for (const c of found) {
        const code = codes.get(c.account);
        if (!code || !RAW_ADDRESS.test(c.account)) continue;
        const names = JSON.stringify(interfacesOfMethods(this.methods.of(code)));
        after.push(
          `UPDATE latest_account_states SET interfaces = '${names}' WHERE account = '${c.account}' AND last_trans_lt = ${c.lastTxLt} AND (interfaces IS NULL OR interfaces <> '${names}')`,
        );
      }
    }
    const skip = found.length > 0 ? await alreadyDetected(this.driver, found, this.dnsRoots) : new Map<string, string[]>();
    const lateFinds: LateFind[] = [];
    const batches = found.length > 0 ? await this.detect(found, skip, seqno, lateFinds) : [];
    // The sales this group writes: the index did not hold them at their current state, so the traces they took part
    // in were classified without them (an index before migration 8, or a detection missed).
    const late = new Set(written(batches, 'nft_sales'));
    for (const c of found) {
      const tables = skip.get(c.account) ?? [];
      if (tables.length === 0 || !RAW_ADDRESS.test(c.account)) continue;
      const first = await firstDetectedLt(this.driver, c.account, formatHash(c.codeHash));
      if (first === null || first >= c.lastTxLt) continue;
      for (const table of tables)
        after.push(`UPDATE ${table} SET first_lt = ${first} WHERE address = '${c.account}' AND first_lt > ${first}`);
      // A sale live detection met first after the upgrade: its earlier traces were classified without it.
      if (tables.includes('nft_sales')) late.add(c.account);
    }
    if (auctions && found.length > 0) for (const account of await this.auctionsAmong(found, batches)) late.add(account);
    lateFinds.push(...(await this.sinceFirstBlock(late)));
    after.push(`UPDATE index_backfill_cursors SET after_key = '${last}' WHERE name = '${this.pass}'`);
    // The live detector's retries due now ran here, as did the newer state of an account whose retry waited: what
    // they found late is written for the block committer to classify its traces again, with these rows (and the
    // sales and auctions above). Each find once: a retry due here may have found the same account at the same block.
    if (lateFinds.length > 0) batches.push(lateFindBatch([...new Map(lateFinds.map((f) => [`${f.account}|${f.since}`, f])).values()]));
    await this.driver.write(batches, [], after);
    if (lateFinds.length > 0) this.options.lateFindsStored?.();
    this.accounts += rows.length;
    return last;
  }

  /**
   * The auctions among `found` (written by this group, or already in nft_auctions): all of them are late finds, the
   * traces they took part in were classified without them (an older index refused them as no sale), or they were
   * detected since at a later state.
   */
  private async auctionsAmong(found: TokenAccountCandidate[], batches: InsertBatch[]): Promise<Set<string>> {
    const auctions = new Set(written(batches, 'nft_auctions'));
    await chunked(
      found.map((c) => c.account),
      async (chunk) => {
        const rows = await this.driver.all(`SELECT address FROM nft_auctions WHERE address IN (${marks(chunk)})`, chunk);
        for (const row of rows) auctions.add(text(row.address));
      },
    );
    return auctions;
  }

  /** Each account a late find from the first masterchain block the index holds a transaction of it in. */
  private async sinceFirstBlock(accounts: Iterable<string>): Promise<LateFind[]> {
    const finds: LateFind[] = [];
    for (const account of accounts) {
      const [first] = await this.driver.all('SELECT MIN(mc_seqno) AS seqno FROM transactions WHERE account = ?', [account]);
      if (first?.seqno !== null && first?.seqno !== undefined) finds.push({ account, since: int(first.seqno) });
    }
    return finds;
  }

  /**
   * The rows of the candidates not in `skip` through the live detector, first_lt as live would have written it, and
   * the past events of all of them (a contract detected live after an in-place upgrade to migration 4 still lacks
   * the events before it; an event already there is not written twice).
   */
  private async detect(
    found: TokenAccountCandidate[],
    skip: ReadonlyMap<string, string[]>,
    seqno: number,
    lateFinds: LateFind[],
  ): Promise<InsertBatch[]> {
    const candidates = found.filter((c) => !skip.has(c.account));
    const eventful = found.filter((c) => c.methods.includes('get_wallet_data') || c.methods.includes('get_nft_data')).map((c) => c.account);
    const { events, traces } = await storedEvents(this.driver, eventful);
    const blocks: BlockTokens[] = [
      { seqno, accounts: candidates, events: [] },
      ...[...events.entries()]
        .sort(([a], [b]) => a - b)
        .map(([mcSeqno, list]): BlockTokens => ({ seqno: mcSeqno, accounts: [], events: list })),
    ];
    const detected = await this.detector().detectGroup(blocks, (txHash) => traces.get(txHash.toString('base64')) ?? null);
    lateFinds.push(...detected.lateFinds);
    const batches = detected.batches;
    const codeHash = new Map(candidates.map((c) => [c.account, formatHash(c.codeHash)]));
    const firstLts = new Map<string, bigint | null>();
    const result: InsertBatch[] = [];
    for (const batch of batches) {
      if (!(TOKEN_STATE_TABLES as readonly string[]).includes(batch.table)) {
        result.push(batch);
        continue;
      }
      const address = batch.columns.indexOf('address');
      const first = batch.columns.indexOf('first_lt');
      const rows: SqlValue[][] = [];
      for (const row of batch.rows) {
        const account = String(row[address]);
        if (!firstLts.has(account)) firstLts.set(account, await firstDetectedLt(this.driver, account, codeHash.get(account) ?? ''));
        const lt = firstLts.get(account);
        rows.push(lt === null || lt === undefined ? row : row.map((value, i) => (i === first ? lt : value)));
      }
      this.contracts += rows.length;
      result.push({ ...batch, rows, conflict: backfillConflict(batch) });
    }
    return result;
  }
}

/**
 * Runs the back-fill passes the index's cursor rows ask for, if any ('tokens', 'auctions', then 'sales_v4'), each to its end (or
 * until `stopped`). `detector`: the detector live blocks are committed with (its caches are shared); asked per group,
 * since a writer may replace it.
 */
export async function backfillTokens(
  driver: SqlDriver,
  detector: () => TokenDetector,
  options: TokenBackfillOptions = {},
): Promise<TokenBackfillOutcome> {
  let outcome: TokenBackfillOutcome = 'none';
  for (const pass of [TOKEN_BACKFILL, AUCTION_BACKFILL, SALE_V4_BACKFILL] as const) {
    const passed = await backfillPass(driver, detector, options, pass);
    if (passed === 'stopped') return 'stopped';
    if (passed === 'done') outcome = 'done';
  }
  return outcome;
}

async function backfillPass(
  driver: SqlDriver,
  detector: () => TokenDetector,
  options: TokenBackfillOptions,
  pass: BackfillPass,
): Promise<TokenBackfillOutcome> {
  const [state] = await driver.all(`SELECT after_key FROM index_backfill_cursors WHERE name = '${pass}'`);
  if (!state) return 'none';
  const { what, start, accounts } = PASSES[pass];
  const logger = options.logger;
  const size = options.groupAccounts ?? GROUP_ACCOUNTS;
  let cursor = text(state.after_key);
  const [count] = await driver.all(`SELECT COUNT(*) AS n FROM latest_account_states WHERE account > ?${accounts}`, [cursor]);
  const total = int(count.n);
  logger?.info?.({ accounts: total, after: cursor || null }, start);
  const run = new TokenBackfill(driver, detector, options, pass);
  const started = Date.now();
  let reported = started;
  for (;;) {
    if (options.stopped?.()) return 'stopped';
    const groupStarted = Date.now();
    let next: string | null;
    for (let attempt = 1; ; attempt++) {
      try {
        next = await run.group(cursor, size);
        break;
      } catch (error) {
        if (options.stopped?.()) return 'stopped';
        if (attempt >= ATTEMPTS) throw error;
        logger?.warn?.({ err: error, after: cursor, attempt }, `index: a ${what} group failed; trying it again`);
        await sleep(1000 * attempt);
      }
    }
    if (next === null) break;
    cursor = next;
    options.onGroup?.({ accounts: run.accounts, contracts: run.contracts, cursor, pass });
    if (Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now();
      logger?.info?.(
        { accounts: run.accounts, of: total, contracts: run.contracts, percent: total ? Math.floor((run.accounts / total) * 100) : 100 },
        `index: ${what} progress`,
      );
    }
    await sleep(Math.max(options.pauseMs ?? MIN_PAUSE_MS, Date.now() - groupStarted));
  }
  await driver.write([], [`DELETE FROM index_backfill_cursors WHERE name = '${pass}'`]);
  logger?.info?.({ accounts: run.accounts, contracts: run.contracts, seconds: (Date.now() - started) / 1000 }, `index: ${what} done`);
  return 'done';
}
