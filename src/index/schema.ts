/**
 * The index's schema, one for both stores, as versioned migrations recorded in `index_migrations`.
 * A migration is a list of idempotent statements (IF NOT EXISTS) applied in one transaction with its
 * record, so a crash mid-migration leaves nothing half done, and two instances starting together on
 * one PostgreSQL database serialize on an advisory lock instead of racing.
 *
 * Shapes, and why:
 *   blocks                 every block (masterchain and shard), keyed like toncenter's (workchain, signed shard, seqno)
 *   shard_state            which shard blocks each masterchain block commits (masterchainBlockShardState)
 *   transactions           one row per transaction: the filter columns + `doc`, the v3 JSON with its
 *                          messages replaced by their hashes (messages are stored once, in `messages`)
 *   messages               one row per message hash: filter columns, the creating and receiving
 *                          transactions, `doc` = the v3 message JSON
 *   account_states         every account state a transaction produced, by state hash: `doc` = the v3
 *                          AccountState JSON (what account_state_before/after show)
 *   latest_account_states  one row per account: the newest state, with code/data BoCs and what the
 *                          wallet detector read from them (accountStates, walletStates, address_book)
 *   traces                 one row per trace (traces/schema.ts); transactions and messages carry its trace_id
 *   jetton_*               token contracts and their transfers and burns (tokens/schema.ts)
 *   index_backfill_cursors the token back-fill's progress (tokens/backfill-schema.ts; its auctions' and v4 sales' passes too), the actions back-fill's
 *   actions, action_accounts, trace_classifications  what complete traces did (actions/schema.ts)
 *   late_finds             contracts found late whose traces are still to be classified again (actions/late-finds-schema.ts)
 *   token_detection_failures  detections the chain did not answer: retries waiting, accounts given up (tokens/detection-retry-schema.ts)
 *   multisig_*, vesting_*  multisig v2 wallets and orders, vesting wallets (multisig/schema.ts, vesting/schema.ts)
 * Orderings the API needs are covered by an index each: transactions by (account, lt) (since migration 10
 * (account, lt, trace_id), traces/account-index-migration.ts) and (lt, account),
 * messages by sort_lt per filter column, blocks by (gen_utime, workchain desc, shard, seqno).
 */
