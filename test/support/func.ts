/**
 * Compiles a FunC contract of the tests (or of src/contracts) with func-js, the FunC compiler @ton/sandbox
 * ships with, after tongate's own declarations (src/contracts/stdlib.ts). Each source is compiled once per
 * test process.
 */
import { compileFunc } from '@ton-community/func-js';
import { Cell } from '@ton/core';
import { FUNC_STDLIB } from '../../src/contracts/stdlib.js';

const compiled = new Map<string, Promise<Cell>>();

/** `name` only labels the file in compiler errors; the source alone decides the code. */
export function compileFuncContract(name: string, source: string): Promise<Cell> {
  let code = compiled.get(source);
  if (code === undefined) {
    const file = `${name}.fc`;
    code = compileFunc({ targets: ['stdlib.fc', file], sources: { 'stdlib.fc': FUNC_STDLIB, [file]: source } }).then((result) => {
      if (result.status !== 'ok') throw new Error(`FunC (${file}): ${result.message}`);
      return Cell.fromBase64(result.codeBoc);
    });
    compiled.set(source, code);
  }
  return code;
}
