import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkSizes } from '../../src/index/sql/postgres-driver.js';

test('PostgreSQL inserts: rows cut into chunks of at most nine shapes, within the parameter limit', () => {
  const shapes = new Set<number>();
  for (let total = 0; total <= 2000; total++) {
    const sizes = [...chunkSizes(total, 12)];
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      total,
      `${total} rows`,
    );
    for (const size of sizes) {
      assert.ok(size >= 1 && size <= 256 && (size & (size - 1)) === 0, `${size} is a power of two up to 256`);
      shapes.add(size);
    }
  }
  assert.equal(shapes.size, 9, 'one prepared statement per shape: 256, 128, ..., 1');
  assert.deepEqual([...chunkSizes(500, 12)], [256, 128, 64, 32, 16, 4]);
  // A table wider than 65,535 / 256 columns gets smaller chunks: every statement stays under the limit.
  const wide = [...chunkSizes(1000, 600)];
  assert.ok(wide.every((size) => size * 600 <= 65_535));
  assert.equal(
    wide.reduce((a, b) => a + b, 0),
    1000,
  );
});
