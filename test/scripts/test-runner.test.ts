/**
 * scripts/test.mjs on a small tree of its own: every group (the files run together, then test/chain/lite once per TON
 * network, then test/fuzz) prints its tests, and the run ends with the slowest files and their times, one summary line that
 * counts them all, then one line per failed test naming its file, group and first error line (a log read from its end
 * names what failed). A file of test/chain/lite that starts no TON network runs once, with the others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('npm test: each group prints its tests, one summary line counts every group', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-runner-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const files: Record<string, string> = {
    'test/together-one.test.ts':
      "import { test } from 'node:test';\ntest('together passes', () => {});\ntest('together passes too', () => {});\n",
    'test/fuzz/alone.test.ts':
      "import { test } from 'node:test';\ntest('alone passes', () => {});\ntest('alone skips', { skip: 'no reason' }, () => {});\n",
    'test/chain/lite/alone-fails.test.ts':
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nconst startTonNode = () => undefined;\nstartTonNode();\ntest('alone fails', () => assert.equal(1, 2));\n",
    // A lite test that starts no TON network reads none: it runs once, with the others.
    'test/chain/lite/no-network.test.ts': "import { test } from 'node:test';\ntest('no network passes', () => {});\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // Not as a subprocess of this runner (NODE_TEST_CONTEXT would make the inner runs report to it, not print).
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'test.mjs')], { cwd: dir, encoding: 'utf8', env });
  assert.equal(run.status, 1, 'a failed test fails the run');
  for (const name of ['together passes', 'together passes too', 'no network passes', 'alone passes', 'alone skips', 'alone fails']) {
    assert.ok(run.stdout.includes(name), `${name} is reported`);
  }
  const summaries = run.stdout.split('\n').filter((line) => /\btests \d+/.test(line));
  assert.equal(summaries.length, 1, `one summary line:\n${summaries.join('\n')}`);
  assert.match(summaries[0], /^# tests 7, suites 0, pass 4, fail 2, cancelled 0, skipped 1, todo 0, duration_ms \d+$/);
  const lines = run.stdout.trimEnd().split('\n');
  assert.equal(lines.at(-3), summaries[0], 'the summary, then the failures');
  const slowest = lines.filter((line) => line.startsWith('# slow: '));
  assert.equal(slowest.length, 5, `each file run named with its time:\n${slowest.join('\n')}`);
  assert.match(slowest[0], /^# slow: +\d+\.\d s test\//);
  assert.equal(lines.indexOf(slowest.at(-1)!) + 1, lines.indexOf(summaries[0]), 'the slowest files, then the summary');
  assert.deepEqual(
    lines.slice(-2).map((line) => line.replace(/: Expected values.*$/, ': <assertion>')),
    ['ton-node', 'ton-node-simplex'].map(
      (network) => `# failed: test/chain/lite/alone-fails.test.ts (lite on ${network}) › alone fails: <assertion>`,
    ),
  );
});
