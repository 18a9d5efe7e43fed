/**
 * Detections the chain did not answer, tried again at later blocks. A candidate's get-methods can fail without saying
 * anything about the contract: no answer within GET_METHOD_TIMEOUT_MS (a liteserver that hangs or is busy catching
 * up; a local chain's are not timed: IndexFeed.getMethodsAlwaysAnswer), or the chain's own error (a liteserver down). Such a contract used to stay undetected until its next change,
 * which for a multisig or a vesting wallet may be never. "Not this kind" answers (a wrong stack: NotThatContract) are
 * not failures here: they are remembered by code hash (contracts.ts) and never asked again.
 *
 * The rule, in one place for every detector (jetton, NFT, sale, multisig, order, vesting: ContractReads.detect;
 * a domain item's DNS read: src/index/dns):
 *   - a failed candidate is asked again at the same state (its block's masterchain seqno), RETRY_DELAYS blocks after
 *     each failure (1, then 2, then 4: back-off), at most RETRY_DELAYS.length times, then given up;
 *   - a newer state of the account met in a later group replaces the retry (that state is detected then);
 *   - at most MAX_WAITING accounts wait (the oldest forgotten first): a chain down for long does not grow this.
 * A contract found late, by a retry or at the newer state that replaced one, is reported with the block of the
 * account's first failed state (TokenDetector.detectGroup: `lateFinds`): the traces classified since then without
 * it are classified again (src/index/actions/late-finds.ts). That block (`since`) is kept while the account fails
 * on: a newer state that replaced the retry and failed too waits with the older `since`, and an account given up
 * after its last retry is remembered by it (at most MAX_WAITING of them, the oldest forgotten first), so when its
 * next change is detected, that is a late find from the first failed block too.
 *
 * Kept in the store too (`token_detection_failures`, migration 17: detection-retry-schema.ts), so a restart goes on
 * with them: a retry that waited is run at the first group after it, and an account given up is still a late find at
 * its next change. Memory is what the detector goes by; the accounts changed since are written with the block
 * committer's next group (changes(), in its DB transaction: a failure noted, a retry taken out or succeeded, an account
 * met again), and read back at start (load()). A group whose write failed has its blocks written again, so memory is
 * read back from the store then (forget()): what the failed group changed is as if it never ran. A snapshot restore
 * (../rewind.ts) has memory read back too (rewound()): the store then holds the failures of the restored states only.
 * The token back-fill's groups change memory too; what they changed goes with the committer's next group (a restart
 * before it runs such a retry again: its late find is written twice, which is one walk).
 * Blocks, not seconds: the index moves by blocks, and a test drives them without a clock.
 */
import type { InsertBatch, SqlReads } from '../sql/driver.js';
import { int, optionalText, text } from '../sql/values.js';
import type { TokenAccountCandidate } from './block-tokens.js';
import { DETECTION_FAILURE_COLUMNS, DETECTION_FAILURES_MIGRATION, DETECTION_FAILURES_TABLE } from './detection-retry-schema.js';

/** Blocks to wait after the 1st, 2nd, 3rd failure; a 4th failure gives the candidate up. */
export const RETRY_DELAYS = [1, 2, 4] as const;
const MAX_WAITING = 10_000;

export interface Retry {
  candidate: TokenAccountCandidate;
  /** The masterchain seqno its state is asked at (the block it was met in). */
  seqno: number;
  /** Failures so far. */
  failures: number;
  /** The masterchain seqno of the account's first failed state (`seqno`, or older when a newer state failed too). */
  since: number;
}

/** What a group writes to bring `token_detection_failures` to memory: rows upserted, statements deleting (run first). */
export interface RetryChanges {
  batches: InsertBatch[];
  before: string[];
}

interface GivenUp {
  since: number;
  seqno: number;
  failures: number;
  noted: number;
}

const DELETE_CHUNK = 500;
const quoted = (value: string): string => `'${value.replaceAll("'", "''")}'`;