import type { SqlDriver } from './sql/driver.js';
import type { Migration } from './sql/column-types.js';
import { MIGRATION_LOCK } from './sql/postgres-names.js';
import { addColumn, types } from './sql/column-types.js';
import { int } from './sql/values.js';
import { TRACES_MIGRATION } from './traces/schema.js';
import { ACCOUNT_TRACE_INDEX_MIGRATION } from './traces/account-index-migration.js';
import { TOKENS_MIGRATION } from './tokens/schema.js';
import { TOKEN_METADATA_MIGRATION } from './tokens/metadata-schema.js';
import { DNS_MIGRATION } from './dns/schema.js';
import { TOKEN_BACKFILL_MIGRATION } from './tokens/backfill-schema.js';
import { NFT_SALES_MIGRATION } from './tokens/sales-schema.js';
import { NFT_AUCTIONS_MIGRATION } from './tokens/auctions-schema.js';
import { SALE_V4_BACKFILL_MIGRATION } from './tokens/sales-v4-schema.js';
import { TOKEN_METADATA_QUEUE_MIGRATION } from './tokens/metadata-queue-schema.js';
import { ACTIONS_MIGRATION } from './actions/schema.js';
import { CLASSIFIER_VERSION_MIGRATION } from './actions/classifier-version-schema.js';
import { MULTISIG_MIGRATION } from './multisig/schema.js';
import { VESTING_MIGRATION } from './vesting/schema.js';
import { DEX_POOLS_MIGRATION } from './dex/schema.js';
import { LATE_FINDS_MIGRATION } from './actions/late-finds-schema.js';
import { DETECTION_FAILURES_MIGRATION } from './tokens/detection-retry-schema.js';

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'blocks, transactions, messages, account states',
    statements(dialect) {
      const { bytes, int64, sortableText } = types(dialect);
      return [
        `CREATE TABLE IF NOT EXISTS blocks (
          workchain INTEGER NOT NULL,
          shard ${int64} NOT NULL,
          seqno INTEGER NOT NULL,
          root_hash ${bytes} NOT NULL,
          file_hash ${bytes} NOT NULL,
          mc_seqno INTEGER NOT NULL,
          global_id INTEGER NOT NULL,
          version INTEGER NOT NULL,
          key_block INTEGER NOT NULL,
          gen_utime ${int64} NOT NULL,
          start_lt ${int64} NOT NULL,
          end_lt ${int64} NOT NULL,
          min_ref_mc_seqno INTEGER NOT NULL,
          prev_key_block_seqno INTEGER NOT NULL,
          master_ref_seqno INTEGER,
          rand_seed ${bytes} NOT NULL,
          state_root_hash ${bytes} NOT NULL,
          tx_count INTEGER NOT NULL,
          prev_blocks TEXT NOT NULL,
          PRIMARY KEY (workchain, shard, seqno)
        )`,
        `CREATE INDEX IF NOT EXISTS blocks_root_hash ON blocks (root_hash)`,
        `CREATE INDEX IF NOT EXISTS blocks_file_hash ON blocks (file_hash)`,
        `CREATE INDEX IF NOT EXISTS blocks_mc_seqno ON blocks (mc_seqno)`,
        `CREATE INDEX IF NOT EXISTS blocks_order ON blocks (gen_utime, workchain DESC, shard, seqno)`,
        `CREATE TABLE IF NOT EXISTS shard_state (
          mc_seqno INTEGER NOT NULL,
          workchain INTEGER NOT NULL,
          shard ${int64} NOT NULL,
          seqno INTEGER NOT NULL,
          PRIMARY KEY (mc_seqno, workchain, shard)
        )`,
        `CREATE TABLE IF NOT EXISTS transactions (
          hash ${bytes} PRIMARY KEY,
          account TEXT NOT NULL,
          lt ${int64} NOT NULL,
          now ${int64} NOT NULL,
          mc_seqno INTEGER NOT NULL,
          block_workchain INTEGER NOT NULL,
          block_shard ${int64} NOT NULL,
          block_seqno INTEGER NOT NULL,
          state_before ${bytes} NOT NULL,
          state_after ${bytes} NOT NULL,
          doc TEXT NOT NULL
        )`,
        `CREATE INDEX IF NOT EXISTS transactions_account_lt ON transactions (account, lt)`,
        `CREATE INDEX IF NOT EXISTS transactions_lt ON transactions (lt, account)`,
        `CREATE TABLE IF NOT EXISTS messages (
          msg_hash ${bytes} PRIMARY KEY,
          hash_norm ${bytes},
          source TEXT,
          destination TEXT,
          opcode ${int64},
          body_hash ${bytes} NOT NULL,
          created_lt ${int64},
          created_at ${int64},
          sort_lt ${int64} NOT NULL,
          in_tx_hash ${bytes},
          out_tx_hash ${bytes},
          doc TEXT NOT NULL
        )`,
        `CREATE INDEX IF NOT EXISTS messages_hash_norm ON messages (hash_norm) WHERE hash_norm IS NOT NULL`,
        `CREATE INDEX IF NOT EXISTS messages_sort_lt ON messages (sort_lt)`,
        `CREATE INDEX IF NOT EXISTS messages_source ON messages (source, sort_lt)`,
        `CREATE INDEX IF NOT EXISTS messages_destination ON messages (destination, sort_lt)`,
        `CREATE INDEX IF NOT EXISTS messages_opcode ON messages (opcode, sort_lt)`,
        `CREATE INDEX IF NOT EXISTS messages_body_hash ON messages (body_hash)`,
        `CREATE TABLE IF NOT EXISTS account_states (
          hash ${bytes} PRIMARY KEY,
          account TEXT NOT NULL,
          doc TEXT NOT NULL
        )`,
        `CREATE TABLE IF NOT EXISTS latest_account_states (
          account TEXT PRIMARY KEY,
          state_hash ${bytes} NOT NULL,
          status TEXT NOT NULL,
          balance TEXT NOT NULL,
          balance_order ${sortableText} NOT NULL,
          extra_currencies TEXT,
          frozen_hash ${bytes},
          code_hash ${bytes},
          data_hash ${bytes},
          code_boc ${bytes},
          data_boc ${bytes},
          last_trans_hash ${bytes} NOT NULL,
          last_trans_lt ${int64} NOT NULL,
          wallet TEXT
        )`,
        `CREATE INDEX IF NOT EXISTS latest_account_states_balance ON latest_account_states (balance_order)`,
      ];
    },
  },
  {
    version: 2,
    name: 'blocks: the header fields of a validator network (consensus)',
    statements(dialect) {
      // JSON of the header fields a local chain does not have (flags, split/merge, validator list hash, catchain
      // seqno, vert seqno, created_by); NULL for a local chain's blocks and for blocks indexed before.
      return [addColumn(dialect, 'blocks', 'consensus', 'TEXT')];
    },
  },
  // Self-contained: `migrate` applies every version a store has not seen, in any order.
  TRACES_MIGRATION,
  TOKENS_MIGRATION,
  DNS_MIGRATION,
  TOKEN_METADATA_MIGRATION,
  TOKEN_BACKFILL_MIGRATION,
  NFT_SALES_MIGRATION,
  TOKEN_METADATA_QUEUE_MIGRATION,
  ACCOUNT_TRACE_INDEX_MIGRATION,
  ACTIONS_MIGRATION,
  MULTISIG_MIGRATION,
  VESTING_MIGRATION,
  CLASSIFIER_VERSION_MIGRATION,
  DEX_POOLS_MIGRATION,
  LATE_FINDS_MIGRATION,
  DETECTION_FAILURES_MIGRATION,
  NFT_AUCTIONS_MIGRATION,
  SALE_V4_BACKFILL_MIGRATION,
];

export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/** Applies the migrations the store has not seen; refuses a store written by a newer tongate. */
export async function migrate(driver: SqlDriver, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  // Two instances migrating one PostgreSQL schema at once: the second waits, then finds it done.
  const lock = driver.dialect === 'postgres' ? [MIGRATION_LOCK] : [];
  await driver.write(
    [],
    [
      ...lock,
      `CREATE TABLE IF NOT EXISTS index_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${types(driver.dialect).int64} NOT NULL)`,
    ],
  );
  const applied = new Set((await driver.all('SELECT version FROM index_migrations')).map((row) => int(row.version)));
  const newest = Math.max(0, ...applied);
  if (newest > SCHEMA_VERSION) {
    throw new Error(`the index was written by a newer tongate (schema version ${newest}, this one knows ${SCHEMA_VERSION})`);
  }
  // `migrations`: all of them, but for a test that builds the index an earlier tongate wrote.
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    await driver.write(
      [
        {
          table: 'index_migrations',
          columns: ['version', 'name', 'applied_at'],
          rows: [[migration.version, migration.name, Date.now()]],
          conflict: 'ON CONFLICT (version) DO NOTHING',
        },
      ],
      [...lock, ...migration.statements(driver.dialect)],
    );
  }
}
