/**
 * `tongate keys create|list|show|revoke` and `tongate accounts set`: outputs, JSON shapes, errors
 * that name the bad field, keys stored only as SHA-256; and a separate CLI process changing keys
 * while an access layer runs on the same store, on real timers: its new key honoured, its revoked key refused
 * (SQLite, and PostgreSQL + Redis pub/sub). How soon is a time rule, checked on a manual clock in key-poll.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { createAccessLayer, resolveAccessOptions, type AccessLayer, type AccessOptions } from '../../src/access/index.js';
import { registerKeyCommands } from '../../src/cli/keys-commands.js';
import { until } from '../support/poll.js';
import { embeddedBackend, sharedBackend } from './support/backends.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'keys-cli.ts');

/** Runs the commands in this process with captured output. */
async function cli(options: AccessOptions, args: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  let code = 0;
  const program = new Command('tongate').exitOverride();
  registerKeyCommands(program, () => options, {
    io: { out: (s) => (out += s + '\n'), err: (s) => (err += s + '\n'), fail: (c) => (code = c) },
  });
  await program.parseAsync(args, { from: 'user' });
  return { out, err, code };
}

/** Runs the stand-alone CLI as a separate process. */
function spawnCli(args: string[]): Promise<{ out: string; err: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => resolve({ out, err, code }));
  });
}

const BASE58_32_BYTES = /^tg_[1-9A-HJ-NP-Za-km-z]{43,44}$/;

test('keys and accounts commands: outputs, JSON, errors, hashed storage', async (t) => {
  const backend = embeddedBackend();
  const options = resolveAccessOptions(backend.options);
  try {
    await t.test('keys create prints the key alone on stdout, details on stderr', async () => {
      const r = await cli(options, ['keys', 'create', '--network', 'mainnet', '--label', 'ci runner']);
      assert.equal(r.code, 0, r.err);
      const key = r.out.trim();
      assert.match(key, BASE58_32_BYTES, 'prefix + base58 of 32 random bytes');
      assert.match(r.err, /created key_\w+: mainnet, 10 requests\/s, label "ci runner"\. The key above is shown only once/);
    });

    await t.test('keys create --json: {id, key, network, rps, ...}; --key imports; --expires; --account', async () => {
      const r = await cli(options, [
        'keys',
        'create',
        '--network',
        'testnet',
        '--rps',
        '25',
        '--account',
        'acme',
        '--expires',
        '2099-01-31',
        '--json',
      ]);
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out);
      assert.deepEqual(Object.keys(j).sort(), [
        'account',
        'createdAt',
        'display',
        'expiresAt',
        'id',
        'key',
        'label',
        'network',
        'revokedAt',
        'rps',
      ]);
      assert.equal(j.network, 'testnet');
      assert.equal(j.rps, 25);
      assert.equal(j.account, 'acme');
      assert.equal(j.expiresAt, Date.parse('2099-01-31T00:00:00Z'));
      assert.match(j.key, BASE58_32_BYTES);
      assert.ok(j.key.startsWith(j.display.replace('…', '')));
      const imported = JSON.parse(
        (await cli(options, ['keys', 'create', '--network', 'mainnet', '--key', 'my-existing-toncenter-key-0123456789', '--json'])).out,
      );
      assert.equal(imported.key, 'my-existing-toncenter-key-0123456789');
      assert.equal(imported.display, 'my-exist…');
    });

    await t.test('keys are stored as SHA-256 only; list and show never print them', async () => {
      const created = JSON.parse((await cli(options, ['keys', 'create', '--network', 'mainnet', '--json'])).out);
      const db = new Database(join(options.dataDir!, 'keys.sqlite'), { readonly: true });
      try {
        const rows = db.prepare('SELECT * FROM tongate_api_keys').all() as Array<Record<string, unknown>>;
        const dump = JSON.stringify(rows);
        assert.ok(!dump.includes(created.key), 'raw key not in the database');
        const row = rows.find((r) => r.id === created.id)!;
        assert.equal(row.hash, createHash('sha256').update(created.key).digest('hex'));
      } finally {
        db.close();
      }
      const list = await cli(options, ['keys', 'list']);
      assert.match(list.out, /^ID\s+KEY\s+NETWORK\s+RPS\s+ACCOUNT\s+STATUS\s+EXPIRES\s+LABEL/);
      assert.ok(list.out.includes(created.id) && !list.out.includes(created.key));
      const listJson = JSON.parse((await cli(options, ['keys', 'list', '--json'])).out);
      assert.ok(listJson.length >= 4 && listJson.every((k: Record<string, unknown>) => !('key' in k)));
      const show = await cli(options, ['keys', 'show', created.id]);
      assert.match(show.out, new RegExp(`id:\\s+${created.id}`));
      assert.match(show.out, /status:\s+active/);
      assert.ok(!show.out.includes(created.key));
    });

    await t.test('keys revoke; accounts set and list', async () => {
      const created = JSON.parse((await cli(options, ['keys', 'create', '--network', 'mainnet', '--json'])).out);
      const revoked = await cli(options, ['keys', 'revoke', created.id]);
      assert.equal(revoked.code, 0);
      assert.match(revoked.out, new RegExp(`revoked ${created.id}`));
      assert.match((await cli(options, ['keys', 'show', created.id])).out, /status:\s+revoked/);
      const set = await cli(options, ['accounts', 'set', 'acme', '--network', 'mainnet', '--rps', '25']);
      assert.equal(set.out.trim(), 'account acme on mainnet: 25 requests/s shared by its keys');
      const list = JSON.parse((await cli(options, ['accounts', 'list', '--json'])).out);
      assert.deepEqual(
        list.map((a: Record<string, unknown>) => [a.name, a.network, a.rps]),
        [['acme', 'mainnet', 25]],
      );
    });

    await t.test('bad input: exit code 1 and a message naming the field', async () => {
      const cases: Array<[string[], RegExp]> = [
        [['keys', 'create', '--network', 'devnet'], /network: unknown network "devnet" \(one of mainnet, testnet\)/],
        [['keys', 'create', '--network', 'mainnet', '--rps', 'ten'], /rps: must be an integer from 1 to 1000000/],
        [['keys', 'create', '--network', 'mainnet', '--rps', '0'], /rps: must be an integer/],
        [['keys', 'create', '--network', 'mainnet', '--expires', 'tomorrow'], /expires: not a date/],
        [['keys', 'create', '--network', 'mainnet', '--expires', '2001-01-01'], /expires: must be in the future/],
        [['keys', 'create', '--network', 'mainnet', '--key', 'has space'], /key: only visible ASCII/],
        [['keys', 'create', '--network', 'mainnet', '--key', 'x'.repeat(257)], /key: at most 256 characters/],
        [
          ['keys', 'create', '--network', 'mainnet', '--key', 'my-existing-toncenter-key-0123456789'],
          /key: this key is already registered/,
        ],
        [['keys', 'create', '--network', 'mainnet', '--account', 'bad name'], /account: 1-64 characters/],
        [['keys', 'show', 'key_doesNotExist'], /key: no key with id "key_doesNotExist"/],
        [['keys', 'revoke', 'key_doesNotExist'], /key: no key with id/],
        [['accounts', 'set', 'acme', '--network', 'mainnet', '--rps', '-3'], /rps: must be an integer/],
      ];
      for (const [args, message] of cases) {
        const r = await cli(options, args);
        assert.equal(r.code, 1, args.join(' '));
        assert.match(r.err, message, args.join(' '));
        assert.equal(r.out, '');
      }
    });
  } finally {
    await backend.cleanup();
  }
});

