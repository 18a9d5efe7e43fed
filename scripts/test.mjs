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
const lite = files.filter((f) => f.startsWith(join('test', 'lite')));
const fuzz = files.filter((f) => f.startsWith(join('test', 'fuzz')));
const together = files.filter((f) => !lite.includes(f) && !fuzz.includes(f));
// test/lite once per TON network (test/support/ton-node.ts): catchain's and Simplex's block signatures, both of
// which a follower of mainnet meets in the chain's history.
const groups = [
  { files: together, concurrency },
  ...['ton-node', 'ton-node-simplex'].map((network) => ({ files: lite, concurrency: '1', env: { TONGATE_TON_NETWORK: network } })),
  { files: fuzz, concurrency: '1' },
];
let status = 0;
for (const group of groups) {
  if (group.files.length === 0) continue;
  if (group.env) console.log(`# ${Object.entries(group.env).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${group.concurrency}`, '--test-timeout=300000', ...group.files],
    { stdio: 'inherit', env: { ...process.env, ...group.env } },
  );
  if (result.status !== 0) status = result.status ?? 1;
}
process.exit(status);
