/** Small pure rules: client identity (IPv4, IPv6 /64), key material, URL redaction, limited paths, headers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientIdentity } from '../../src/access/client-ip.js';
import {
  base58,
  displayPrefix,
  generateKey,
  generateKeyId,
  hashKey,
  importProblem,
  KeyHashMemo,
} from '../../src/access/keys/key-material.js';
import { redactApiKey } from '../../src/access/redact.js';
import { isLimitedPath } from '../../src/http/access-hook.js';
import { targetPath } from '../../src/http/request-target.js';
import { limitHeaders, retryAfterSeconds } from '../../src/access/decision.js';
import { rateLimitValues } from '../../src/access/rate-limit-values.js';
import { resolveAccessOptions } from '../../src/access/options.js';

test('client identity: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 grouped by /64', () => {
  assert.equal(clientIdentity('203.0.113.7'), '203.0.113.7');
  assert.equal(clientIdentity('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(clientIdentity('::FFFF:203.0.113.7'), '203.0.113.7');
  assert.equal(clientIdentity('2001:db8:a:b:1:2:3:4'), '2001:db8:a:b::/64');
  assert.equal(clientIdentity('2001:0db8:000a:000b:ffff::1'), '2001:db8:a:b::/64');
  assert.equal(clientIdentity('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientIdentity('2001:db8:0:0:5::'), '2001:db8:0:0::/64');
  assert.equal(clientIdentity('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(clientIdentity('::1'), '0:0:0:0::/64');
  assert.equal(clientIdentity('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  for (const bad of ['', undefined, 'not-an-ip', '999.1.1.1', '1:2:3']) assert.equal(clientIdentity(bad), 'unknown');
});

test('key hash memo: every key gets its own fingerprint, whichever recent slot it shares, and after the memo is full', () => {
  const memo = new KeyHashMemo(50);
  // 300 keys over 64 recent slots and a Map cleared at 50: slots are shared and the Map refills; keys of one length
  // differing in one character (the slot reads only a few), and the same key as a new string object.
  const keys = [
    ...Array.from({ length: 200 }, generateKey),
    ...Array.from({ length: 100 }, (_, i) => `imported-key-${String(i).padStart(3, '0')}`),
  ];
  for (let round = 0; round < 3; round++)
    for (const key of keys) assert.equal(memo.hash(round === 2 ? [...key].join('') : key), hashKey(key), key);
  memo.clear();
  assert.equal(memo.hash(keys[0]), hashKey(keys[0]));
});

test('key material: 32 random bytes in base58 behind a prefix, SHA-256 fingerprints, safe display', () => {
  const keys = new Set(Array.from({ length: 200 }, generateKey));
  assert.equal(keys.size, 200);
  for (const k of keys) assert.match(k, /^tg_[1-9A-HJ-NP-Za-km-z]{43,44}$/);
  assert.equal(base58(Uint8Array.from([0, 0, 1])), '112');
  assert.equal(base58(Buffer.from('hello world')), 'StV1DL6CwTryKyV');
  assert.match(generateKeyId(), /^key_[1-9A-HJ-NP-Za-km-z]{12}$/);
  assert.equal(hashKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(displayPrefix('tg_ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuv'), 'tg_ABCDE…');
  assert.equal(displayPrefix('short-key'), 'sh…', 'a short imported key shows a quarter at most');
  assert.equal(importProblem('a'.repeat(256)), undefined);
  assert.match(importProblem('a'.repeat(257))!, /at most 256/);
  assert.match(importProblem('tab\there')!, /visible ASCII/);
  assert.match(importProblem('')!, /empty/);
});

test('redaction: api_key values are cut from URLs, in any spelling the query parser accepts', () => {
  assert.equal(redactApiKey('/api/v2/getMasterchainInfo?api_key=SECRET'), '/api/v2/getMasterchainInfo?api_key=[REDACTED]');
  assert.equal(redactApiKey('/api/v3/x?a=1&api_key=SECRET&b=2'), '/api/v3/x?a=1&api_key=[REDACTED]&b=2');
  assert.equal(redactApiKey('/x?api%5Fkey=SECRET'), '/x?api%5Fkey=[REDACTED]');
  assert.equal(redactApiKey('/x?API_KEY=keep'), '/x?API_KEY=keep', 'the parser is case-sensitive: API_KEY is not a key');
  assert.equal(redactApiKey('/x?api_key=A&api_key=B'), '/x?api_key=[REDACTED]&api_key=[REDACTED]');
  assert.equal(redactApiKey('/x?address=EQ&api_keys=1'), '/x?address=EQ&api_keys=1');
  assert.equal(redactApiKey('/api/v2/jsonRPC'), '/api/v2/jsonRPC');
});

test('limited paths: everything under /api/v2/ and /api/v3/ except health and docs', () => {
  for (const p of [
    '/api/v2/getAddressInformation',
    '/api/v2/jsonRPC',
    '/api/v3/masterchainInfo',
    '/api/v3/transactions',
    '/api/v2/unknownMethod',
    '/api/v2/docsx',
  ]) {
    assert.equal(isLimitedPath(p), true, p);
  }
  for (const p of [
    '/healthcheck',
    '/api/v2/healthcheck',
    '/api/v3/healthcheck',
    '/api/v2/openapi.json',
    '/api/v3/openapi.json',
    '/api/v2/',
    '/api/v3/',
    '/api/v2/index.html',
    '/api/v3/index.html',
    '/api/v3/doc.json',
    '/api/v2/docs/swagger-ui.css',
    '/api/v3/docs',
    '/metrics',
    '/admin/keys',
    '/devnet/fund',
    '/api/v2',
    '/',
  ]) {
    assert.equal(isLimitedPath(p), false, p);
  }
  assert.equal(targetPath('/api/%762/getAddressInformation?x=1'), '/api/v2/getAddressInformation');
  assert.equal(targetPath('/api/v2/%zz'), '/api/v2/%zz');
});

test('headers: RateLimit-Policy / RateLimit (IETF draft) and Retry-After in whole seconds, at least 1', () => {
  assert.deepEqual(limitHeaders('key', 10, 1000, 9, 1000), { 'ratelimit-policy': '"key";q=10;w=1', ratelimit: '"key";r=9;t=1' });
  assert.deepEqual(limitHeaders('ip', 1, 1000, 0, 250.5), { 'ratelimit-policy': '"ip";q=1;w=1', ratelimit: '"ip";r=0;t=1' });
  assert.equal(retryAfterSeconds(0.001), 1);
  assert.equal(retryAfterSeconds(1000), 1);
  assert.equal(retryAfterSeconds(1000.001), 2);
});

test('RateLimit values: the exact value whatever the table remembered (values sharing a slot, every policy)', () => {
  for (const policy of ['key', 'account', 'ip'] as const) {
    const values = rateLimitValues(policy);
    for (let round = 0; round < 2; round++) {
      for (let remaining = 0; remaining < 20_000; remaining += 7) {
        for (const t of [0, 1, 2]) {
          assert.equal(values.value(remaining, t), limitHeaders(policy, 1_000_000, 1000, remaining, t * 1000).ratelimit);
        }
      }
    }
  }
});

test('options: defaults and errors naming the field', () => {
  const o = resolveAccessOptions({ ephemeral: true });
  assert.equal(o.anonymousRps, 1);
  assert.equal(o.defaultKeyRps, 10);
  assert.equal(o.limiterFailure, 'local');
  assert.equal(o.storeTimeoutMs, 100);
  assert.throws(() => resolveAccessOptions({ ephemeral: true, storeTimeoutMs: 250 }), /storeTimeoutMs: must be an integer from 1 to 100/);
  assert.throws(() => resolveAccessOptions({ ephemeral: true, limiterFailure: 'maybe' as never }), /limiterFailure/);
  assert.throws(() => resolveAccessOptions({}), /dataDir: required/);
  assert.throws(() => resolveAccessOptions({ ephemeral: true, databaseSchema: 'x; drop' }), /databaseSchema/);
});
