/**
 * Migration 13: vesting wallets (what toncenter's indexer keeps as `vesting_contracts` and `vesting_whitelist`): one
 * row per detected wallet at its last detected state, and one per whitelisted address. A whitelist only grows (the
 * contract cannot remove an address), so its rows are only ever added, but on a snapshot restore
 * (tokens/rewind-tokens.ts). An index that already holds accounts is walked again by the token back-fill
 * (multisig/schema.ts puts its cursor back; migrations 12 and 13 come together).
 */
import { types, type Migration } from '../sql/column-types.js';
import { leaveTokenPass, TOKEN_BACKFILL } from '../tokens/backfill-schema.js';

export const VESTING_MIGRATION: Migration = {
  version: 13,
  name: 'vesting wallets and their whitelists',
  statements(dialect) {
    const { bytes, int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS vesting_contracts (
        address TEXT PRIMARY KEY,
        start_time ${int64} NOT NULL,
        total_duration ${int64} NOT NULL,
        unlock_period ${int64} NOT NULL,
        cliff_duration ${int64} NOT NULL,
        total_amount TEXT NOT NULL,
        sender_address TEXT NOT NULL,
        owner_address TEXT NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS vesting_contracts_first_lt ON vesting_contracts (first_lt, address)`,
      `CREATE INDEX IF NOT EXISTS vesting_contracts_owner ON vesting_contracts (owner_address)`,
      `CREATE INDEX IF NOT EXISTS vesting_contracts_sender ON vesting_contracts (sender_address)`,
      `CREATE TABLE IF NOT EXISTS vesting_whitelist (
        vesting_address TEXT NOT NULL,
        wallet_address TEXT NOT NULL,
        PRIMARY KEY (vesting_address, wallet_address)
      )`,
      `CREATE INDEX IF NOT EXISTS vesting_whitelist_wallet ON vesting_whitelist (wallet_address, vesting_address)`,
      leaveTokenPass(TOKEN_BACKFILL),
    ];
  },
};