export class DetectionRetries {
  /** By account: only its newest failed state waits. */
  private readonly waiting = new Map<string, Retry & { dueAt: number; noted: number }>();
  /** Accounts given up after their last retry, by the block of their first failed state. */
  private readonly givenUp = new Map<string, GivenUp>();
  /** Accounts changed since the last changes(): their rows are written (or deleted) with the next group. */
  private readonly dirty = new Set<string>();
  /** The order failures were noted in (kept in the store: the oldest is forgotten first past the bound, after a restart too). */
  private noted = 0;
  /** The store's rows read (once; again after forget()). */
  private loading: Promise<void> | undefined;
  /** Whether the store has the table (a store an earlier tongate's schema was given has not: kept in memory only). */
  private persisted = false;

  constructor(private readonly delays: readonly number[] = RETRY_DELAYS) {}

  /** A detection the chain did not answer (`failures` before this one: 0 for a first try), noticed at block `now`. */
  failed(retry: Retry, now: number): void {
    const failures = retry.failures + 1;
    const account = retry.candidate.account;
    this.waiting.delete(account);
    this.givenUp.delete(account);
    this.dirty.add(account);
    const noted = ++this.noted;
    if (failures > this.delays.length) {
      if (this.givenUp.size >= MAX_WAITING) this.dirty.add(this.evict(this.givenUp));
      this.givenUp.set(account, { since: retry.since, seqno: retry.seqno, failures, noted });
      return;
    }
    if (this.waiting.size >= MAX_WAITING) this.dirty.add(this.evict(this.waiting));
    this.waiting.set(account, { ...retry, failures, dueAt: now + this.delays[failures - 1], noted });
  }

  /**
   * The retries due at block `now`, taken out (a failure puts them back through failed()). The accounts a group
   * detects anyway (`metNow`: a newer state) are dropped first, waiting or given up.
   */
  due(now: number, metNow: ReadonlySet<string>): Retry[] {
    const due: Retry[] = [];
    for (const account of metNow) if (this.givenUp.delete(account)) this.dirty.add(account);
    for (const [account, entry] of this.waiting) {
      if (metNow.has(account)) {
        this.waiting.delete(account);
        this.dirty.add(account);
      } else if (entry.dueAt <= now) {
        this.waiting.delete(account);
        this.dirty.add(account);
        due.push({ candidate: entry.candidate, seqno: entry.seqno, failures: entry.failures, since: entry.since });
      }
    }
    return due;
  }

  /**
   * Of `accounts`, those waiting or given up, with the block of their first failed state. Asked before due() drops
   * the ones a group meets again: when the newer state is detected, what was indexed since the failed block was
   * indexed without it; when it fails too, it waits with that block.
   */
  failedAt(accounts: ReadonlySet<string>): Map<string, number> {
    const failed = new Map<string, number>();
    for (const account of accounts) {
      const since = this.waiting.get(account)?.since ?? this.givenUp.get(account)?.since;
      if (since !== undefined) failed.set(account, since);
    }
    return failed;
  }

  /** Accounts waiting (for tests and metrics). */
  get size(): number {
    return this.waiting.size;
  }

