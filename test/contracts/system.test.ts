import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cell } from '@ton/core';
import { CONFIG_CONTRACT_CODE, CONFIG_CONTRACT_SOURCE } from '../../src/contracts/system/config-contract.js';
import { ELECTOR_CODE, ELECTOR_SOURCE } from '../../src/contracts/system/elector.js';
import { compileFuncContract } from '../support/func.js';

// The server runs the compiled constants (no FunC compiler at run time): they must be what the sources compile to.
for (const [name, source, code] of [
  ['config-contract', CONFIG_CONTRACT_SOURCE, CONFIG_CONTRACT_CODE],
  ['elector', ELECTOR_SOURCE, ELECTOR_CODE],
] as const) {
  test(`src/contracts/system: ${name}'s compiled code is what its FunC source compiles to`, async () => {
    const compiled = await compileFuncContract(name, source);
    assert.equal(Cell.fromBase64(code).hash().toString('hex'), compiled.hash().toString('hex'));
  });
}
