/**
 * The system contracts every local zero state holds (src/contracts/system/code.ts) are what their FunC sources
 * compile to: a change to a source without new BoCs fails here, printing them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileFuncContract } from '../support/func.js';
import { CONFIG_CONTRACT_FUNC } from '../../src/contracts/system/config.fc.js';
import { ELECTOR_FUNC } from '../../src/contracts/system/elector.fc.js';
import { configContractCode, electorCode } from '../../src/contracts/system/code.js';

test('the shipped config contract and elector BoCs are exactly what config.fc.ts and elector.fc.ts compile to', async () => {
  const config = await compileFuncContract('config', CONFIG_CONTRACT_FUNC);
  const elector = await compileFuncContract('elector', ELECTOR_FUNC);
  assert.equal(
    config.hash().toString('hex'),
    configContractCode().hash().toString('hex'),
    `config.fc.ts changed: CONFIG_CONTRACT_CODE_BOC = '${config.toBoc().toString('base64')}'`,
  );
  assert.equal(
    elector.hash().toString('hex'),
    electorCode().hash().toString('hex'),
    `elector.fc.ts changed: ELECTOR_CODE_BOC = '${elector.toBoc().toString('base64')}'`,
  );
});
