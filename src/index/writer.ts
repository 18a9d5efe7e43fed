/**
 * Writes sealed blocks into the index, one masterchain block per DB transaction: a reader sees a block
 * with all its transactions, messages and account states, or not at all. Writing a block again is
 * harmless (every insert is an idempotent upsert), which is what lets the catch-up overlap the live feed.
 */
import { blockRows, CodeBocCache } from './block-rows.js';
import type { SqlDriver } from './sql/driver.js';
import type { IndexedBlock } from './types.js';

export class IndexWriter {
  private readonly codeBocs = new CodeBocCache();

  constructor(private readonly driver: SqlDriver) {}

  async write(block: IndexedBlock): Promise<void> {
    await this.driver.write(blockRows(block, this.codeBocs));
  }
}
