// Runs every test file under test/ with node's test runner (Node 20 has no glob for --test).
// Usage: node scripts/test.mjs [substring ...]  (only files whose path contains one of the substrings)
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = walk('test').filter((f) => filters.length === 0 || filters.some((s) => f.includes(s))).sort();
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
