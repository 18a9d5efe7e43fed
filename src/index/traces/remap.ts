/**
 * Gives a block's rows the ids of the traces they continue: the render thread wrote each local
 * trace's root hash as trace_id (it cannot know earlier blocks); the linker says which roots stand for
 * another trace. Only blocks with such roots pay for the walk.
 */
import type { InsertBatch } from '../sql/driver.js';

export function applyTraceRemap(batches: InsertBatch[], remap: Map<string, string>): void {
  for (const batch of batches) {
    if (batch.table !== 'transactions' && batch.table !== 'messages') continue;
    const column = batch.columns.indexOf('trace_id');
    for (const row of batch.rows) {
      const value = row[column];
      if (!Buffer.isBuffer(value)) continue;
      const id = remap.get(value.toString('base64'));
      if (id !== undefined) row[column] = Buffer.from(id, 'base64');
    }
  }
}
