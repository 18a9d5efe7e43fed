/**
 * The docs at toncenter's own paths as well as tongate's: `/api/v3/doc.json` and `/api/v3/index.html` (ton-index-go's
 * gofiber/swagger), `/api/v2/index.html` (ton-http-api's static folder) answer the same document and Swagger UI page
 * as `/api/vN/openapi.json` and `/api/vN/`, and, as every docs path, without a key even when keys are required.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/util/clock.js';
import { startTestTongate, type TestTongate } from '../support/tongate.js';

let tongate: TestTongate;
before(async () => {
  // Keys and limits on, with a clock that stands still: a keyless client has one request of the API in all.
  tongate = await startTestTongate({ access: 'on' }, {}, { clock: new ManualClock() });
});
after(() => tongate?.stop());

const fetchText = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

test("toncenter's doc paths serve the same document and page as tongate's own, without a key", async () => {
  const base = tongate.url('mainnet');
  const same: Array<[ours: string, toncenter: string]> = [
    ['/api/v3/openapi.json', '/api/v3/doc.json'],
    ['/api/v3/', '/api/v3/index.html'],
    ['/api/v2/', '/api/v2/index.html'],
  ];
  for (const [ours, toncenter] of same) {
    const [a, b] = [await fetchText(`${base}${ours}`), await fetchText(`${base}${toncenter}`)];
    assert.equal(a.status, 200, ours);
    assert.equal(b.status, 200, toncenter);
    assert.equal(b.type, a.type, toncenter);
    assert.equal(b.text, a.text, `${toncenter} is ${ours}`);
  }
  const v3 = JSON.parse((await fetchText(`${base}/api/v3/doc.json`)).text);
  assert.equal(v3.openapi, '3.0.3');
  assert.ok(v3.paths['/api/v3/decode'].get && v3.paths['/api/v3/decode'].post, 'the document lists /decode on both verbs');
  assert.match((await fetchText(`${base}/api/v2/index.html`)).text, /\/api\/v2\/openapi\.json/);
  // Every docs path again, past the keyless client's one request a second: never limited, where the API is.
  for (const path of same.flat()) assert.equal((await fetchText(`${base}${path}`)).status, 200, path);
  assert.equal((await fetchText(`${base}/api/v3/masterchainInfo`)).status, 200);
  assert.equal((await fetchText(`${base}/api/v3/masterchainInfo`)).status, 429);
});
