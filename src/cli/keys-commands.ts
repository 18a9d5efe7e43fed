/**
 * `tongate keys create|list|show|set|revoke` and `tongate accounts set|list`: key administration from
 * the shell, against the same store as the server (`--data-dir` SQLite, or `--database-url`), safe
 * while the server runs: the server sees changes within a second (store revision poll, plus Redis
 * pub/sub with `--redis-url`). The work is done by KeyAdmin (src/access/admin.ts), shared with the
 * admin HTTP API. Stable API (the CLI wires it):
 *
 *   registerKeyCommands(program, resolveOptions, { configure?, io? })
 *     resolveOptions(flags)  -> the AccessOptions of the deployment, from the command's flags other
 *                               than its own (config file, --data-dir, --database-url, --redis-url, ...)
 *     configure(command, own) adds the deployment's flags to each command (where its key store is), never
 *                               one of the keys listed in `own` (this command's own options, e.g. 'network')
 *
 * Commands that write (keys create, accounts set) create the embedded store if there is none; the others
 * refuse with a line naming the file, so running them in the wrong folder leaves no empty `.tongate/` behind.
 *
 * `keys create` prints the key alone on stdout (so `KEY=$(tongate keys create --network mainnet)`
 * works) and the details on stderr; `--json` prints {"id","key","network","rps",...} on stdout.
 * The key is shown this once: only its SHA-256 is stored.
 */
import type { Command } from 'commander';
// The admin and the options alone, not the access layer's index: a key command loads no metrics, limiter or Redis.
import { AdminError, openKeyAdmin, type KeyAdmin } from '../access/admin.js';
import { AccessOptionsError, type AccessOptions } from '../access/options.js';
import type { AccountLimit, KeyInfo } from '../access/keys/key-store.js';

export interface KeyCommandsIo {
  out(text: string): void;
  err(text: string): void;
  /** Records a failed command (default: process.exitCode = code). */
  fail?(code: number): void;
}

export interface KeyCommandsOptions {
  configure?: (command: Command, own: string[]) => Command | void;
  io?: KeyCommandsIo;
}

type ResolveOptions = (flags: Record<string, unknown>) => AccessOptions | Promise<AccessOptions>;

const consoleIo: KeyCommandsIo = {
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
};

