/** Parameter declarations several methods share, so each is described and bounded once. */
import type { ParamSpec } from '../params.js';

export const ADDRESS = {
  type: 'address',
  required: true,
  description: 'Account address: raw (0:hex) or user-friendly.',
} as const satisfies ParamSpec;

/** A masterchain block: the state is read as of that block. */
export const SEQNO_OPTIONAL = {
  type: 'int',
  min: 0,
  description: 'Masterchain seqno: answer as of that block (default: the last one).',
} as const satisfies ParamSpec;

export const SEQNO_REQUIRED = { ...SEQNO_OPTIONAL, required: true, description: 'Masterchain block seqno.' } as const satisfies ParamSpec;

export const WORKCHAIN = {
  type: 'int',
  required: true,
  min: -128,
  max: 127,
  description: 'Workchain: -1 masterchain, 0 basechain.',
} as const satisfies ParamSpec;

export const SHARD = {
  type: 'shard',
  required: true,
  description: 'Shard id as a signed int64 decimal string (-9223372036854775808 for a whole workchain).',
} as const satisfies ParamSpec;

export const BLOCK_SEQNO = { type: 'int', required: true, min: 0, description: 'Block seqno in its shard.' } as const satisfies ParamSpec;

export const LT = { type: 'int64', min: 0n } as const satisfies ParamSpec;
