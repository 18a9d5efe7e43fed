/**
 * Changing one key's limits (`PATCH /admin/keys/:id`, `tongate keys set`, KeyAdmin.setKeyLimits): the next request
 * with the key meets the new rps, in this process at once and in another process after the store's poll; on SQLite
 * and on PostgreSQL, where the change is also told on the Redis change bus (a subscriber here reads the key's hash on
 * it). Bad input is a 422 naming the field, an unknown key a 404, a revoked one a 409. Time is a manual clock that
 * also holds the layer's timers (test/support/manual-timers.ts; the Redis script is told its time too): no test waits
 * for a window to pass, and the 100 ms store timeout and the key poll run only when the test moves the clock, so a
 * loaded machine's slow PostgreSQL or Redis answer is awaited instead of turning into a 503 or the local fallback.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { createAccessLayer, resolveAccessOptions, type AccessLayer } from '../../src/access/index.js';
import { subscribeKeyChanges, type KeyChangeMessage } from '../../src/access/keys/change-bus.js';
import { hashKey } from '../../src/access/keys/key-material.js';
import { registerKeyCommands } from '../../src/cli/keys-commands.js';
import { ManualTimers } from '../support/manual-timers.js';
import { buildTestApp, HOSTS } from './support/app.js';
import { embeddedBackend, sharedBackend, type Backend } from './support/backends.js';

const TOKEN = 'admin-token-for-key-limits-0123';
const auth = { authorization: `Bearer ${TOKEN}` };

async function runKeyLimits(t: TestContext, backend: Backend): Promise<void> {
  const clock = new ManualTimers();
  const access: AccessLayer = await createAccessLayer(backend.options, { clock, redisUsesClock: true });
  const app = await buildTestApp(access, { adminToken: TOKEN });
  const use = (key: string) =>
    app.inject({ method: 'GET', url: '/api/v3/masterchainInfo', headers: { host: HOSTS.mainnet, 'x-api-key': key } });
  /** The statuses of `n` requests with `key`, all in one window. */
  const statuses = async (key: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await use(key)).statusCode);
    return out;
  };
  const patch = (id: string, payload: unknown) =>
    app.inject({ method: 'PATCH', url: `/admin/keys/${id}`, headers: auth, payload: payload as object });
  /** Moves past the limiter's window; the key polls that fall due meanwhile run and are awaited. */
  const nextWindow = async () => {
    clock.advance(5000);
    await clock.settled();
  };
  try {
    const created = await access.admin!.createKey({ network: 'mainnet', rps: 5 });

    await t.test('PATCH rps: the next request meets the new limit, lowered and raised within one window', async () => {
      await nextWindow();
      assert.deepEqual(await statuses(created.key, 6), [200, 200, 200, 200, 200, 429]);
      await nextWindow();
      const lowered = await patch(created.id, { rps: 2 });
      assert.equal(lowered.statusCode, 200, lowered.body);
      assert.equal(lowered.json().result.rps, 2);
      assert.equal(lowered.json().result.id, created.id);
      assert.ok(!lowered.body.includes(created.key), 'the key itself is never answered');
      assert.deepEqual(await statuses(created.key, 3), [200, 200, 429]);
      assert.equal((await use(created.key)).headers['ratelimit-policy'], '"key";q=2;w=1');
      // Raised in the same window: the two admitted still count, two more get in.
      assert.equal((await patch(created.id, { rps: 4 })).statusCode, 200);
      assert.deepEqual(await statuses(created.key, 3), [200, 200, 429]);
      assert.equal((await app.inject({ method: 'GET', url: `/admin/keys/${created.id}`, headers: auth })).json().result.rps, 4);
    });

    await t.test('stream caps change the same way; a field not given stays', async () => {
      const res = await patch(created.id, { stream_connections: 7 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().result.streamConnections, 7);
      assert.equal(res.json().result.rps, 4, 'rps unchanged');
    });

    await t.test('bad input: 422 naming the field, 400 for no JSON object; unknown key 404; revoked 409', async () => {
      const revoked = await access.admin!.createKey({ network: 'mainnet' });
      await access.admin!.revokeKey(revoked.id);
      const cases: Array<[string, unknown, number, RegExp]> = [
        [created.id, { rps: 0 }, 422, /^rps: must be an integer from 1 to/],
        [created.id, { rps: 'lots' }, 422, /^rps: must be an integer/],
        [created.id, { rps: 2.5 }, 422, /^rps: must be an integer/],
        [created.id, { stream_addresses: -1 }, 422, /^stream_addresses: must be an integer/],
        [created.id, {}, 422, /^rps: give rps, stream_connections and\/or stream_addresses/],
        [created.id, { rps: 3, label: 'x' }, 422, /^label: not a limit of a key/],
        [created.id, [1], 400, /^body: a JSON object is required/],
        ['key_missing', { rps: 3 }, 404, /^key: no key with id "key_missing"/],
        [revoked.id, { rps: 3 }, 409, /is revoked/],
      ];
      for (const [id, payload, status, message] of cases) {
        const res = await patch(id, payload);
        assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
        assert.equal(res.json().code, status);
        assert.match(res.json().error, message);
      }
      assert.equal((await app.inject({ method: 'PATCH', url: `/admin/keys/${created.id}`, payload: { rps: 3 } })).statusCode, 401);
      await nextWindow();
      assert.deepEqual(await statuses(created.key, 5), [200, 200, 200, 200, 429], 'refused changes changed nothing');
    });

    await t.test('another process (the CLI) changes the limit: the running layer meets it after its store poll', async () => {
      const hash = hashKey(created.key);
      let told: () => void = () => undefined;
      const heard = new Promise<void>((resolve) => (told = resolve));
      const onMessage = (message: KeyChangeMessage) => message.hashes.includes(hash) && told();
      const bus = backend.options.redisUrl
        ? await subscribeKeyChanges(backend.options.redisUrl, backend.options.redisPrefix!, onMessage, () => undefined)
        : undefined;
      try {
        let out = '';
        let err = '';
        const program = new Command('tongate').exitOverride();
        registerKeyCommands(program, () => resolveAccessOptions(backend.options), {
          io: { out: (s) => (out += s), err: (s) => (err += s), fail: () => assert.fail(`keys set failed: ${err}`) },
        });
        await program.parseAsync(['keys', 'set', created.id, '--rps', '1', '--json'], { from: 'user' });
        assert.equal(JSON.parse(out).rps, 1, err);
        await access.syncKeys();
        await nextWindow();
        assert.deepEqual(await statuses(created.key, 2), [200, 429]);
        // The CLI told the change bus too, so every instance drops the key at once, before its poll (a message
        // that never comes fails this test by its timeout).
        if (bus) await heard;
      } finally {
        await bus?.close();
      }
    });

    await t.test('keys set: bad input exits 1 naming the field, an unknown key says so', async () => {
      for (const [args, message] of [
        [['keys', 'set', created.id, '--rps', 'ten'], /rps: must be an integer/],
        [['keys', 'set', created.id], /rps: give rps/],
        [['keys', 'set', 'key_nope', '--rps', '3'], /key: no key with id "key_nope"/],
      ] as const) {
        let out = '';
        let err = '';
        let code = 0;
        const program = new Command('tongate').exitOverride();
        registerKeyCommands(program, () => resolveAccessOptions(backend.options), {
          io: { out: (s) => (out += s), err: (s) => (err += s), fail: (c) => (code = c) },
        });
        await program.parseAsync([...args], { from: 'user' });
        assert.equal(code, 1, args.join(' '));
        assert.match(err, message);
        assert.equal(out, '');
      }
    });
  } finally {
    await app.close();
    await access.close();
  }
}

test('a key limit changed on SQLite (memory limiter)', async (t) => {
  const backend = embeddedBackend();
  try {
    await runKeyLimits(t, backend);
  } finally {
    await backend.cleanup();
  }
});

test('a key limit changed on PostgreSQL (Redis limiter and change bus)', async (t) => {
  const backend = await sharedBackend(t);
  if (!backend) return;
  try {
    await runKeyLimits(t, backend);
  } finally {
    await backend.cleanup();
  }
});
