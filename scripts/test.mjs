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
// Run alone, after the others: test/lite runs a real TON validator (~80 % of a core), so it neither slows their
// timing-sensitive tests nor is slowed by them; test/fuzz holds /healthcheck to 100 ms while it hammers a
// tongate, a bound another test file's CPU on two cores would decide instead of tongate.
const alone = files.filter((f) => f.startsWith(join('test', 'lite')) || f.startsWith(join('test', 'fuzz')));
const together = files.filter((f) => !alone.includes(f));
let status = 0;
for (const [group, groupConcurrency] of [
  [together, concurrency],
  [alone, '1'],
]) {
  if (group.length === 0) continue;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${groupConcurrency}`, '--test-timeout=300000', ...group],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) status = result.status ?? 1;
}
process.exit(status);
