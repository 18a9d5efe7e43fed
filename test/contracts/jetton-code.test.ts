/**
 * The jetton code the server ships (src/contracts/jetton/code.ts) is what the FunC sources compile to: a change
 * to a source without new BoCs fails here, printing them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileFuncContract } from '../support/func.js';
import { JETTON_MASTER_FUNC } from '../../src/contracts/jetton/master.fc.js';
import { JETTON_WALLET_FUNC } from '../../src/contracts/jetton/wallet.fc.js';
import { JETTON_MASTER_CODE_BOC, JETTON_WALLET_CODE_BOC, jettonMasterCode, jettonWalletCode } from '../../src/contracts/jetton/code.js';

test('the shipped jetton master and wallet BoCs are exactly what master.fc.ts and wallet.fc.ts compile to', async () => {
  const master = await compileFuncContract('jetton-master', JETTON_MASTER_FUNC);
  const wallet = await compileFuncContract('jetton-wallet', JETTON_WALLET_FUNC);
  assert.equal(
    master.hash().toString('hex'),
    jettonMasterCode().hash().toString('hex'),
    `master.fc.ts changed: JETTON_MASTER_CODE_BOC = '${master.toBoc().toString('base64')}'`,
  );
  assert.equal(
    wallet.hash().toString('hex'),
    jettonWalletCode().hash().toString('hex'),
    `wallet.fc.ts changed: JETTON_WALLET_CODE_BOC = '${wallet.toBoc().toString('base64')}'`,
  );
  assert.notEqual(JETTON_MASTER_CODE_BOC, JETTON_WALLET_CODE_BOC);
});
