/**
 * An admission under a limit is handed out again when a later decision of the same key record carries the same
 * remaining quota and `t` (access-controller.ts `AdmissionCache`): every admission must still say its own key and the
 * quota left after it, as building each afresh would. Two keys with the same limit interleaved (same remaining, same
 * `t`), windows that empty and fill again, the keyless limit, and a key whose limit changes in place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualTimers } from '../support/manual-timers.js';
import { createAccessLayer, type AccessDecision } from '../../src/access/index.js';
import { embeddedBackend } from './support/backends.js';

function admitted(d: AccessDecision | Promise<AccessDecision>): { keyId?: string; policy?: string; rate?: string } {
  assert.ok(!(d instanceof Promise), 'the embedded stores decide synchronously');
  assert.equal(d.allowed, true);
  if (!d.allowed) throw new Error('refused');
  assert.deepEqual(d.headers, { 'ratelimit-policy': d.rateLimitPolicy, ratelimit: d.rateLimit });
  return { keyId: d.keyId, policy: d.rateLimitPolicy, rate: d.rateLimit };
}

test('reused admissions say their own key and the quota left after each decision', async () => {
  const backend = embeddedBackend();
  const clock = new ManualTimers();
  const access = await createAccessLayer(backend.options, { clock });
  try {
    const a = await access.admin!.createKey({ network: 'mainnet', rps: 4 });
    const b = await access.admin!.createKey({ network: 'mainnet', rps: 4 });
    const check = (key: string | undefined, clientIp = '') => access.check({ network: 'mainnet', key, clientIp });
    const seen = new Set<unknown>();
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < 4; i++) {
        for (const k of [a, b]) {
          const d = check(k.key);
          seen.add(d);
          assert.deepEqual(admitted(d), { keyId: k.id, policy: '"key";q=4;w=1', rate: `"key";r=${3 - i};t=1` });
        }
      }
      const refused = check(a.key);
      assert.ok(!(refused instanceof Promise) && !refused.allowed && refused.status === 429);
      clock.advance(1000);
    }
    // 3 windows of 4 decisions for each of 2 keys: one admission per key and remaining quota, reused.
    assert.equal(seen.size, 8);

    // Keyless clients share one limit (1 request/s each): the admission says no key, whoever asks.
    for (const ip of ['192.0.2.1', '192.0.2.2']) {
      assert.deepEqual(admitted(check(undefined, ip)), { keyId: undefined, policy: '"ip";q=1;w=1', rate: '"ip";r=0;t=1' });
    }

    // A limit changed in place is a new key record: its admissions name the new limit from the next decision on.
    clock.advance(1000);
    assert.deepEqual(admitted(check(a.key)), { keyId: a.id, policy: '"key";q=4;w=1', rate: '"key";r=3;t=1' });
    await access.admin!.setKeyLimits(a.id, { rps: 6 });
    await access.syncKeys();
    assert.deepEqual(admitted(check(a.key)), { keyId: a.id, policy: '"key";q=6;w=1', rate: '"key";r=4;t=1' });
  } finally {
    await access.close();
    await backend.cleanup();
  }
});
