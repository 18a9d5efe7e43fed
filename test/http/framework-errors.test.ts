/**
 * Requests refused before any route runs (Node's HTTP parser, fastify's router, the JSON body parser) still
 * answer in the version's error shape, never echo the target (it may carry `api_key`), and say
 * `Connection: close` when the socket is closed, so keep-alive clients read the answer instead of a reset.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { rawRequest } from '../support/raw-http.js';
import { startTestTongate } from '../support/tongate.js';

const SECRET = 'tg_secret_key_that_must_never_come_back';

/** Writes raw bytes on a keep-alive connection and reads until the server closes it. */
function exchange(port: number, bytes: string): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let error: string | undefined;
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ text, error }));
    socket.write(bytes);
  });
}

function parse(text: string): { status: number; headers: Map<string, string>; body: any } {
  const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

test('refusals before routing: version shape, no echo, Connection: close', async (t) => {
  const tongate = await startTestTongate();
  t.after(() => tongate.stop());
  const port = Number(new URL(tongate.url('mainnet')).port);
  const host = `127.0.0.1:${port}`;

  await t.test('a request line over the header limit: 431 in the version shape, Connection: close, no reset', async () => {
    for (const [prefix, shape] of [
      ['/api/v3/masterchainInfo', 'v3'],
      ['/api/v2/getMasterchainInfo', 'v2'],
    ] as const) {
      const long = `${prefix}?api_key=${SECRET}&x=${'a'.repeat(20_000)}`;
      const { text, error } = await exchange(port, `GET ${long} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
      assert.equal(error, undefined, 'the client reads the answer, not a reset');
      const res = parse(text);
      assert.equal(res.status, 431);
      assert.equal(res.headers.get('connection'), 'close');
      assert.deepEqual(res.body, shape === 'v3' ? { error: res.body.error } : { ok: false, error: res.body.error, code: 431 });
      assert.match(res.body.error, /exceed \d+ bytes/);
      assert.ok(!text.includes(SECRET), 'no key echoed');
    }
  });

  await t.test('a malformed request: 400 in the v2 shape, Connection: close', async () => {
    const { text, error } = await exchange(port, `GET /api/v2/getMasterchainInfo HTTP/1.1\r\nHost: ${host}\r\nBad Header\r\n\r\n`);
    assert.equal(error, undefined);
    const res = parse(text);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('connection'), 'close');
    assert.deepEqual(res.body, { ok: false, error: 'malformed HTTP request', code: 400 });
  });

  await t.test('a malformed %-escape: 400 naming the problem, never the URL or its key', async () => {
    for (const [target, shape] of [
      [`/api/v2/%E0?api_key=${SECRET}`, 'v2'],
      [`/api/v3/%E0?api_key=${SECRET}`, 'v3'],
      [`http://x/api/v3/%E0?api_key=${SECRET}`, 'v3'],
    ] as const) {
      const res = await rawRequest({ port, target, headers: { host } });
      assert.equal(res.status, 400, target);
      assert.ok(!res.text.includes(SECRET), `${target}: no key echoed: ${res.text}`);
      assert.match(res.json.error, /malformed URL/);
      if (shape === 'v3') assert.deepEqual(Object.keys(res.json), ['error']);
      else assert.deepEqual(res.json, { ok: false, error: res.json.error, code: 400 });
    }
  });

  await t.test('an over-long path segment: 414 in the version shape', async () => {
    const v3 = await rawRequest({ port, target: `/api/v3/docs/${'a'.repeat(300)}`, headers: { host } });
    assert.equal(v3.status, 414);
    assert.deepEqual(v3.json, { error: 'a path segment is longer than 100 characters' });
    const v2 = await rawRequest({ port, target: `/api/v2/docs/${'a'.repeat(300)}?api_key=${SECRET}`, headers: { host } });
    assert.deepEqual(v2.json, { ok: false, error: 'a path segment is longer than 100 characters', code: 414 });
    assert.ok(!v2.text.includes(SECRET));
  });

  await t.test('docs assets named like object built-ins: 404', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
      for (const v of ['v2', 'v3']) {
        const res = await rawRequest({ port, target: `/api/${v}/docs/${name}`, headers: { host } });
        assert.equal(res.status, 404, `${v} ${name}: ${res.text}`);
      }
    }
  });

  await t.test('a body nested deeper than the limit: 400 before parsing, in the version shape', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const body = `{"address":"x","method":"seqno","stack":${deep}}`;
    const headers = { host, 'content-type': 'application/json' };
    const v2 = await rawRequest({ port, target: '/api/v2/runGetMethod', method: 'POST', headers, body });
    assert.deepEqual(v2.json, { ok: false, error: 'request body is nested deeper than 512 levels', code: 400 });
    const rpc = await rawRequest({
      port,
      target: '/api/v2/jsonRPC',
      method: 'POST',
      headers,
      body: `{"method":"getMasterchainInfo","params":{},"id":${deep}}`,
    });
    assert.equal(rpc.status, 400);
    const v3 = await rawRequest({ port, target: '/api/v3/message', method: 'POST', headers, body: `{"boc":${deep}}` });
    assert.deepEqual(v3.json, { error: 'request body is nested deeper than 512 levels' });
    // Brackets inside strings do not count; escaped quotes do not end a string.
    const inString = await rawRequest({
      port,
      target: '/api/v2/jsonRPC',
      method: 'POST',
      headers,
      body: JSON.stringify({ method: 'getMasterchainInfo', params: {}, id: `\\"${'['.repeat(5000)}` }),
    });
    assert.equal(inString.status, 200, inString.text.slice(0, 200));
  });
});

test('admin API: a deep body is refused before parsing; nested values are described, not printed', async (t) => {
  const tongate = await startTestTongate({ adminToken: 'framework-admin', access: 'on' });
  t.after(() => tongate.stop());
  const port = Number(new URL(tongate.url('mainnet')).port);
  const headers = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', authorization: 'Bearer framework-admin' };
  const deep = '['.repeat(10_000) + ']'.repeat(10_000);
  const admin = await rawRequest({ port, target: '/admin/keys', method: 'POST', headers, body: `{"network":"mainnet","rps":${deep}}` });
  assert.deepEqual(admin.json, { ok: false, error: 'request body is nested deeper than 512 levels', code: 400 });
  const nested = '['.repeat(400) + ']'.repeat(400);
  const rps = await rawRequest({ port, target: '/admin/keys', method: 'POST', headers, body: `{"network":"mainnet","rps":${nested}}` });
  assert.equal(rps.status, 422, rps.text);
  assert.match(rps.json.error, /^rps: .*\(got \[\[\[.*\.\.\.\)$/);
});
