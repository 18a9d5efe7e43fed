/**
 * The checks of what a devnet control is given that the chain, not the HTTP layer, answers for: a unix time, a
 * snapshot name, an internal message to deliver. Each refuses with a ChainInputError (or BadMessage) naming the field.
 */
import { Cell, loadMessage, type Message } from '@ton/core';
import { BadMessage, ChainInputError } from '../errors.js';
import { holdsAccounts } from '../messages.js';

/** Names people type and URLs carry as they are: letters, digits, `.`, `_`, `-`, 1 to 64 of them. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function checkSnapshotName(name: string): void {
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
    throw new ChainInputError(`name: expected 1 to 64 letters, digits, ".", "_" or "-", got ${JSON.stringify(String(name).slice(0, 80))}`);
  }
}

export function checkUtime(utime: number, field: string): void {
  if (!Number.isInteger(utime) || utime < 0 || utime > 0xffff_ffff)
    throw new ChainInputError(`${field}: expected a unix time in seconds (0 to 4294967295), got ${utime}`);
}

/** An internal message to deliver: one root cell, internal, to workchain 0 or -1, created no later than the chain's lt. */
export function parseInternal(boc: Buffer, maxCreatedLt: bigint): { cell: Cell; message: Message } {
  let cell: Cell;
  let message: Message;
  try {
    const roots = Cell.fromBoc(boc);
    if (roots.length !== 1) throw new Error(`${roots.length} roots`);
    cell = roots[0];
    message = loadMessage(cell.beginParse());
  } catch (error) {
    throw new BadMessage(`boc: not a message (${(error as Error).message})`);
  }
  if (message.info.type !== 'internal') throw new BadMessage(`boc: an ${message.info.type} message; an internal one is delivered here`);
  if (!holdsAccounts(message.info.dest.workChain)) {
    throw new BadMessage(`boc: its destination is in workchain ${message.info.dest.workChain}; only workchains 0 and -1 hold accounts`);
  }
  if (message.info.createdLt > maxCreatedLt) {
    throw new BadMessage(`boc: created_lt ${message.info.createdLt} is after the chain's last lt ${maxCreatedLt}`);
  }
  return { cell, message };
}
