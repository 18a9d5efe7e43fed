/**
 * Who may write a network's index in a shared PostgreSQL database (`--database-url`, schema `tongate_<network>`).
 *
 * A lite network's index is the same whoever writes it (the blocks are the network's, every insert an upsert), so
 * any number of instances share it. A local chain is one process's chain: two instances each run a chain of their
 * own, and one index cannot hold both. So each instance holds a session-level advisory lock on the schema for as long
 * as its index is open, on a connection of its own: shared for a lite network, exclusive for a local chain. A second
 * local chain, or a lite network on a local chain's schema (or the reverse), is refused at once, and the refusal
 * names the holder from what PostgreSQL knows of its connection (application_name: network, kind, pid, host).
 * PostgreSQL drops the lock when the holder's connection ends (a `kill -9` closes its socket).
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { schemaLockKey } from './postgres-names.js';

/** The advisory lock's first key (the migration lock uses 7404617). */
const CLAIM_CLASS = 7404618;

export type ClaimKind = 'local chain' | 'lite network';

/** The schema is held in a way this instance cannot share. */
export class SchemaClaimed extends Error {
  override name = 'SchemaClaimed';
}

export interface SchemaClaim {
  release(): Promise<void>;
}

/** What the holder's connection says about it (PostgreSQL keeps at most 63 bytes). */
function applicationName(network: string, kind: ClaimKind): string {
  return `tongate ${network} ${kind}, pid ${process.pid} on ${hostname()}`.slice(0, 63);
}

export async function claimSchema(options: {
  databaseUrl: string;
  schema: string;
  network: string;
  kind: ClaimKind;
}): Promise<SchemaClaim> {
  const { schema, network, kind } = options;
  const client = new pg.Client({ connectionString: options.databaseUrl, application_name: applicationName(network, kind) });
  // A connection lost later (the server restarted) loses the lock with it; nothing here can win it back safely.
  client.on('error', () => {});
  await client.connect();
  const key = schemaLockKey(schema);
  try {
    const take = kind === 'local chain' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
    const { rows } = await client.query(`SELECT ${take}($1::int4, $2::int4) AS taken`, [CLAIM_CLASS, key]);
    if (!rows[0].taken) throw new SchemaClaimed(await refusal(client, options, key));
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  let released: Promise<void> | undefined;
  return { release: () => (released ??= client.end().catch(() => {})) };
}

/** Why the claim was refused, naming the instances that hold the schema. */
async function refusal(client: pg.Client, options: { schema: string; network: string; kind: ClaimKind }, key: number): Promise<string> {
  const { rows } = await client.query(
    `SELECT a.application_name, host(a.client_addr) AS addr, a.backend_start, l.mode
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objid = $2::oid AND l.objsubid = 2
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [String(CLAIM_CLASS), String(key >>> 0)],
  );
  const holders = rows.map(
    (row: { application_name: string; addr: string | null; backend_start: Date }) =>
      `${row.application_name || 'a client without a name'} (connected from ${row.addr ?? 'a local socket'} since ${row.backend_start.toISOString()})`,
  );
  const heldBy = holders.length > 0 ? holders.join('; ') : 'another instance (it has just let go: try again)';
  const exclusive = rows.some((row: { mode: string }) => row.mode === 'ExclusiveLock');
  const where = `the ${options.network} index in PostgreSQL (schema ${options.schema})`;
  if (exclusive) {
    return (
      `${where} is the index of another tongate's local chain: ${heldBy}. A local chain is one process's chain and ` +
      `its index cannot be shared: give this instance a database of its own (another --database-url)` +
      (options.kind === 'local chain' ? `, or serve ${options.network} as lite or upstream to scale it out` : '')
    );
  }
  return (
    `${where} is shared by tongates serving ${options.network} as a lite network: ${heldBy}. A local chain is one ` +
    `process's chain and cannot write into it: give this instance a database of its own (another --database-url)`
  );
}