  /** The failures kept in the store, read once before the first group (and again after forget()). */
  load(reads: SqlReads): Promise<void> {
    this.loading ??= this.read(reads).catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** A group's write failed: memory is read back from the store before the next group (its blocks are written again). */
  forget(): void {
    if (this.persisted) this.loading = undefined;
  }

  /**
   * The index was put back to an earlier block (a devnet snapshot restore, ../rewind.ts), which deleted the failures
   * of later states from the store (rewind-tokens.ts): memory is dropped and read back before the next group, as at a
   * start, so no retry of a block that no longer exists runs. Called while nothing writes.
   */
  rewound(): void {
    this.waiting.clear();
    this.givenUp.clear();
    this.dirty.clear();
    this.noted = 0;
    this.loading = undefined;
  }

  /** The rows of the accounts changed since the last call, for the group being written (nothing before load()). */
  changes(): RetryChanges {
    if (!this.persisted || this.dirty.size === 0) return { batches: [], before: [] };
    const rows: Array<Array<string | number | null>> = [];
    const gone: string[] = [];
    for (const account of this.dirty) {
      const waiting = this.waiting.get(account);
      const givenUp = this.givenUp.get(account);
      if (waiting)
        rows.push([
          account,
          waiting.since,
          waiting.seqno,
          waiting.failures,
          waiting.dueAt,
          candidateText(waiting.candidate),
          waiting.noted,
        ]);
      else if (givenUp) rows.push([account, givenUp.since, givenUp.seqno, givenUp.failures, null, null, givenUp.noted]);
      else gone.push(account);
    }
    this.dirty.clear();
    const before: string[] = [];
    for (let i = 0; i < gone.length; i += DELETE_CHUNK)
      before.push(
        `DELETE FROM ${DETECTION_FAILURES_TABLE} WHERE account IN (${gone
          .slice(i, i + DELETE_CHUNK)
          .map(quoted)
          .join(', ')})`,
      );
    const updates = DETECTION_FAILURE_COLUMNS.filter((c) => c !== 'account').map((c) => `${c} = excluded.${c}`);
    const batches: InsertBatch[] =
      rows.length > 0
        ? [
            {
              table: DETECTION_FAILURES_TABLE,
              columns: DETECTION_FAILURE_COLUMNS,
              rows,
              conflict: `ON CONFLICT (account) DO UPDATE SET ${updates.join(', ')}`,
            },
          ]
        : [];
    return { batches, before };
  }

  private async read(reads: SqlReads): Promise<void> {
    const [migrated] = await reads.all(`SELECT version FROM index_migrations WHERE version = ${DETECTION_FAILURES_MIGRATION.version}`);
    if (!migrated) return;
    const rows = await reads.all(`SELECT ${DETECTION_FAILURE_COLUMNS.join(', ')} FROM ${DETECTION_FAILURES_TABLE} ORDER BY noted, account`);
    this.waiting.clear();
    this.givenUp.clear();
    this.dirty.clear();
    this.noted = 0;
    for (const row of rows) {
      const account = text(row.account);
      const entry = { since: int(row.since), seqno: int(row.seqno), failures: int(row.failures), noted: int(row.noted) };
      this.noted = Math.max(this.noted, entry.noted);
      const candidate = optionalText(row.candidate);
      if (row.due_at === null || candidate === null) this.givenUp.set(account, entry);
      else this.waiting.set(account, { ...entry, candidate: candidateOf(account, candidate), dueAt: int(row.due_at) });
    }
    this.persisted = true;
  }

  /** Takes out the oldest entry of `map` (insertion order: the order failures were noted in); its account. */
  private evict(map: Map<string, unknown>): string {
    const oldest = map.keys().next().value as string;
    map.delete(oldest);
    return oldest;
  }
}

/** A candidate as the store keeps it (JSON: the hashes in hex, the lt as a string). */
function candidateText(candidate: TokenAccountCandidate): string {
  return JSON.stringify({
    codeHash: Buffer.from(candidate.codeHash).toString('hex'),
    dataHash: Buffer.from(candidate.dataHash).toString('hex'),
    lastTxLt: candidate.lastTxLt.toString(),
    methods: candidate.methods,
    ...(candidate.libraryHash === undefined ? {} : { libraryHash: candidate.libraryHash }),
  });
}

function candidateOf(account: string, stored: string): TokenAccountCandidate {
  const json = JSON.parse(stored) as {
    codeHash: string;
    dataHash: string;
    lastTxLt: string;
    methods: TokenAccountCandidate['methods'];
    libraryHash?: string;
  };
  return {
    account,
    codeHash: Buffer.from(json.codeHash, 'hex'),
    dataHash: Buffer.from(json.dataHash, 'hex'),
    lastTxLt: BigInt(json.lastTxLt),
    methods: json.methods,
    ...(json.libraryHash === undefined ? {} : { libraryHash: json.libraryHash }),
  };
}
