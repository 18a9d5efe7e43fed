/**
 * Contracts of the public-library tests: a publisher (on the masterchain, it publishes the code it is sent with
 * SETLIBCODE in public mode) and a small contract to publish (its get-method `answer` returns 42; a message
 * stores 42 in its data), and the library cell standing for that code in another contract's state.
 */
import { beginCell, Cell } from '@ton/core';
import { compileFuncContract } from './func.js';

const PUBLISHER_SOURCE = `
() set_lib_code(cell code, int mode) impure asm "SETLIBCODE";
() recv_internal(int balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_refs_empty?()) { return (); }
  set_lib_code(in_msg_body~load_ref(), 2); ;; mode 2: public
}
`;

const ANSWER_SOURCE = `
() recv_internal(int balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  set_data(begin_cell().store_uint(42, 32).end_cell());
}
int answer() method_id { return 42; }
`;

export const publisherCode = (): Promise<Cell> => compileFuncContract('publisher', PUBLISHER_SOURCE);
export const answerCode = (): Promise<Cell> => compileFuncContract('answer', ANSWER_SOURCE);

/** An exotic library cell (type 2 + the library's hash): code that the chain's public libraries resolve. */
export function libraryCell(code: Cell): Cell {
  return new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(code.hash()).endCell().bits });
}
