/**
 * GET / of each network: an HTML page naming its base URLs and docs, served without a key and outside the
 * keyless limit (the API itself stays limited); values escaped. The docs' Markdown has no bare `<...>`, which
 * Swagger UI would drop as an HTML tag.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { escapeHtml, landingPage } from '../../src/gateway/landing.js';
import { freePort } from '../support/ports.js';
import { startTestTongate } from '../support/tongate.js';

test('GET / on each network: its base URLs, docs links and the devnet controls of a local chain; no key needed, never limited', async () => {
  // A clock that never moves: the keyless budget of 1 request/s is spent by the first API call and never refilled.
  const tongate = await startTestTongate({ access: 'on' }, {}, { clock: new ManualClock() });
  try {
    for (const name of ['mainnet', 'testnet']) {
      const base = tongate.url(name);
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
        assert.equal(response.status, 200, `${name} GET / #${i}`);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
        const html = await response.text();
        assert.match(html, new RegExp(`<title>tongate: ${name}</title>`));
        assert.ok(html.includes(`<code>${base}/api/v2</code>`), html);
        assert.ok(html.includes(`<code>${base}/api/v2/jsonRPC</code>`));
        assert.ok(html.includes(`<code>${base}/api/v3</code>`));
        assert.ok(html.includes('<a href="/api/v2/">docs</a>') && html.includes('<a href="/api/v3/">docs</a>'));
        assert.ok(html.includes('<a href="/devnet/">docs</a>'), 'a local chain links its controls');
        assert.ok(html.includes('<a href="/console/">open</a>'), 'and the console');
        assert.match(html, /X-API-Key/);
        assert.match(html, new RegExp(`global_id ${name === 'mainnet' ? -239 : -3}`));
      }
      // The API keeps its rules: without a key, the second call within the second is refused.
      assert.equal((await fetch(`${base}/api/v2/getMasterchainInfo`)).status, 200);
      assert.equal((await fetch(`${base}/api/v2/getMasterchainInfo`)).status, 429);
      assert.equal((await fetch(`${base}/`)).status, 200, 'the page after the limit was reached');
    }
  } finally {
    await tongate.stop();
  }
});

test('GET / of an upstream network names only the versions it forwards and no devnet controls', async () => {
  const origin = await startTestTongate();
  const port = await freePort();
  const front = await startTestTongate({
    network: [`mainnet=http://127.0.0.1:${port}`],
    backend: ['mainnet=upstream'],
    upstreamV2: [`mainnet=${origin.url('mainnet')}/api/v2`],
  });
  try {
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    assert.ok(html.includes(`/api/v2</code>`));
    assert.ok(!html.includes('/api/v3'), 'no v3 upstream: no v3 line');
    assert.ok(!html.includes('/devnet'), 'no controls on an upstream network');
    assert.match(html, /another toncenter-compatible API/);
    assert.match(html, /without its access layer/);
  } finally {
    await front.stop();
    await origin.stop();
  }
});

test('the landing page escapes every value it shows', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  const html = landingPage({
    name: '<script>alert(1)</script>',
    origin: 'http://h"onmouseover="x',
    globalId: -3,
    servedBy: 'local',
    v2: true,
    v3: true,
    access: true,
    version: '1.0.0<b>',
  });
  assert.ok(!html.includes('<script>alert'), 'no markup from the values');
  assert.ok(!html.includes('"onmouseover'), 'no attribute breaks out');
  assert.ok(!html.includes('1.0.0<b>'));
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
});

test("no description in the OpenAPI documents has a bare <...> that Swagger UI's Markdown would drop", async () => {
  const tongate = await startTestTongate({ adminToken: 'landing-test-token' });
  try {
    const base = tongate.url('mainnet');
    for (const path of ['/api/v2/openapi.json', '/api/v3/openapi.json', '/devnet/openapi.json']) {
      const document = await (await fetch(`${base}${path}`)).json();
      const bare: string[] = [];
      const walk = (value: unknown, at: string) => {
        if (typeof value === 'string') {
          // Code spans are shown as they are; anything else like <word> is taken for HTML.
          if (/(description|summary)$/.test(at) && /<[A-Za-z/!]/.test(value.replace(/`[^`]*`/g, ''))) bare.push(`${at}: ${value}`);
        } else if (value && typeof value === 'object') {
          for (const [key, inner] of Object.entries(value)) walk(inner, `${at}.${key}`);
        }
      };
      walk(document, path);
      assert.deepEqual(bare, [], path);
    }
    const devnet = await (await fetch(`${base}/devnet/openapi.json`)).json();
    assert.match(devnet.info.description, /`Authorization: Bearer <token>`/);
  } finally {
    await tongate.stop();
  }
});
