/**
 * Scaling out on one PostgreSQL database (`--database-url`): a lite network's index is shared by any number of
 * instances; a local chain's index is one process's, so a second local chain (or a lite network on its schema) is
 * refused at start with a message naming the instance that holds it, never advising to drop anything. Real
 * PostgreSQL; each test a schema or a database of its own.
 */
import { test } from 'node:test';
import pg from 'pg';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimSchema, SchemaClaimed } from '../../src/index/sql/schema-claim.js';
import { POSTGRES_URL, privateDatabase, requireService, uniqueName } from '../support/services.js';
import { runRefusedStart, spawnTongate, waitForOutput } from '../support/process.js';
import { freePort } from '../support/ports.js';

/** Waits (asking again every 100 ms, at most a minute) until the mainnet index in `url` holds a masterchain block. */
async function untilIndexHoldsABlock(url: URL): Promise<void> {
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 600; attempt++) {
      const { rows } = await client
        .query('SELECT 1 FROM tongate_mainnet.blocks WHERE workchain = -1 LIMIT 1')
        .catch(() => ({ rows: [] as unknown[] }));
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail('the first tongate indexed no block within a minute');
  } finally {
    await client.end();
  }
}

const claimOf = (schema: string, kind: 'local chain' | 'lite network') =>
  claimSchema({ databaseUrl: POSTGRES_URL, schema, network: 'mainnet', kind });

test('lite networks share a schema; a local chain holds it alone, and each refusal names the holder', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_claim');
  const lite = [await claimOf(schema, 'lite network'), await claimOf(schema, 'lite network')];
  await assert.rejects(claimOf(schema, 'local chain'), (err: Error) => {
    assert.ok(err instanceof SchemaClaimed);
    assert.match(
      err.message,
      new RegExp(
        `schema ${schema}\\) is shared by tongates serving mainnet as a lite network: tongate mainnet lite network, pid ${process.pid}`,
      ),
    );
    assert.doesNotMatch(err.message, /drop|delete/i);
    return true;
  });
  for (const claim of lite) await claim.release();
  const local = await claimOf(schema, 'local chain');
  for (const kind of ['local chain', 'lite network'] as const) {
    await assert.rejects(claimOf(schema, kind), (err: Error) => {
      assert.match(
        err.message,
        new RegExp(
          `is the index of another tongate's local chain: tongate mainnet local chain, pid ${process.pid} on ${hostname()}`.slice(0, 120),
        ),
      );
      assert.match(err.message, /give this instance a database of its own \(another --database-url\)/);
      assert.doesNotMatch(err.message, /drop|delete/i);
      return true;
    });
  }
  // Another schema is another lock.
  const other = await claimOf(uniqueName('tongate_claim'), 'local chain');
  await other.release();
  await local.release();
  await (await claimOf(schema, 'local chain')).release();
});

test('two tongates with local chains on one --database-url: the second exits 2 naming the first; once the first is gone, its chain is still named', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const url = await privateDatabase(t, 'tongate_claim');
  const dirs = [mkdtempSync(join(tmpdir(), 'tongate-claim-a-')), mkdtempSync(join(tmpdir(), 'tongate-claim-b-'))];
  t.after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const args = async (dir: string) => [
    'start',
    '--network',
    `mainnet=http://127.0.0.1:${await freePort()}`,
    '--data-dir',
    dir,
    '--database-url',
    url.href,
    '--block-interval',
    '500',
    '--log-level',
    'warn',
  ];

  const first = spawnTongate(await args(dirs[0]!));
  t.after(() => first.kill('SIGKILL'));
  await waitForOutput(first, (out) => out.includes('toncenter-compatible API on'));

  const second = await runRefusedStart(await args(dirs[1]!));
  assert.equal(second.code, 2, second.stderr);
  const lines = second.stderr.split('\n').filter((line) => line.trim() !== '');
  assert.equal(lines.length, 1, second.stderr);
  assert.match(
    lines[0]!,
    /^tongate: bad configuration: --database-url: the mainnet index in PostgreSQL \(schema tongate_mainnet\) is the index of another tongate's local chain: /,
  );
  assert.ok(lines[0]!.includes(`tongate mainnet local chain, pid ${first.pid}`), lines[0]);
  assert.doesNotMatch(lines[0]!, /drop|delete/i);

  // The first one dies (its lock goes with its connection); its blocks stay, and the second still may not mix its own in.
  // Its index must hold a block first: an empty index is any chain's to take (on a loaded machine the banner can come
  // before the first block is committed, and a third start on an empty index would rightly serve).
  await untilIndexHoldsABlock(url);
  const exited = new Promise((resolve) => first.once('close', resolve));
  first.kill('SIGKILL');
  await exited;
  const third = await runRefusedStart(await args(dirs[1]!));
  assert.notEqual(third.code, 0, third.stderr);
  const why = third.stderr.split('\n').filter((line) => line.trim() !== '');
  assert.equal(why.length, 1, third.stderr);
  assert.match(
    why[0]!,
    /the mainnet index \(PostgreSQL schema tongate_mainnet\) holds masterchain blocks 0\.\.\d+ of another chain \(global_id -239; its block \d+ is [0-9A-F]{16}…, sealed /,
  );
  assert.doesNotMatch(why[0]!, /drop|delete/i);
});
