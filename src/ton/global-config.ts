/**
 * TON's global config (the `global.config.json` published for mainnet and testnet, and written by a local
 * network): the liteservers to ask and the blocks the chain is anchored to. Only what a liteserver client needs
 * is read; DHT and the rest are ignored. Every problem is a GlobalConfigError naming the field.
 */

/** A config that cannot be used; the message starts with the field at fault. */
export class GlobalConfigError extends Error {
  override name = 'GlobalConfigError';
}

export interface LiteServerAddress {
  /** host:port, as the ADNL client dials it. */
  host: string;
  port: number;
  /** The server's ed25519 public key (32 bytes): ADNL authenticates the server with it. */
  publicKey: Buffer;
}

export interface GlobalBlockId {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface GlobalConfig {
  liteservers: LiteServerAddress[];
  zeroState: GlobalBlockId;
  /** The newest block the config vouches for (a key block on mainnet); the zero state when absent. */
  initBlock: GlobalBlockId;
}

export function parseGlobalConfig(json: unknown): GlobalConfig {
  const root = object(json, 'global config');
  const servers = root.liteservers;
  if (!Array.isArray(servers) || servers.length === 0) throw new GlobalConfigError('liteservers: expected a non-empty list');
  const liteservers = servers.map((raw, i) => liteServer(raw, `liteservers[${i}]`));
  const validator = object(root.validator, 'validator');
  const zeroState = blockId(validator.zero_state, 'validator.zero_state');
  const initBlock = validator.init_block === undefined ? zeroState : blockId(validator.init_block, 'validator.init_block');
  return { liteservers, zeroState, initBlock };
}

function liteServer(raw: unknown, label: string): LiteServerAddress {
  const o = object(raw, label);
  const ip = integer(o.ip, `${label}.ip`, -(2 ** 31), 2 ** 32 - 1);
  const port = integer(o.port, `${label}.port`, 1, 65535);
  const id = object(o.id, `${label}.id`);
  const publicKey = bytes(id.key, `${label}.id.key`, 32);
  // The config writes the IPv4 address as a signed int32 (tonlib's convention).
  const u = ip >>> 0;
  const host = [u >>> 24, (u >>> 16) & 255, (u >>> 8) & 255, u & 255].join('.');
  return { host, port, publicKey };
}

function blockId(raw: unknown, label: string): GlobalBlockId {
  const o = object(raw, label);
  const shardRaw = o.shard;
  if (typeof shardRaw !== 'number' && typeof shardRaw !== 'string') throw new GlobalConfigError(`${label}.shard: expected an integer`);
  let shard: bigint;
  try {
    // JSON numbers lose precision past 2^53, but the only shard a config names is -2^63, which is exact.
    shard = BigInt.asUintN(64, BigInt(shardRaw));
  } catch {
    throw new GlobalConfigError(`${label}.shard: expected an integer, got ${JSON.stringify(shardRaw)}`);
  }
  return {
    workchain: integer(o.workchain, `${label}.workchain`, -(2 ** 31), 2 ** 31 - 1),
    shard,
    seqno: integer(o.seqno, `${label}.seqno`, 0, 2 ** 32 - 1),
    rootHash: bytes(o.root_hash, `${label}.root_hash`, 32),
    fileHash: bytes(o.file_hash, `${label}.file_hash`, 32),
  };
}

function object(raw: unknown, label: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new GlobalConfigError(`${label}: expected an object`);
  return raw as Record<string, unknown>;
}

function integer(raw: unknown, label: string, min: number, max: number): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
    throw new GlobalConfigError(`${label}: expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

function bytes(raw: unknown, label: string, length: number): Buffer {
  if (typeof raw !== 'string') throw new GlobalConfigError(`${label}: expected base64 of ${length} bytes`);
  const value = Buffer.from(raw, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || value.length !== length) {
    throw new GlobalConfigError(`${label}: expected base64 of ${length} bytes, got ${JSON.stringify(raw)}`);
  }
  return value;
}
