/** Each CLI command's own options in its --help; commands that only read keys leave no store behind. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { OPTIONS } from '../../src/config/options.js';
import { flagName } from '../../src/config/option-spec.js';
import { runTongate } from '../support/process.js';

/** Every command that runs something (not the groups `keys`, `accounts`, `snapshot`), with its path. */
function leaves(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  if (command.commands.length === 0) return [{ path: path.join(' '), command }];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

test('start --help lists every option with its default; every other command lists only the options it reads', () => {
  const commands = leaves(buildProgram());
  const start = commands.find((c) => c.path === 'start')!.command.helpInformation();
  for (const spec of OPTIONS) assert.ok(start.includes(flagName(spec)), `start --help lacks ${flagName(spec)}`);
  assert.match(start, /--data-dir <dir>\s+where chains, keys and the index are\s+stored \(default: \.\/\.tongate;/);
  assert.match(start, /--block-interval <ms>[^]*?\(default: 1000;/);
  assert.match(start, /--log-format <format>[^]*?\(default: json;/);

  const others = commands.filter((c) => c.path !== 'start');
  assert.ok(others.length >= 12, `the other commands (${others.map((c) => c.path).join(', ')})`);
  const startOnly = ['--block-interval', '--upstream-v2', '--tls-cert', '--fetch-metadata', '--log-level', '--listen'];
  for (const { path, command } of others) {
    const help = command.helpInformation();
    const lines = help.trimEnd().split('\n').length;
    assert.ok(lines <= 40, `tongate ${path} --help: ${lines} lines`);
    // An option is listed at a line's start; another option's description may name it (--backend names --upstream-v2).
    for (const flag of startOnly) assert.ok(!new RegExp(`^\\s+${flag}\\b`, 'm').test(help), `tongate ${path} --help lists start's ${flag}`);
    assert.ok(help.includes('--config <file>'), `tongate ${path} reads the deployment's config file`);
  }
  const keysList = commands.find((c) => c.path === 'keys list')!.command.helpInformation();
  for (const flag of ['--data-dir', '--database-url', '--redis-url', '--json'])
    assert.ok(keysList.includes(flag), `keys list --help lacks ${flag}`);
  const mine = commands.find((c) => c.path === 'mine')!.command.helpInformation();
  for (const flag of ['--network <name>', '--blocks', '--admin-token']) assert.ok(mine.includes(flag), `mine --help lacks ${flag}`);
});

test('keys list, show, revoke, set and accounts list on a folder without a key store: exit 1 naming the file, nothing created', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'tongate-nokeys-')), 'data');
  for (const args of [
    ['keys', 'list'],
    ['keys', 'show', 'key_x'],
    ['keys', 'revoke', 'key_x'],
    ['keys', 'set', 'key_x', '--rps', '3'],
    ['accounts', 'list'],
  ]) {
    const run = await runTongate([...args, '--data-dir', dir]);
    assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(`no key store at ${dir}/keys\\.sqlite \\(tongate start creates it there`), args.join(' '));
    assert.equal(existsSync(dir), false, `${args.join(' ')} created ${dir}`);
  }
  // A command that writes creates the store, and the readers find it there.
  const created = await runTongate(['keys', 'create', '--network', 'mainnet', '--json', '--data-dir', dir]);
  assert.equal(created.code, 0, created.stderr);
  const listed = await runTongate(['keys', 'list', '--json', '--data-dir', dir]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(JSON.parse(listed.stdout)[0].id, JSON.parse(created.stdout).id);
});
