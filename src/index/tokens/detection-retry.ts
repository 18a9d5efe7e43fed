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
 * next change is detected, that is a late find from the first failed block too. Kept in memory: a restart forgets
 * the retries and the accounts given up (their contracts are detected at their next change, without a late find).
 * Blocks, not seconds: the index moves by blocks, and a test drives them without a clock.
 */
import type { TokenAccountCandidate } from './block-tokens.js';

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

export class DetectionRetries {
  /** By account: only its newest failed state waits. */
  private readonly waiting = new Map<string, Retry & { dueAt: number }>();
  /** Accounts given up after their last retry, by the block of their first failed state. */
  private readonly givenUp = new Map<string, number>();

  constructor(private readonly delays: readonly number[] = RETRY_DELAYS) {}

  /** A detection the chain did not answer (`failures` before this one: 0 for a first try), noticed at block `now`. */
  failed(retry: Retry, now: number): void {
    const failures = retry.failures + 1;
    const account = retry.candidate.account;
    this.waiting.delete(account);
    if (failures > this.delays.length) {
      this.givenUp.delete(account);
      if (this.givenUp.size >= MAX_WAITING) this.givenUp.delete(this.givenUp.keys().next().value as string);
      this.givenUp.set(account, retry.since);
      return;
    }
    this.givenUp.delete(account);
    if (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value as string);
    this.waiting.set(account, { ...retry, failures, dueAt: now + this.delays[failures - 1] });
  }

  /**
   * The retries due at block `now`, taken out (a failure puts them back through failed()). The accounts a group
   * detects anyway (`metNow`: a newer state) are dropped first, waiting or given up.
   */
  due(now: number, metNow: ReadonlySet<string>): Retry[] {
    const due: Retry[] = [];
    for (const account of metNow) this.givenUp.delete(account);
    for (const [account, entry] of this.waiting) {
      if (metNow.has(account)) {
        this.waiting.delete(account);
      } else if (entry.dueAt <= now) {
        this.waiting.delete(account);
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
      const since = this.waiting.get(account)?.since ?? this.givenUp.get(account);
      if (since !== undefined) failed.set(account, since);
    }
    return failed;
  }

  /** Accounts waiting (for tests and metrics). */
  get size(): number {
    return this.waiting.size;
  }
}
