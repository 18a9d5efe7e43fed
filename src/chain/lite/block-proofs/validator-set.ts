/**
 * The validators that sign a masterchain block, computed from a config as TON computes them (crypto/block in
 * TON's sources, read not copied): param 34 (the current validator set: public keys, weights, ADNL addresses;
 * `main` of them validate the masterchain), param 28 (whether the masterchain validators are shuffled per
 * catchain), the catchain seqno from the block header. The set's short hash (crc32c of its TL form) must equal the
 * `gen_validator_list_hash_short` the signed block declares.
 */
import { createHash } from 'node:crypto';
import { crc32c, type Cell, type Slice } from '@ton/core';
import { MASTERCHAIN, WHOLE_SHARD } from '../../../ton/workchain.js';
import { LiteDataError } from '../errors.js';
import { hashmapEntriesBelow, hashmapLookup, open } from './dict-path.js';

const VALIDATORS_TAG = 0x11;
const VALIDATORS_EXT_TAG = 0x12;
const VALIDATOR_TAG = 0x53;
const VALIDATOR_ADDR_TAG = 0x73;
const ED25519_PUBKEY_TAG = 0x8e81278a;
const CATCHAIN_CONFIG_TAG = 0xc1;
const CATCHAIN_CONFIG_NEW_TAG = 0xc2;
/** pub.ed25519#4813b4c6, as its TL form starts (little-endian): a node id is sha256 of this and the key. */
const PUB_ED25519 = Buffer.from([0xc6, 0xb4, 0x13, 0x48]);
/** The TL magic test0.validatorSet the validator list hash is computed under (as an int32). */
const VALIDATOR_SET_MAGIC = -1877581587;

export interface Validator {
  publicKey: Buffer;
  weight: bigint;
  adnlAddr: Buffer;
}

/** Param 34 as it stands in a config (its first `main` validators: the masterchain's), with param 28's shuffle flag. */
export interface ConfigValidators {
  total: number;
  main: number;
  /** The first `main` of the `total` validators listed. */
  list: Validator[];
  shuffleMc: boolean;
}

/** The validators of one masterchain catchain: who may sign, with what weight, and the set's short hash. */
export interface MasterchainValidators {
  ccSeqno: number;
  byNodeId: Map<string, Validator>;
  totalWeight: bigint;
  hashShort: number;
}

/** One entry of a config dictionary (Hashmap 32 ^Cell) that may be a Merkle proof; undefined when absent. */
export function configParam(config: Cell, id: number): Cell | undefined {
  const leaf = hashmapLookup(config, BigInt(id), 32, `config param ${id}`);
  return leaf?.loadRef();
}

/** Params 34 and 28 of a (proven) config dictionary. */
export function configValidators(config: Cell): ConfigValidators {
  try {
    const p34 = configParam(config, 34);
    if (!p34) throw new LiteDataError('the config has no current validator set (param 34)');
    const set = readValidatorSet(open(p34, 'config param 34'));
    const p28 = configParam(config, 28);
    return { ...set, shuffleMc: p28 ? readShuffleMc(open(p28, 'config param 28')) : false };
  } catch (err) {
    if (err instanceof LiteDataError) throw err;
    throw new LiteDataError(`validator set: unreadable (${(err as Error).message})`);
  }
}

function readValidatorSet(s: Slice): Omit<ConfigValidators, 'shuffleMc'> {
  const tag = s.loadUint(8);
  if (tag !== VALIDATORS_TAG && tag !== VALIDATORS_EXT_TAG) throw new LiteDataError(`config param 34: not a validator set (tag ${tag})`);
  s.skip(32 + 32); // utime_since, utime_until
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  if (main < 1 || main > total) throw new LiteDataError('config param 34: main validators out of range');
  // Only the first `main` validators sign masterchain blocks (shuffled among themselves): the rest are not read.
  let root: Slice | undefined = s;
  if (tag === VALIDATORS_EXT_TAG) {
    s.skip(64); // total_weight
    const ref = s.loadMaybeRef();
    root = ref ? open(ref, 'config param 34: validator list') : undefined;
  }
  const list: Validator[] = [];
  if (root) {
    hashmapEntriesBelow(root, 16, main, 'config param 34: validator list', (i, value) => {
      list[i] = readValidator(value);
    });
  }
  for (let i = 0; i < main; i++) if (!list[i]) throw new LiteDataError(`config param 34: validator ${i} of ${total} missing`);
  return { total, main, list };
}

