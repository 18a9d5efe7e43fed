/**
 * Migration 12: multisig v2 wallets and their orders (what toncenter's indexer keeps as `multisig` and
 * `multisig_orders`), one row per detected contract at its last detected state, and `multisig_members`: who signs or
 * proposes for which wallet, so `/multisig/wallets?wallet_address=` is an indexed read. A member row carries the
 * wallet state's lt it was read at; a row whose lt is not the wallet's current one is a former member (signers are
 * replaced by an order's update_multisig_params, and the index's writes are upserts only).
 * An index that already holds accounts gets the token back-fill's cursor again ('tokens', tokens/backfill-schema.ts):
 * the back-fill walks its accounts once more, skips the contracts already detected and detects the multisigs,
 * orders and vesting wallets among the others.
 */
import { types, type Migration } from '../sql/column-types.js';
import { leaveTokenPass, TOKEN_BACKFILL } from '../tokens/backfill-schema.js';

export const MULTISIG_MIGRATION: Migration = {
  version: 12,
  name: 'multisig v2 wallets and orders',
  statements(dialect) {
    const { bytes, int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS multisig_wallets (
        address TEXT PRIMARY KEY,
        next_order_seqno TEXT NOT NULL,
        threshold INTEGER NOT NULL,
        signers TEXT NOT NULL,
        proposers TEXT NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS multisig_wallets_first_lt ON multisig_wallets (first_lt, address)`,
      `CREATE TABLE IF NOT EXISTS multisig_members (
        wallet_address TEXT NOT NULL,
        multisig_address TEXT NOT NULL,
        role TEXT NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        PRIMARY KEY (wallet_address, multisig_address, role)
      )`,
      `CREATE INDEX IF NOT EXISTS multisig_members_multisig ON multisig_members (multisig_address)`,
      `CREATE TABLE IF NOT EXISTS multisig_orders (
        address TEXT PRIMARY KEY,
        multisig_address TEXT NOT NULL,
        order_seqno TEXT NOT NULL,
        threshold INTEGER NOT NULL,
        sent_for_execution INTEGER NOT NULL,
        approvals_mask TEXT NOT NULL,
        approvals_num INTEGER NOT NULL,
        expiration_date ${int64} NOT NULL,
        order_boc TEXT NOT NULL,
        signers TEXT NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS multisig_orders_first_lt ON multisig_orders (first_lt, address)`,
      `CREATE INDEX IF NOT EXISTS multisig_orders_multisig ON multisig_orders (multisig_address, first_lt, address)`,
      leaveTokenPass(TOKEN_BACKFILL),
    ];
  },
};
