import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LOG_LEVELS, OPTIONS } from '../../src/config/options.js';
import { envName, flagName } from '../../src/config/option-spec.js';

test('docs/configuration.md documents every option: flag, file key and environment variable', () => {
  const readme = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  for (const spec of OPTIONS) {
    assert.ok(readme.includes(`\`${flagName(spec)}`), `docs/configuration.md lacks ${flagName(spec)}`);
    assert.ok(readme.includes(`\`${spec.key}\``), `docs/configuration.md lacks the file key ${spec.key}`);
    assert.ok(readme.includes(envName(spec.key)), `docs/configuration.md lacks ${envName(spec.key)}`);
  }
});

test("docs/configuration.md's table: each row's default is the code's, and --log-level lists the levels it takes", () => {
  const readme = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of readme.split('\n')) {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    const flag = /^`(--[a-z0-9-]+)/.exec(cells[0] ?? '')?.[1];
    if (flag && cells.length === 5) rows.set(flag, cells);
  }
  let compared = 0;
  for (const spec of OPTIONS) {
    const row = rows.get(flagName(spec));
    assert.ok(row, `the table has a row for ${flagName(spec)}`);
    const documented = row[3].replace(/`/g, '');
    // Only plain values are compared; a default said in words (\"mainnet and testnet as above\") is not a value.
    if (
      typeof spec.defaultValue === 'number' ||
      typeof spec.defaultValue === 'boolean' ||
      (typeof spec.defaultValue === 'string' && /^[\w./-]+$/.test(documented))
    ) {
      assert.equal(documented, String(spec.defaultValue), `${flagName(spec)}: the documented default`);
      compared++;
    }
  }
  assert.ok(compared >= 10, `compared ${compared} defaults`);
  const levels = [...rows.get('--log-level')![4].matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.deepEqual(levels, LOG_LEVELS);
  const help = OPTIONS.find((s) => s.key === 'logLevel')!.description;
  for (const level of LOG_LEVELS) assert.match(help, new RegExp(`\\b${level}\\b`), `--log-level's help lists ${level}`);
});
