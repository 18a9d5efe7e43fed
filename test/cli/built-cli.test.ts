/**
 * The command as installed: `bin/tongate.js` on the compiled code (dist/, what `npm ci` builds and `npm start` runs),
 * not the sources through tsx as the other CLI tests run it. A build that breaks what only the compiled code meets
 * (a worker thread's file, the console's files, a path found from `import.meta.url`, the bundle) fails here.
 * The main thread runs the bundle (dist/cli-bundle/, scripts/bundle-cli.mjs): none of our modules is read from its
 * own file under dist/ there (the worker threads read theirs), and the bundle keeps a dynamic import lazy (the
 * PostgreSQL driver and prom-client are never loaded by this start, as from the sources).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/ports.js';
import { spawnTongate, stopTongate, waitForOutput } from '../support/process.js';

const BUILT_ENTRY = new URL('../../dist/cli/entry.js', import.meta.url);
const DIST = new URL('../../dist/', import.meta.url).href;
const RECORD_LOADS = fileURLToPath(new URL('./support/record-main-thread-loads.mjs', import.meta.url));

test('the built command starts a local network: v2, v3 once its index is up, the console; SIGTERM exits 0', async (t) => {
  if (!existsSync(BUILT_ENTRY)) {
    const reason = 'dist/ is not built (npm ci builds it)';
    if (process.env.CI === 'true') assert.fail(`${reason} (CI=true: the built command is required)`);
    t.skip(reason);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'tongate-built-'));
  const base = `http://127.0.0.1:${await freePort()}`;
  const loadsFile = join(dataDir, 'main-thread-loads.txt');
  const child = spawnTongate(
    ['start', '--data-dir', dataDir, '--network', `mainnet=${base}`, '--access', 'off'],
    { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${RECORD_LOADS}`, TONGATE_RECORD_LOADS: loadsFile },
    { built: true },
  );
  let loads: string[] = [];
  try {
    await waitForOutput(child, (printed) => printed.includes('toncenter-compatible API on'));
    const info = (await (await fetch(`${base}/api/v2/getMasterchainInfo`)).json()) as { ok: boolean; result: { last: { seqno: number } } };
    assert.equal(info.ok, true);
    assert.ok(info.result.last.seqno >= 0);
    // v3 answers once the index's threads (files of their own under dist/) are up: /healthcheck says so.
    for (;;) {
      const health = (await (await fetch(`${base}/healthcheck`)).json()) as { status: string };
      if (health.status === 'ok') break;
      assert.equal(health.status, 'starting');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const v3 = await fetch(`${base}/api/v3/masterchainInfo`);
    assert.equal(v3.status, 200);
    assert.ok(((await v3.json()) as { last: { seqno: number } }).last.seqno >= 0);
    const page = await fetch(`${base}/console/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  } finally {
    await stopTongate(child);
    if (existsSync(loadsFile)) loads = readFileSync(loadsFile, 'utf8').split('\n').filter(Boolean);
    rmSync(dataDir, { recursive: true, force: true });
  }
  assert.equal(child.exitCode, 0, child.output().stderr);
  const ours = loads.filter((url) => url.startsWith(DIST));
  assert.ok(
    ours.some((url) => url.startsWith(`${DIST}cli-bundle/entry.js`)),
    `the main thread read: ${ours.join(', ')}`,
  );
  const unbundled = ours.filter((url) => !url.startsWith(`${DIST}cli-bundle/`));
  assert.deepEqual(unbundled, [], 'modules of ours the main thread read outside the bundle');
  for (const absent of ['pg', 'prom-client']) {
    assert.ok(!loads.some((url) => url.includes(`/node_modules/${absent}/`)), `${absent} was loaded by a default start`);
  }
});
