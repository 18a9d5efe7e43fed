import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mnemonicNew, mnemonicToPrivateKey, signVerify } from '@ton/crypto';
import { beginCell } from '@ton/core';
import { faucetKeys } from '../../../src/chain/local/faucet.js';

test('faucet keys are the key pair @ton/crypto derives from the mnemonic, and sign what its verify accepts', async () => {
  for (let i = 0; i < 3; i++) {
    const mnemonic = await mnemonicNew();
    const expected = await mnemonicToPrivateKey(mnemonic);
    const keys = await faucetKeys(mnemonic);
    assert.equal(keys.keyPair.publicKey.toString('hex'), expected.publicKey.toString('hex'));
    assert.equal(keys.keyPair.secretKey.toString('hex'), expected.secretKey.toString('hex'));
    const cell = beginCell().storeUint(i, 32).endCell();
    assert.equal(signVerify(cell.hash(), keys.signCell(cell), expected.publicKey), true);
  }
});
