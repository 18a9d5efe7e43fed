/**
 * docs/access.md: a key created or revoked by another process (the CLI, another instance's admin API) is honoured or
 * refused within a second on every instance, even without Redis pub/sub: each instance polls the key store's
 * revision every KEY_POLL_MS. Here the poll runs on a manual clock (test/support/manual-timers.ts), so the rule is
 * checked at its edge without waiting: the change is not seen one millisecond before the poll (a cached "unknown" or
 * a cached record still answers), and is seen at it. The other process writes the store only (no Redis message),
 * so the poll is the one path. SQLite, and PostgreSQL + Redis.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createAccessLayer, KEY_POLL_MS, openKeyAdmin, type AccessLayer } from '../../src/access/index.js';
import { ManualTimers } from '../support/manual-timers.js';
import { embeddedBackend, sharedBackend, type Backend } from './support/backends.js';

async function status(access: AccessLayer, key: string): Promise<number> {
  const d = await access.check({ network: 'mainnet', key, clientIp: '192.0.2.3' });
  return d.allowed ? 200 : d.status;
}

async function changesSeenAtTheNextPoll(t: TestContext, backend: Backend | undefined): Promise<void> {
  if (!backend) return;
  const timers = new ManualTimers();
  const access = await createAccessLayer(backend.options, { clock: timers });
  const other = await openKeyAdmin({ ...backend.options, redisUrl: undefined });
  try {
    const pollMs = KEY_POLL_MS[access.status().keyStore as 'sqlite' | 'postgres'];
    assert.equal(timers.scheduled, 1, 'the key directory asked the clock for its poll timer');
    const moveTo = async (ms: number) => {
      timers.advance(ms);
      await timers.settled();
    };

    const raw = `imported-${Date.now()}-0123456789abcdef`;
    assert.equal(await status(access, raw), 401, 'unknown, and cached as unknown');
    const created = await other.admin.createKey({ network: 'mainnet', key: raw });
    await moveTo(pollMs - 1);
    assert.equal(await status(access, raw), 401, 'before the poll: the cached "unknown" still answers');
    await moveTo(1);
    assert.equal(await status(access, raw), 200, 'at the poll: the key made elsewhere is honoured');

    await other.admin.revokeKey(created.id);
    await moveTo(pollMs - 1);
    assert.equal(await status(access, raw), 200, 'before the poll: the cached record still answers');
    await moveTo(1);
    assert.equal(await status(access, raw), 401, 'at the poll: the key revoked elsewhere is refused');
    t.diagnostic(`${backend.name}: poll every ${pollMs} ms of the clock`);
  } finally {
    await other.close();
    await access.close();
  }
  assert.equal(timers.scheduled, 0, 'closing the layer stops its poll');
}

test('a key changed by another process: honoured, then refused, at the next poll and not before (SQLite)', async (t) => {
  const backend = embeddedBackend();
  try {
    await changesSeenAtTheNextPoll(t, backend);
  } finally {
    await backend.cleanup();
  }
});

test('a key changed by another process: honoured, then refused, at the next poll and not before (PostgreSQL + Redis)', async (t) => {
  const backend = await sharedBackend(t);
  try {
    await changesSeenAtTheNextPoll(t, backend);
  } finally {
    await backend?.cleanup();
  }
});
