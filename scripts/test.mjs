// Runs every test file under test/ with node's test runner (Node 20 has no glob for --test).
// Usage: node scripts/test.mjs [substring ...]  (only files whose path contains one of the substrings)
// Two groups run one after the other (below); each prints its tests as node's reporter does, and the run ends with
// one summary line for both (scripts/test-reporter.mjs keeps each group's own summary back).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
// tests nor is slowed by them; test/fuzz sends megabyte bodies to a tongate while it checks that the process stays
// responsive, which another test file's CPU on two cores would decide instead of tongate.
const alone = files.filter((f) => f.startsWith(join('test', 'lite')) || f.startsWith(join('test', 'fuzz')));
const together = files.filter((f) => !alone.includes(f));
// What node itself would use: spec on a terminal, tap otherwise.
const reporterKind = process.stdout.isTTY ? 'spec' : 'tap';
const reporter = fileURLToPath(new URL('./test-reporter.mjs', import.meta.url));
const summaries = mkdtempSync(join(tmpdir(), 'tongate-test-summary-'));
const started = performance.now();
const FIELDS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const total = Object.fromEntries(FIELDS.map((f) => [f, 0]));
const missing = [];
let status = 0;
for (const [name, group, groupConcurrency] of [
  ['together', together, concurrency],
  ['alone', alone, '1'],
]) {
  if (group.length === 0) continue;
  const summaryFile = join(summaries, `${name}.json`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${groupConcurrency}`, '--test-timeout=300000',
      `--test-reporter=${reporter}`, '--test-reporter-destination=stdout', ...group],
    { stdio: 'inherit', env: { ...process.env, TONGATE_TEST_SUMMARY: summaryFile, TONGATE_TEST_REPORTER: reporterKind } },
  );
  if (result.status !== 0) status = result.status ?? 1;
  try {
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    for (const f of FIELDS) total[f] += summary[f] ?? 0;
  } catch {
    missing.push(name); // the runner died before its summary (its exit status says so too)
  }
}
rmSync(summaries, { recursive: true, force: true });
if (missing.length > 0 && status === 0) status = 1;
const line = [
  ...FIELDS.map((f) => `${f} ${total[f]}`),
  `duration_ms ${Math.round(performance.now() - started)}`,
  ...(missing.length > 0 ? [`no summary from: ${missing.join(', ')}`] : []),
].join(', ');
console.log(`${reporterKind === 'tap' ? '#' : 'ℹ'} ${line}`);
process.exit(status);
