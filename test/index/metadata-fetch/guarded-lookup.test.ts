/**
 * The socket's lookup hook is where the check and the connect meet: what it calls back with is what the socket
 * connects to, so it must answer only addresses it has checked, in both forms node asks for (one, or all).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { addressRefusal, guardedLookup } from '../../../src/index/metadata-fetch/guarded-agent.js';
import { RefusedAddressError } from '../../../src/index/metadata-fetch/errors.js';

const ask = (lookup: ReturnType<typeof guardedLookup>, all: boolean) =>
  new Promise<{ err: unknown; address: unknown; family: unknown }>((resolve) =>
    lookup('localhost', { all }, (err: unknown, address: unknown, family?: unknown) => resolve({ err, address, family })),
  );

test('a name that resolves to loopback is refused in the lookup itself (before any socket connects)', async () => {
  for (const all of [false, true]) {
    const { err, address } = await ask(guardedLookup(addressRefusal(false)), all);
    assert.ok(err instanceof RefusedAddressError, String(err));
    assert.match((err as Error).message, /^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    assert.equal(address, undefined);
  }
});

test('allowed: the checked addresses are what the socket gets, in the form it asked for', async () => {
  const one = await ask(guardedLookup(addressRefusal(true)), false);
  assert.equal(one.err, null);
  assert.match(String(one.address), /^(127\.0\.0\.1|::1)$/);
  assert.ok(one.family === 4 || one.family === 6);
  const all = await ask(guardedLookup(addressRefusal(true)), true);
  assert.equal(all.err, null);
  assert.ok((all.address as LookupAddress[]).every((a) => a.address === '127.0.0.1' || a.address === '::1'));
});

test('an exempted address passes while other private ones are still refused', () => {
  const refusal = addressRefusal(false, ['127.0.0.1']);
  assert.equal(refusal('127.0.0.1'), null);
  assert.equal(refusal('127.0.0.2'), 'loopback');
  assert.equal(refusal('10.0.0.1'), 'private');
});
