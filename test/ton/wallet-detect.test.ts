import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beginCell, Cell } from '@ton/core';
import {
  WalletContractV1R1,
  WalletContractV1R2,
  WalletContractV1R3,
  WalletContractV2R1,
  WalletContractV2R2,
  WalletContractV3R1,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5Beta,
  WalletContractV5R1,
} from '@ton/ton';
import { detectWallet, walletTypeOfCodeHash } from '../../src/ton/wallet-detect.js';
import { scenario } from './support/scenario.js';

const require = createRequire(import.meta.url);
const publicKey = Buffer.alloc(32, 7);

test("every @ton/ton wallet's code is detected with toncenter's wallet_type and its data read", () => {
  const cases = [
    [WalletContractV1R1, 'wallet v1 r1', { seqno: 0 }],
    [WalletContractV1R2, 'wallet v1 r2', { seqno: 0 }],
    [WalletContractV1R3, 'wallet v1 r3', { seqno: 0 }],
    [WalletContractV2R1, 'wallet v2 r1', { seqno: 0 }],
    [WalletContractV2R2, 'wallet v2 r2', { seqno: 0 }],
    [WalletContractV3R1, 'wallet v3 r1', { seqno: 0, walletId: 698983191 }],
    [WalletContractV3R2, 'wallet v3 r2', { seqno: 0, walletId: 698983191 }],
    [WalletContractV4, 'wallet v4 r2', { seqno: 0, walletId: 698983191 }],
  ] as const;
  for (const [Contract, walletType, fields] of cases) {
    const wallet = Contract.create({ workchain: 0, publicKey });
    assert.deepEqual(detectWallet(wallet.init.code, wallet.init.data), { walletType, family: 'wallet', ...fields }, walletType);
  }
});

test('v5: signature flag, seqno and the 32-bit wallet id (mainnet default 2147483409, testnet 2147483645)', () => {
  const mainnet = WalletContractV5R1.create({ workchain: 0, publicKey });
  assert.deepEqual(detectWallet(mainnet.init.code, mainnet.init.data), {
    walletType: 'wallet v5 r1',
    family: 'wallet',
    isSignatureAllowed: true,
    seqno: 0,
    walletId: 2147483409,
  });
  const testnet = WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: -3 } });
  assert.equal(detectWallet(testnet.init.code, testnet.init.data)?.walletId, 2147483645);
  const beta = WalletContractV5Beta.create({ publicKey });
  const detected = detectWallet(beta.init.code, beta.init.data);
  assert.equal(detected?.walletType, 'wallet v5 beta');
  assert.equal(detected?.seqno, 0);
});

test('seqno and wallet id are read from the data, not assumed', () => {
  const v4 = WalletContractV4.create({ workchain: 0, publicKey, walletId: 42 });
  const data = beginCell().storeUint(17, 32).storeUint(42, 32).storeBuffer(publicKey).storeBit(false).endCell();
  assert.deepEqual(detectWallet(v4.init.code, data), { walletType: 'wallet v4 r2', family: 'wallet', seqno: 17, walletId: 42 });
  const v5 = WalletContractV5R1.create({ workchain: 0, publicKey });
  const v5data = beginCell()
    .storeBit(false)
    .storeUint(0xffffffff, 32)
    .storeUint(0x80000001, 32)
    .storeBuffer(publicKey)
    .storeBit(false)
    .endCell();
  assert.deepEqual(detectWallet(v5.init.code, v5data), {
    walletType: 'wallet v5 r1',
    family: 'wallet',
    isSignatureAllowed: false,
    seqno: 0xffffffff,
    walletId: 0x80000001,
  });
});

test('a deployed wallet reports the seqno its transfers advanced', async () => {
  const s = await scenario();
  const state = s.walletContract.account.account!.storage.state;
  assert.equal(state.type, 'active');
  if (state.type !== 'active') return;
  assert.deepEqual(detectWallet(state.state.code!, state.state.data!), {
    walletType: 'wallet v4 r2',
    family: 'wallet',
    seqno: 2,
    walletId: 698983191,
  });
});

test("highload wallets: the table's hashes are those of tonlib's bundled codes and the highload v3 code", () => {
  const sources = readFileSync(require.resolve('tonweb/src/contract/wallet/WalletSourcesFromCPP.txt'), 'utf8');
  const codes = new Map<string, Cell>();
  for (const match of sources.matchAll(/with_tvm_code\("([^"]+)",\s*((?:"[^"]*"\s*)+)\)/g)) {
    codes.set(match[1], Cell.fromBase64([...match[2].matchAll(/"([^"]*)"/g)].map((m) => m[1]).join('')));
  }
  const v3Hex = /CODE_HEX = "([0-9a-f]+)"/.exec(
    readFileSync(require.resolve('tonweb/src/contract/highloadWallet/HighloadWalletContractV3.js'), 'utf8'),
  )![1];
  codes.set('highload-v3', Cell.fromHex(v3Hex));
  const expect = [
    ['highload-wallet-r1', 'highload wallet v1 r1'],
    ['highload-wallet-r2', 'highload wallet v1 r2'],
    ['highload-wallet-v2-r1', 'highload wallet v2 r1'],
    ['highload-wallet-v2-r2', 'highload wallet v2 r2'],
    ['highload-v3', 'highload wallet v3'],
  ];
  for (const [name, walletType] of expect) {
    const code = codes.get(name)!;
    assert.deepEqual(walletTypeOfCodeHash(code.hash().toString('base64')), { walletType, family: 'highload' }, name);
  }
  const v1 = detectWallet(
    codes.get('highload-wallet-r2')!,
    beginCell().storeUint(3, 32).storeUint(77, 32).storeBuffer(publicKey).endCell(),
  );
  assert.deepEqual(v1, { walletType: 'highload wallet v1 r2', family: 'highload', seqno: 3, walletId: 77 });
  const v2 = detectWallet(
    codes.get('highload-wallet-v2-r2')!,
    beginCell().storeUint(77, 32).storeUint(0, 64).storeBuffer(publicKey).storeBit(false).endCell(),
  );
  assert.deepEqual(v2, { walletType: 'highload wallet v2 r2', family: 'highload', walletId: 77 });
  const v3 = detectWallet(
    codes.get('highload-v3')!,
    beginCell().storeBuffer(publicKey).storeUint(77, 32).storeBit(false).storeBit(false).storeUint(0, 64).storeUint(60, 22).endCell(),
  );
  assert.deepEqual(v3, { walletType: 'highload wallet v3', family: 'highload', walletId: 77 });
});

test('unknown code, missing data and data too short for the layout give null', () => {
  const v4 = WalletContractV4.create({ workchain: 0, publicKey });
  assert.equal(detectWallet(beginCell().storeUint(1, 8).endCell(), v4.init.data), null);
  assert.equal(detectWallet(v4.init.code, null), null);
  assert.equal(detectWallet(v4.init.code, beginCell().storeUint(1, 40).endCell()), null);
  assert.equal(walletTypeOfCodeHash('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='), null);
});
