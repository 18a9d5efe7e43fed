/** The local chain's SQLite tables (store.ts opens them; snapshot-store.ts and snapshot-file.ts add and carry theirs). */

export const SCHEMA_VERSION = '1';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (
  workchain INTEGER NOT NULL, seqno INTEGER NOT NULL, shard INTEGER NOT NULL,
  root_hash BLOB NOT NULL, file_hash BLOB NOT NULL, mc_seqno INTEGER NOT NULL,
  gen_utime INTEGER NOT NULL, start_lt INTEGER NOT NULL, end_lt INTEGER NOT NULL, tx_count INTEGER NOT NULL,
  state_hash BLOB NOT NULL, rand_seed BLOB NOT NULL, boc BLOB NOT NULL,
  PRIMARY KEY (workchain, seqno)
);
CREATE INDEX IF NOT EXISTS blocks_by_lt ON blocks (workchain, end_lt);
CREATE INDEX IF NOT EXISTS blocks_by_utime ON blocks (workchain, gen_utime);
CREATE TABLE IF NOT EXISTS transactions (
  hash BLOB NOT NULL, workchain INTEGER NOT NULL, account BLOB NOT NULL, lt INTEGER NOT NULL, now INTEGER NOT NULL,
  block_seqno INTEGER NOT NULL, mc_seqno INTEGER NOT NULL, in_msg_hash BLOB, boc BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS tx_by_hash ON transactions (hash);
CREATE INDEX IF NOT EXISTS tx_by_account ON transactions (workchain, account, lt);
CREATE INDEX IF NOT EXISTS tx_by_block ON transactions (workchain, block_seqno, account, lt);
CREATE INDEX IF NOT EXISTS tx_by_in_msg ON transactions (in_msg_hash);
CREATE TABLE IF NOT EXISTS messages (
  hash BLOB NOT NULL, kind TEXT NOT NULL, source TEXT, destination TEXT, created_lt INTEGER, created_at INTEGER,
  opcode INTEGER, body_hash BLOB NOT NULL, hash_norm BLOB, out_tx_hash BLOB, mc_seqno INTEGER NOT NULL, boc BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS msg_by_hash ON messages (hash);
CREATE INDEX IF NOT EXISTS msg_by_norm ON messages (hash_norm) WHERE hash_norm IS NOT NULL;
CREATE TABLE IF NOT EXISTS account_states (
  workchain INTEGER NOT NULL, account BLOB NOT NULL, mc_seqno INTEGER NOT NULL, boc BLOB NOT NULL,
  PRIMARY KEY (workchain, account, mc_seqno)
);
CREATE TABLE IF NOT EXISTS pending_messages (hash BLOB PRIMARY KEY, created_lt INTEGER NOT NULL, boc BLOB NOT NULL);
-- Public libraries of masterchain accounts, per publisher (libraries.ts): the chain's global library set.
CREATE TABLE IF NOT EXISTS public_libraries (account BLOB NOT NULL, hash BLOB NOT NULL, boc BLOB NOT NULL, PRIMARY KEY (account, hash));
`;
