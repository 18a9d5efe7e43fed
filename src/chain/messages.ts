/**
 * Messages as the chain records and routes them: parsing of submitted externals, the TEP-467
 * normalized hash, and the summary (source, destination, created_lt, opcode, body hash) stored per
 * message.
 */
import { Address, Cell, loadMessage, type Message } from '@ton/core';
import { BOC_MAX_CELLS } from '../ton/boc.js';
import { normalizedExternalHash as normalizedHashOf } from '../ton/normalized-external-hash.js';
import { inspectBoc } from '../ton/boc-shape.js';
import { BASECHAIN, MASTERCHAIN } from '../ton/workchain.js';
import { EMULATOR_MAX_MESSAGE_DEPTH } from './emulator/emulator-limits.js';
import { BadMessage } from './errors.js';

export interface ParsedExternal {
  cell: Cell;
  /** BoC, base64, as the emulator takes it. */
  base64: string;
  message: Message;
  hash: Buffer;
  hashNorm: Buffer;
  dest: Address;
}

/** Workchains with account states here: the basechain and the masterchain, as on a real network. */
export const ACCOUNT_WORKCHAINS: readonly number[] = [0, -1];

export const holdsAccounts = (workchain: number): boolean => workchain === BASECHAIN || workchain === MASTERCHAIN;

/**
 * Parses a submitted BoC as an external-in message to an account of workchain 0 or -1 (any workchain with
 * `anyWorkchain`: a real network may have more). Throws BadMessage with the reason when it is not one.
 */
export function parseExternal(boc: Buffer, options: { anyWorkchain?: boolean } = {}): ParsedExternal {
  // Checked before anything is built: reference indexes in range, no more cells than a request may send.
  const shape = inspectBoc(boc);
  if (typeof shape === 'string') throw new BadMessage(`boc: not a valid bag of cells (${shape})`);
  if (shape.cells > BOC_MAX_CELLS) throw new BadMessage(`boc: more than ${BOC_MAX_CELLS} cells (this one holds ${shape.cells})`);
  let cell: Cell;
  try {
    const roots = Cell.fromBoc(boc);
    if (roots.length !== 1) throw new Error(`expected one root cell, got ${roots.length}`);
    cell = roots[0];
  } catch (err) {
    throw new BadMessage(`boc: not a valid bag of cells (${(err as Error).message})`);
  }
  if (cell.depth() > EMULATOR_MAX_MESSAGE_DEPTH) {
    throw new BadMessage(
      `boc: its cells nest ${cell.depth()} levels deep; the local emulator takes messages up to ${EMULATOR_MAX_MESSAGE_DEPTH} deep`,
    );
  }
  let message: Message;
  try {
    message = loadMessage(cell.beginParse());
  } catch (err) {
    throw new BadMessage(`boc: not a message (${(err as Error).message})`);
  }
  if (message.info.type !== 'external-in') {
    throw new BadMessage(`boc: expected an external-in message, got ${message.info.type}`);
  }
  const dest = message.info.dest;
  if (!options.anyWorkchain && !holdsAccounts(dest.workChain)) {
    throw new BadMessage(
      `boc: destination ${dest.toRawString()} is in workchain ${dest.workChain}; this local chain has workchains 0 and -1 only`,
    );
  }
  return {
    cell,
    // The emulator takes any valid BoC: pass the client's bytes on instead of serializing again.
    base64: boc.toString('base64'),
    message,
    hash: cell.hash(),
    hashNorm: normalizedExternalHash(message),
    dest,
  };
}

/** TEP-467 normalized hash of an external-in message (the rule itself: `src/ton/message-json.ts`). */
export function normalizedExternalHash(message: Message): Buffer {
  if (message.info.type !== 'external-in') throw new Error('hash_norm is defined for external-in messages only');
  return normalizedHashOf(message.info.dest, message.body);
}

export interface MessageSummary {
  hash: Buffer;
  /** 'int' internal, 'ext_in' external-in, 'ext_out' external-out. */
  kind: 'int' | 'ext_in' | 'ext_out';
  source: Address | null;
  destination: Address | null;
  createdLt: bigint | null;
  createdAt: number | null;
  /** First 32 bits of the body, when it has that many. */
  opcode: number | null;
  bodyHash: Buffer;
  /** Internal messages: value in nanotons. */
  value: bigint | null;
  bounce: boolean | null;
  bounced: boolean | null;
}

export function summarizeMessage(hash: Buffer, message: Message): MessageSummary {
  const body = message.body;
  const opcode = body.bits.length >= 32 ? body.beginParse().preloadUint(32) : null;
  const info = message.info;
  const base = { hash, opcode, bodyHash: body.hash() };
  switch (info.type) {
    case 'internal':
      return {
        ...base,
        kind: 'int',
        source: info.src,
        destination: info.dest,
        createdLt: info.createdLt,
        createdAt: info.createdAt,
        value: info.value.coins,
        bounce: info.bounce,
        bounced: info.bounced,
      };
    case 'external-in':
      return {
        ...base,
        kind: 'ext_in',
        source: null,
        destination: info.dest,
        createdLt: null,
        createdAt: null,
        value: null,
        bounce: null,
        bounced: null,
      };
    case 'external-out':
      return {
        ...base,
        kind: 'ext_out',
        source: info.src,
        destination: null,
        createdLt: info.createdLt,
        createdAt: info.createdAt,
        value: null,
        bounce: null,
        bounced: null,
      };
  }
}