function readValidator(s: Slice): Validator {
  const tag = s.loadUint(8);
  if (tag !== VALIDATOR_TAG && tag !== VALIDATOR_ADDR_TAG)
    throw new LiteDataError(`config param 34: not a validator description (tag ${tag})`);
  if (s.loadUint(32) !== ED25519_PUBKEY_TAG) throw new LiteDataError('config param 34: not an ed25519 key');
  const publicKey = s.loadBuffer(32);
  const weight = s.loadUintBig(64);
  const adnlAddr = tag === VALIDATOR_ADDR_TAG ? s.loadBuffer(32) : Buffer.alloc(32);
  return { publicKey, weight, adnlAddr };
}

/** catchain_config#c1 (no shuffle) or catchain_config_new#c2 flags:(## 7) shuffle_mc_validators:Bool ... */
function readShuffleMc(s: Slice): boolean {
  const tag = s.loadUint(8);
  if (tag === CATCHAIN_CONFIG_TAG) return false;
  if (tag !== CATCHAIN_CONFIG_NEW_TAG) throw new LiteDataError(`config param 28: not a catchain config (tag ${tag})`);
  s.skip(7);
  return s.loadBit();
}

/**
 * The masterchain validators of catchain `ccSeqno`: the first `main` of the list, in list order, or (param 28's
 * shuffle flag) in an order drawn from a PRNG seeded by the shard and catchain seqno.
 */
export function masterchainValidators(config: ConfigValidators, ccSeqno: number): MasterchainValidators {
  const count = Math.min(config.main, config.total);
  let chosen = config.list.slice(0, count);
  if (config.shuffleMc) {
    const prng = new ValidatorSetPrng(MASTERCHAIN, WHOLE_SHARD, ccSeqno);
    const idx = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      const j = Number(prng.nextRanged(BigInt(i + 1)));
      idx[i] = idx[j];
      idx[j] = i;
    }
    chosen = idx.map((i) => config.list[i]);
  }
  const byNodeId = new Map<string, Validator>();
  let totalWeight = 0n;
  for (const v of chosen) {
    totalWeight += v.weight;
    byNodeId.set(nodeIdShort(v.publicKey).toString('hex'), v);
  }
  return { ccSeqno, byNodeId, totalWeight, hashShort: validatorListHashShort(ccSeqno, chosen) };
}

/** sha256 of the key's TL form (pub.ed25519): how a signature names its validator. */
export function nodeIdShort(publicKey: Buffer): Buffer {
  return createHash('sha256').update(PUB_ED25519).update(publicKey).digest();
}

/** crc32c of test0.validatorSet cc_seqno [key weight addr]: the header's gen_validator_list_hash_short. */
export function validatorListHashShort(ccSeqno: number, validators: Validator[]): number {
  const buffer = Buffer.alloc(12 + validators.length * 72);
  buffer.writeInt32LE(VALIDATOR_SET_MAGIC, 0);
  buffer.writeUInt32LE(ccSeqno >>> 0, 4);
  buffer.writeUInt32LE(validators.length, 8);
  validators.forEach((v, i) => {
    const at = 12 + i * 72;
    v.publicKey.copy(buffer, at);
    buffer.writeBigUInt64LE(v.weight, at + 32);
    v.adnlAddr.copy(buffer, at + 40);
  });
  return crc32c(buffer).readUInt32LE(0);
}

/**
 * TON's validator-set PRNG: SHA-512 of (seed:32 zero bytes, shard, workchain, cc_seqno, big-endian), read as
 * eight big-endian 64-bit numbers, then the seed (big-endian) plus one and again.
 */
class ValidatorSetPrng {
  private readonly data = Buffer.alloc(48);
  private words: bigint[] = [];
  private pos = 0;

  constructor(workchain: number, shard: bigint, ccSeqno: number) {
    this.data.writeBigUInt64BE(shard, 32);
    this.data.writeInt32BE(workchain, 40);
    this.data.writeUInt32BE(ccSeqno >>> 0, 44);
  }

  nextUlong(): bigint {
    if (this.pos >= this.words.length) {
      const hash = createHash('sha512').update(this.data).digest();
      this.words = Array.from({ length: 8 }, (_, i) => hash.readBigUInt64BE(i * 8));
      this.pos = 0;
      for (let i = 31; i >= 0; i--) {
        this.data[i] = (this.data[i] + 1) & 0xff;
        if (this.data[i] !== 0) break;
      }
    }
    return this.words[this.pos++];
  }

  /** A number in 0 .. range-1: the high 64 bits of range x next. */
  nextRanged(range: bigint): bigint {
    return (range * this.nextUlong()) >> 64n;
  }
}
