/** What `tongate start` prints where: log records alone on stdout (JSON lines, or pino-pretty's), the banner on stderr. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../support/ports.js';
import { runTongate, spawnTongate, waitForOutput } from '../support/process.js';

async function runBriefly(extra: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const port = await freePort();
  const child = spawnTongate([
    'start',
    '--ephemeral',
    '--block-interval',
    '3600000',
    '--log-level',
    'debug',
    ...extra,
    '--network',
    `mainnet=http://127.0.0.1:${port}`,
  ]);
  try {
    await waitForOutput(child, (out) => out.includes('ready in'));
    // Requests make debug lines: one per response, so stdout is more than the start-up records.
    for (const path of ['/api/v2/getMasterchainInfo', '/api/v3/masterchainInfo', '/nowhere'])
      await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { ...child.output(), code };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

test('stdout is JSON lines only (every line parses as a pino record); the banner is on stderr', async () => {
  const { stdout, stderr, code } = await runBriefly([]);
  assert.equal(code, 0, stderr);
  const lines = stdout.split('\n').filter((line) => line !== '');
  assert.ok(lines.length >= 3, `request lines on stdout at debug (got ${lines.length})`);
  for (const line of lines) {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line);
    } catch {
      assert.fail(`a stdout line is not JSON: ${line.slice(0, 200)}`);
    }
    assert.equal(typeof record.level, 'number', line);
    assert.equal(typeof record.time, 'number', line);
  }
  assert.ok(
    lines.some((line) => JSON.parse(line).msg === 'request'),
    'the per-request debug records are there',
  );
  assert.match(stderr, /tongate: toncenter-compatible API on .*ready in/);
  assert.match(stderr, /v2 {2}http:\/\/127\.0\.0\.1:\d+\/api\/v2/);
  assert.doesNotMatch(stdout, /ready in|Faucet mnemonic/);
});

test('--log-format pretty prints pino-pretty lines on stdout, not JSON; a bad format exits 2 naming the option', async () => {
  const { stdout, stderr, code } = await runBriefly(['--log-format', 'pretty']);
  assert.equal(code, 0, stderr);
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  assert.ok(lines.length >= 3, `pretty request lines on stdout (got ${lines.length})`);
  assert.ok(
    lines.some((line) => /DEBUG.*request/.test(line)),
    stdout.slice(0, 2000),
  );
  for (const line of lines) assert.ok(!line.startsWith('{'), `not a JSON record: ${line}`);
  assert.match(stderr, /ready in/);

  const bad = await runTongate(['start', '--ephemeral', '--log-format', 'xml']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--log-format: expected one of json, pretty/);
});
