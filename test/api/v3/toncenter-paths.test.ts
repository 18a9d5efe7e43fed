/**
 * docs/toncenter-v3-paths.md stays true: every path and method of toncenter's published v3 document has its row, and
 * each row agrees with tongate's route table (a running gateway's own routes): "served" rows are served, every other
 * row gives its reason and is not served (a 404, never a stand-in).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestTongate, type TestTongate } from '../../support/tongate.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DOC = 'docs/toncenter-v3-paths.md';

/** Every (path, method) of toncenter's v3 document. */
function toncenterOperations(): string[] {
  const spec = JSON.parse(readFileSync(join(root, 'test', 'reference', 'toncenter-v3-openapi.json'), 'utf8'));
  return Object.entries(spec.paths as Record<string, object>).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The rows of the doc's table: `| \`path\` | METHOD | status |`, by "METHOD path". */
function documentedRows(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of readFileSync(join(root, DOC), 'utf8').split('\n')) {
    const row = /^\| `(\/api\/v3\/[^`]+)` \| (GET|POST) \| (.+) \|$/.exec(line);
    if (!row) continue;
    const key = `${row[2]} ${row[1]}`;
    assert.ok(!rows.has(key), `${DOC}: ${key} has two rows`);
    rows.set(key, row[3].trim());
  }
  return rows;
}

let tongate: TestTongate;
before(async () => {
  tongate = await startTestTongate();
});
after(() => tongate?.stop());

test(`${DOC} lists every toncenter v3 path, and its "served" is what the route table serves`, async () => {
  const app = tongate.gateway.apps[0];
  await app.ready();
  const rows = documentedRows();
  const operations = toncenterOperations();
  assert.ok(operations.length >= 37, `toncenter's document has its ${operations.length} operations`);
  for (const operation of operations) {
    const status = rows.get(operation);
    assert.ok(status !== undefined, `${operation} is in toncenter's v3 document and has no row in ${DOC}`);
    const [method, url] = operation.split(' ');
    const served = app.hasRoute({ method: method as 'GET' | 'POST', url });
    if (/^served\b/.test(status)) {
      assert.ok(served, `${DOC} says ${operation} is served; the route table has no such route`);
    } else {
      assert.match(status, /^(not served|being built in this change): \S/, `${operation}: a row that is not "served" gives its reason`);
      assert.ok(!served, `${operation} is served; ${DOC} says "${status}"`);
      const answer = await fetch(`${tongate.url('mainnet')}${url}`, { method });
      assert.equal(answer.status, 404, `${operation} not served answers 404`);
    }
  }
  for (const key of rows.keys()) assert.ok(operations.includes(key), `${DOC} has a row for ${key}, which toncenter's document lacks`);
});
