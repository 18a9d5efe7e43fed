/**
 * Writes sealed blocks into the index in this thread: each block rendered to rows here, then
 * committed by a BlockCommitter (blocks that wait while another is written go together, in one DB
 * transaction). A reader sees a block with all its transactions, messages and account states, or not
 * at all. Writing a block again is harmless (every insert is an idempotent upsert), which is what
 * lets the catch-up overlap the live feed.
 *
 * The chain's own path renders and writes in two threads instead (worker/worker-writer.ts); this one
 * serves tests, tools and `attach` with `thread: 'main'`.
 */
import { BlockCommitter } from './block-committer.js';
import { CodeBocCache, renderBlock } from './block-rows.js';
import type { InsertBatch, SqlDriver } from './sql/driver.js';
import type { GetMethodRunner } from './tokens/get-methods.js';
import { backfillTokens, type TokenBackfillOptions, type TokenBackfillOutcome } from './tokens/backfill.js';
import type { IndexedBlock } from './types.js';
import { backfillActions, type ActionsBackfillOptions, type ActionsBackfillOutcome } from './actions/backfill.js';

export class IndexWriter {
  private readonly codeBocs = new CodeBocCache();
  private readonly committer: BlockCommitter;

  /** `lateFindsPerGroup`: transactions of late-found accounts walked per group (actions/late-finds.ts; a test makes it small). */
  constructor(
    private readonly driver: SqlDriver,
    lateFindsPerGroup?: number,
  ) {
    this.committer = new BlockCommitter(driver, undefined, undefined, [], lateFindsPerGroup);
  }

  /** Rows that are no block's (the fetched token metadata), in one transaction. */
  writeRows(rows: InsertBatch[]): Promise<void> {
    return this.driver.write(rows);
  }

  /** Token detection runs get-methods with `runner` from now on (without: only known wallets' events are kept). */
  useGetMethods(runner: GetMethodRunner, dnsRoots: readonly string[] = []): void {
    this.committer.useGetMethods(runner, dnsRoots);
  }

  /** The token back-fill (tokens/backfill.ts) with the detector blocks are committed with: `attach` with `thread: 'main'`, tests. */
  backfillTokens(options: TokenBackfillOptions = {}): Promise<TokenBackfillOutcome> {
    return backfillTokens(this.driver, () => this.committer.tokenDetector, {
      ...options,
      lateFindsStored: () => this.committer.lateFindsStored(),
    });
  }

  /** The actions back-fill (actions/backfill.ts) through this thread's connection: `attach` with `thread: 'main'`, tests. */
  backfillActions(options: ActionsBackfillOptions = {}): Promise<ActionsBackfillOutcome> {
    return backfillActions(this.driver, options);
  }

  /** The index was put back to an earlier block (../rewind.ts): what the committer holds of later ones is dropped. */
  rewound(): void {
    this.committer.rewound();
  }

  /** Resolves once the block is committed; rejects with what failed (rendering or writing). */
  write(block: IndexedBlock): Promise<void> {
    return this.committer.commit(renderBlock(block, this.codeBocs));
  }
}
