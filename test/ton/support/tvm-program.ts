/**
 * Runs a hand-assembled TVM program as a get-method on the real emulator (@ton/sandbox's Executor)
 * and returns the raw VmStack BoC it answers, the same bytes chain/local gets back.
 */
import { Address, beginCell } from '@ton/core';
import { defaultConfig, Executor } from '@ton/sandbox';

let executor: Promise<Executor> | undefined;

export async function runProgram(codeHex: string): Promise<{ stack: string; exitCode: number }> {
  executor ??= Executor.create();
  const result = await (
    await executor
  ).runGetMethod({
    code: beginCell().storeBuffer(Buffer.from(codeHex, 'hex')).endCell(),
    data: beginCell().endCell(),
    methodId: 0,
    stack: [],
    config: defaultConfig,
    verbosity: 'short',
    address: new Address(0, Buffer.alloc(32)),
    unixTime: 1_700_000_000,
    balance: 1_000_000_000n,
    randomSeed: Buffer.alloc(32),
    gasLimit: 1_000_000n,
    debugEnabled: false,
  });
  if (!result.output.success) throw new Error(`emulator failed: ${result.output.error}`);
  return { stack: result.output.stack, exitCode: result.output.vm_exit_code };
}

/**
 * One program whose result stack holds every kind of VM value (after DROP of the method id):
 *  0 int 7            77                 1 int -1            7F
 *  2 int 2^255        83FE (PUSHPOW2)    3 int -2^256        85FF (PUSHNEGPOW2)
 *  4 null             6D                 5 cell x{05}        75 C8 CB07 C9
 *  6 int 0, 7 slice   76 C8 CB07 C9 D0 D303  (LDU 4 leaves the window over the last 4 bits: 0110)
 *  8 builder x{09}    79 C8 CB07
 *  9 list (1 2)       71 72 6D 6F02 6F02  (pairs ending in null)
 * 10 tuple (1,(2,3),4) 71 72 73 6F02 74 6F03
 * 11 pair (5, null)   75 6D 6F02          (a one-item list by tonlib's rule)
 * 12 empty tuple      6F00               13 continuation     90 (PUSHCONT {})
 * 14 NaN              83FF
 */
export const EVERY_VALUE_PROGRAM =
  '30' +
  '77' +
  '7F' +
  '83FE' +
  '85FF' +
  '6D' +
  '75C8CB07C9' +
  '76C8CB07C9D0D303' +
  '79C8CB07' +
  '71726D6F026F02' +
  '7172736F02746F03' +
  '756D6F02' +
  '6F00' +
  '90' +
  '83FF';