export function registerKeyCommands(program: Command, resolveOptions: ResolveOptions, extra: KeyCommandsOptions = {}): void {
  const io = extra.io ?? consoleIo;
  const configure = (command: Command, own: string[]): Command => {
    extra.configure?.(command, own);
    return command;
  };
  /** Runs `work` with a KeyAdmin on the deployment's store; admin errors become one line on stderr and exit code 1. */
  const withAdmin = async (
    flags: Record<string, unknown>,
    own: string[],
    work: (admin: KeyAdmin) => Promise<void>,
    { existing = true } = {},
  ): Promise<void> => {
    const shared = Object.fromEntries(Object.entries(flags).filter(([k]) => !own.includes(k)));
    let session: Awaited<ReturnType<typeof openKeyAdmin>> | undefined;
    try {
      session = await openKeyAdmin(await resolveOptions(shared), { existing });
      await work(session.admin);
    } catch (error) {
      if (!(error instanceof AdminError || error instanceof AccessOptionsError)) throw error;
      io.err(`tongate: ${error.message}`);
      if (io.fail) io.fail(1);
      else process.exitCode = 1;
    } finally {
      await session?.close();
    }
  };

  const keys = program.command('keys').description('manage API keys (create, list, show, set, revoke)');

  const createOwn = ['network', 'rps', 'account', 'label', 'expires', 'key', 'streamConnections', 'streamAddresses', 'json'];
  configure(
    keys
      .command('create')
      .description('create an API key for one network; prints the key once')
      .requiredOption('--network <name>', 'the network the key is valid on (mainnet, testnet, ...)')
      .option('--rps <n>', 'requests per second of this key (default 10)')
      .option('--account <name>', 'the account the key belongs to (shares the account limit, if set)')
      .option('--label <text>', 'a note for operators')
      .option('--expires <date>', 'expiry, ISO 8601: 2027-01-31 (00:00 UTC) or 2027-01-31T12:00:00Z')
      .option('--key <raw>', 'import this key instead of generating one (up to 256 visible ASCII characters)')
      .option('--stream-connections <n>', "parallel streaming connections of this key (default: its account's, else 2)")
      .option('--stream-addresses <n>', "addresses one streaming connection of this key may follow (default: its account's, else 1000)")
      .option('--json', 'print JSON'),
    createOwn,
  ).action(async (flags: Record<string, unknown>) => {
    await withAdmin(
      flags,
      createOwn,
      async (admin) => {
        const created = await admin.createKey({
          network: flags.network as string,
          rps: flags.rps as number | undefined,
          account: flags.account as string | undefined,
          label: flags.label as string | undefined,
          expires: flags.expires as string | undefined,
          key: flags.key as string | undefined,
          streamConnections: flags.streamConnections as string | undefined,
          streamAddresses: flags.streamAddresses as string | undefined,
        });
        if (flags.json) {
          io.out(JSON.stringify(created));
          return;
        }
        io.out(created.key);
        io.err(`created ${created.id}: ${describeKey(created)}. The key above is shown only once: store it now.`);
      },
      { existing: false },
    );
  });

  const listOwn = ['json'];
  configure(
    keys.command('list').description('list keys (ids and display prefixes, never the keys)').option('--json', 'print JSON'),
    listOwn,
  ).action(async (flags: Record<string, unknown>) => {
    await withAdmin(flags, listOwn, async (admin) => {
      const all = await admin.listKeys();
      if (flags.json) io.out(JSON.stringify(all));
      else io.out(keyTable(all, Date.now()));
    });
  });

  configure(
    keys.command('show').description('show one key').argument('<id>', 'the key id (key_...)').option('--json', 'print JSON'),
    listOwn,
  ).action(async (id: string, flags: Record<string, unknown>) => {
    await withAdmin(flags, listOwn, async (admin) => {
      const info = await admin.showKey(id);
      if (flags.json) io.out(JSON.stringify(info));
      else io.out(keyDetails(info, Date.now()));
    });
  });

  const keySetOwn = ['rps', 'streamConnections', 'streamAddresses', 'json'];
  configure(
    keys
      .command('set')
      .description("change a key's own limits: the next request with it meets them, on every instance within a second")
      .argument('<id>', 'the key id (key_...)')
      .option('--rps <n>', 'requests per second of this key')
      .option('--stream-connections <n>', 'parallel streaming connections of this key')
      .option('--stream-addresses <n>', 'addresses one streaming connection of this key may follow')
      .option('--json', 'print JSON'),
    keySetOwn,
  ).action(async (id: string, flags: Record<string, unknown>) => {
    await withAdmin(flags, keySetOwn, async (admin) => {
      const info = await admin.setKeyLimits(id, {
        rps: flags.rps as string | undefined,
        streamConnections: flags.streamConnections as string | undefined,
        streamAddresses: flags.streamAddresses as string | undefined,
      });
      if (flags.json) io.out(JSON.stringify(info));
      else io.out(`${info.id} (${info.display}): ${describeKey(info)}`);
    });
  });

  configure(
    keys
      .command('revoke')
      .description('revoke a key: refused (401) within a second on every instance')
      .argument('<id>', 'the key id (key_...)')
      .option('--json', 'print JSON'),
    listOwn,
  ).action(async (id: string, flags: Record<string, unknown>) => {
    await withAdmin(flags, listOwn, async (admin) => {
      const info = await admin.revokeKey(id);
      if (flags.json) io.out(JSON.stringify(info));
      else io.out(`revoked ${info.id} (${info.display}, ${info.network})`);
    });
  });

  const accounts = program.command('accounts').description('manage account limits (shared by all keys of an account, per network)');
  const setOwn = ['network', 'rps', 'streamConnections', 'streamAddresses', 'json'];
  configure(
    accounts
      .command('set')
      .description("set an account's limit on one network, shared by all its keys there")
      .argument('<name>', 'the account name')
      .requiredOption('--network <name>', 'the network the limit applies to')
      .requiredOption('--rps <n>', 'requests per second, shared by all keys of the account on that network')
      .option('--stream-connections <n>', 'parallel streaming connections of each key of the account that sets none (default 2)')
      .option('--stream-addresses <n>', 'addresses per streaming connection of each key of the account that sets none (default 1000)')
      .option('--json', 'print JSON'),
    setOwn,
  ).action(async (name: string, flags: Record<string, unknown>) => {
    await withAdmin(
      flags,
      setOwn,
      async (admin) => {
        const limit = await admin.setAccountLimit({
          name,
          network: flags.network as string,
          rps: flags.rps as number,
          streamConnections: flags.streamConnections as string | undefined,
          streamAddresses: flags.streamAddresses as string | undefined,
        });
        if (flags.json) io.out(JSON.stringify(limit));
        else io.out(`account ${limit.name} on ${limit.network}: ${limit.rps} requests/s shared by its keys`);
      },
      { existing: false },
    );
  });

  configure(accounts.command('list').description('list account limits').option('--json', 'print JSON'), listOwn).action(
    async (flags: Record<string, unknown>) => {
      await withAdmin(flags, listOwn, async (admin) => {
        const all = await admin.listAccountLimits();
        if (flags.json) io.out(JSON.stringify(all));
        else io.out(accountTable(all));
      });
    },
  );
}

