/**
 * The command as installed: `bin/tongate.js` on the compiled code (dist/, what `npm ci` builds and `npm start` runs),
 * not the sources through tsx as the other CLI tests run it. A build that breaks what only the compiled code meets
 * (a worker thread's file, the console's files, a path found from `import.meta.url`) fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/ports.js';
import { spawnTongate, stopTongate, waitForOutput } from '../support/process.js';

const BUILT_ENTRY = new URL('../../dist/cli/entry.js', import.meta.url);

test('the built command starts a local network: v2, v3 once its index is up, the console; SIGTERM exits 0', async (t) => {
  if (!existsSync(BUILT_ENTRY)) {
    const reason = 'dist/ is not built (npm ci builds it)';
    if (process.env.CI === 'true') assert.fail(`${reason} (CI=true: the built command is required)`);
    t.skip(reason);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'tongate-built-'));
  const base = `http://127.0.0.1:${await freePort()}`;
  const child = spawnTongate(['start', '--data-dir', dataDir, '--network', `mainnet=${base}`, '--access', 'off'], {}, { built: true });
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
    rmSync(dataDir, { recursive: true, force: true });
  }
  assert.equal(child.exitCode, 0, child.output().stderr);
});
