// Runs every test file under test/ with node's test runner (Node 20 has no glob for --test).
// Usage: node scripts/test.mjs [substring ...]  (only files whose path contains one of the substrings)
// Two groups run one after the other (below); each prints its tests as node's reporter does, and the run ends with
// one summary line for both (scripts/test-reporter.mjs keeps each group's own summary back), then the failed tests, one line
// each. Before the summary, the slowest files with their wall time (TONGATE_TEST_TIMES=<path> writes every file's to
// that path, tab-separated: milliseconds, group, file). The lint runs first.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
// What node itself would use: spec on a terminal, tap otherwise.
const reporterKind = process.stdout.isTTY ? 'spec' : 'tap';

// The lint (scripts/lint.mjs: ESLint, Prettier, the layer rule) runs before any test on a whole run of this checkout
// (npm test, CI), and an error in it ends the run there, failed. A run of some files only (filters) is a quick look and
// skips it, as does a run in another tree (the runner's own test builds one); TONGATE_LINT=1 asks for it anyway.
const checkout = fileURLToPath(new URL('..', import.meta.url));
const lint = process.env.TONGATE_LINT === '1' || (filters.length === 0 && resolve(process.cwd()) === resolve(checkout));
if (lint) {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL('./lint.mjs', import.meta.url))], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trimEnd();
  // In TAP every line of it is a comment, so a TAP reader still reads the tests that follow.
  if (output !== '') console.log(reporterKind === 'tap' ? output.replace(/^/gm, '# ') : output);
  if (run.status !== 0) {
    console.log(`${reporterKind === 'tap' ? '#' : '✖'} lint failed (above): no test was run; npm run lint checks again`);
    process.exit(1);
  }
}

const files = walk('test')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// Run alone, after the others: a file of test/chain/lite that starts a real TON validator (test/support/ton-node.ts,
// ~80 % of a core), so it neither slows their tests nor is slowed by them; test/fuzz sends megabyte bodies to a
// tongate while it checks that the process stays responsive, which another test file's CPU on two cores would decide
// instead of tongate. The lite backend's tests without a network (its own blocks, captures of mainnet, a fake
// liteserver) read no TONGATE_TON_NETWORK: they run once, with the others.
const startsTonNetwork = (f) => /\bstartTonNode\(/.test(readFileSync(f, 'utf8'));
const lite = files.filter((f) => f.startsWith(join('test', 'chain', 'lite')) && startsTonNetwork(f));
const fuzz = files.filter((f) => f.startsWith(join('test', 'fuzz')));
const together = files.filter((f) => !lite.includes(f) && !fuzz.includes(f));
// Those files once per TON network (test/support/ton-node.ts): catchain's and Simplex's block signatures, both of
// which a follower of mainnet meets in the chain's history.
const groups = [
  { name: 'together', files: together, concurrency },
  ...['ton-node', 'ton-node-simplex'].map((network) => ({
    name: `lite on ${network}`,
    files: lite,
    concurrency: '1',
    env: { TONGATE_TON_NETWORK: network },
  })),
  { name: 'fuzz', files: fuzz, concurrency: '1' },
];
const reporter = fileURLToPath(new URL('./test-reporter.mjs', import.meta.url));
const summaries = mkdtempSync(join(tmpdir(), 'tongate-test-summary-'));
const started = performance.now();
const FIELDS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const total = Object.fromEntries(FIELDS.map((f) => [f, 0]));
const missing = [];
const failures = [];
const times = [];
let status = 0;
for (const [index, group] of groups.entries()) {
  if (group.files.length === 0) continue;
  if (group.env)
    console.log(
      `# ${Object.entries(group.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
  const summaryFile = join(summaries, `${index}.json`);
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${group.concurrency}`,
      '--test-timeout=300000',
      `--test-reporter=${reporter}`,
      '--test-reporter-destination=stdout',
      ...group.files,
    ],
    { stdio: 'inherit', env: { ...process.env, ...group.env, TONGATE_TEST_SUMMARY: summaryFile, TONGATE_TEST_REPORTER: reporterKind } },
  );
  if (result.status !== 0) status = result.status ?? 1;
  try {
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    for (const f of FIELDS) total[f] += summary[f] ?? 0;
    for (const failure of summary.failures ?? []) failures.push({ ...failure, group: group.name });
    for (const { file, ms } of summary.files ?? []) times.push({ file: relative(process.cwd(), file), ms, group: group.name });
  } catch {
    missing.push(group.name); // the runner died before its summary (its exit status says so too)
  }
}
rmSync(summaries, { recursive: true, force: true });
times.sort((a, b) => b.ms - a.ms);
if (process.env.TONGATE_TEST_TIMES)
  writeFileSync(process.env.TONGATE_TEST_TIMES, times.map(({ ms, group, file }) => `${ms}\t${group}\t${file}\n`).join(''));
const SLOWEST = 15;
if (times.length > 1)
  for (const { ms, group, file } of times.slice(0, SLOWEST))
    console.log(
      `${reporterKind === 'tap' ? '#' : 'ℹ'} slow: ${(ms / 1000).toFixed(1).padStart(7)} s ${file}${group === 'together' ? '' : ` (${group})`}`,
    );
if (missing.length > 0 && status === 0) status = 1;
const line = [
  ...FIELDS.map((f) => `${f} ${total[f]}`),
  `duration_ms ${Math.round(performance.now() - started)}`,
  ...(missing.length > 0 ? [`no summary from: ${missing.join(', ')}`] : []),
].join(', ');
console.log(`${reporterKind === 'tap' ? '#' : 'ℹ'} ${line}`);
// Again at the end, whatever the reporter printed before: which tests failed, where.
for (const { group, file, name, message } of failures) {
  const where = file === '' ? group : `${relative(process.cwd(), file)}${group === 'together' ? '' : ` (${group})`}`;
  console.log(`${reporterKind === 'tap' ? '# failed:' : '✖'} ${where} › ${name}: ${message}`);
}
process.exit(status);