function status(info: KeyInfo, now: number): string {
  if (info.revokedAt !== null) return 'revoked';
  if (info.expiresAt !== null && info.expiresAt <= now) return 'expired';
  return 'active';
}

function iso(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString();
}

function describeKey(info: KeyInfo): string {
  const parts = [`${info.network}`, `${info.rps} requests/s`];
  if (info.account) parts.push(`account ${info.account}`);
  if (info.label) parts.push(`label ${JSON.stringify(info.label)}`);
  if (info.expiresAt !== null) parts.push(`expires ${iso(info.expiresAt)}`);
  if (info.streamConnections !== undefined) parts.push(`${info.streamConnections} streams`);
  if (info.streamAddresses !== undefined) parts.push(`${info.streamAddresses} addresses per stream`);
  return parts.join(', ');
}

function keyDetails(info: KeyInfo, now: number): string {
  return [
    `id:       ${info.id}`,
    `key:      ${info.display}`,
    `network:  ${info.network}`,
    `rps:      ${info.rps}`,
    `account:  ${info.account ?? '-'}`,
    `label:    ${info.label ?? '-'}`,
    `status:   ${status(info, now)}`,
    `created:  ${iso(info.createdAt)}`,
    `expires:  ${iso(info.expiresAt)}`,
    `revoked:  ${iso(info.revokedAt)}`,
  ].join('\n');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function keyTable(all: KeyInfo[], now: number): string {
  if (all.length === 0) return 'no keys yet: tongate keys create --network <name>';
  return table(
    ['ID', 'KEY', 'NETWORK', 'RPS', 'ACCOUNT', 'STATUS', 'EXPIRES', 'LABEL'],
    all.map((k) => [k.id, k.display, k.network, String(k.rps), k.account ?? '-', status(k, now), iso(k.expiresAt), k.label ?? '']),
  );
}

function accountTable(all: AccountLimit[]): string {
  if (all.length === 0) return 'no account limits yet: tongate accounts set <name> --network <name> --rps <n>';
  return table(
    ['ACCOUNT', 'NETWORK', 'RPS', 'UPDATED'],
    all.map((a) => [a.name, a.network, String(a.rps), iso(a.updatedAt)]),
  );
}
