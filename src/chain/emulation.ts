/**
 * What every chain does around an emulated external message (estimateFee): build the message from its parts,
 * and read the fees out of the emulated transaction. chain/local emulates on its own state, chain/lite on the
 * state it fetched; both through the emulator read workers (chain/emulator/emulator-pool.ts).
 */
import { beginCell, Cell, external, loadTransaction, storeMessage, type Address } from '@ton/core';
import { BadMessage, ChainInputError } from './errors.js';
import { EMULATOR_MAX_MESSAGE_DEPTH } from './emulator/emulator-limits.js';
import { parseExternal } from './messages.js';
import type { TxRunResult } from './emulator/emulator.js';
import type { EmulationResult, ExternalToEmulate } from './types.js';

/** The destination and BoC (base64) of the message to emulate. */
export function externalToEmulate(message: ExternalToEmulate, options: { anyWorkchain?: boolean } = {}): { dest: Address; boc: string } {
  if (Buffer.isBuffer(message)) {
    const parsed = parseExternal(message, options);
    return { dest: parsed.dest, boc: parsed.base64 };
  }
  if ((message.initCode === undefined) !== (message.initData === undefined)) {
    throw new ChainInputError('init_code and init_data: give both or neither');
  }
  const init = message.initCode ? { code: message.initCode, data: message.initData! } : undefined;
  // The body hangs one level under the message, code and data two (under the StateInit).
  const parts: [string, Cell | undefined, number][] = [
    ['body', message.body, 1],
    ['init_code', message.initCode, 2],
    ['init_data', message.initData, 2],
  ];
  for (const [name, cell, under] of parts) {
    if (cell && cell.depth() + under > EMULATOR_MAX_MESSAGE_DEPTH) {
      throw new BadMessage(
        `${name}: its cells nest ${cell.depth()} levels deep; the local emulator takes messages up to ${EMULATOR_MAX_MESSAGE_DEPTH} deep`,
      );
    }
  }
  const boc = beginCell()
    .store(storeMessage(external({ to: message.address, body: message.body, init })))
    .endCell()
    .toBoc()
    .toString('base64');
  return { dest: message.address, boc };
}

/** The emulator's answer as fees: total_fees = import fee + storage + gas + action fees, so the import fee is what is left. */
export function emulationResult(result: TxRunResult): EmulationResult {
  const noFees = { inFwdFee: 0n, storageFee: 0n, gasFee: 0n, fwdFee: 0n, total: 0n };
  if (!result.success) return { accepted: false, error: result.error, exitCode: result.exitCode, fees: noFees };
  const tx = loadTransaction(Cell.fromBase64(result.transaction).beginParse());
  const d = tx.description;
  if (d.type !== 'generic') return { accepted: true, fees: { ...noFees, total: tx.totalFees.coins }, tx };
  const storageFee = d.storagePhase?.storageFeesCollected ?? 0n;
  const gasFee = d.computePhase.type === 'vm' ? d.computePhase.gasFees : 0n;
  const fwdFee = d.actionPhase?.totalFwdFees ?? 0n;
  const actionFees = d.actionPhase?.totalActionFees ?? 0n;
  const total = tx.totalFees.coins;
  const inFwdFee = total - storageFee - gasFee - actionFees;
  return { accepted: true, fees: { inFwdFee: inFwdFee > 0n ? inFwdFee : 0n, storageFee, gasFee, fwdFee, total }, tx };
}