/** Only stops a hang: the poll runs every 250-500 ms, and no figure is asserted here. */
const HANG_MS = 60_000;

/** Waits until the running layer answers `status` for the key. */
function answers(access: AccessLayer, key: string, status: number): Promise<true> {
  return until(
    `status ${status}`,
    async () => {
      const d = await access.check({ network: 'mainnet', key, clientIp: '192.0.2.3' });
      return (d.allowed ? 200 : d.status) === status ? true : undefined;
    },
    HANG_MS,
  );
}

async function whileServerRuns(options: AccessOptions, storeFlags: string[]): Promise<void> {
  const access = await createAccessLayer(options);
  try {
    // The key is used (and cached as unknown) before it exists, then created by another process.
    const raw = `imported-${Date.now()}-0123456789abcdef`;
    await answers(access, raw, 401);
    const created = await spawnCli(['keys', 'create', '--network', 'mainnet', '--key', raw, '--json', ...storeFlags]);
    assert.equal(created.code, 0, created.err);
    await answers(access, raw, 200);
    const id = JSON.parse(created.out).id as string;
    const revoked = await spawnCli(['keys', 'revoke', id, ...storeFlags]);
    assert.equal(revoked.code, 0, revoked.err);
    await answers(access, raw, 401);
  } finally {
    await access.close();
  }
}

test('a CLI process changes keys while the server runs (SQLite data dir): honoured, then refused', async () => {
  const backend = embeddedBackend();
  try {
    await whileServerRuns(backend.options, ['--data-dir', backend.options.dataDir!]);
  } finally {
    await backend.cleanup();
  }
});

test('a CLI process changes keys while the server runs (PostgreSQL + Redis pub/sub): honoured, then refused', async (t) => {
  const backend = await sharedBackend(t);
  if (!backend) return;
  const o = backend.options;
  try {
    await whileServerRuns(o, [
      '--database-url',
      o.databaseUrl!,
      '--database-schema',
      o.databaseSchema!,
      '--redis-url',
      o.redisUrl!,
      '--redis-prefix',
      o.redisPrefix!,
    ]);
  } finally {
    await backend.cleanup();
  }
});
