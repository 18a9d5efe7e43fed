import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTuple, toNano } from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { configGlobalId } from '../../../src/chain/local/config.js';
import { GLOBAL_ID_READER_CODE, deployMessage, openChain, testFaucet, testFaucetKeys, v4Send } from './support/local-chain.js';

test('two networks in one process are independent chains (global_id, param 19, seqnos, faucets)', async (t) => {
  const [main, testnet] = await Promise.all([
    openChain(t, { network: 'mainnet', globalId: -239 }),
    openChain(t, { network: 'testnet', globalId: -3 }),
  ]);
  const keys = await testFaucetKeys();
  const from = await testFaucet();
  const reader = deployMessage(GLOBAL_ID_READER_CODE, toNano('1'));

  await Promise.all([
    main.chain.sendExternal(v4Send(from, 0, [reader.message])),
    testnet.chain.sendExternal(v4Send(from, 0, [reader.message])),
  ]);
  await Promise.all([main.chain.produceBlock(), testnet.chain.produceBlock()]);
  await main.chain.produceBlock();
  await main.chain.produceBlock();

  for (const [{ chain }, globalId, seqno] of [
    [main, -239, 3],
    [testnet, -3, 1],
  ] as const) {
    const info = chain.masterchainInfo();
    assert.equal(chain.globalId, globalId);
    assert.equal(info.last.id.seqno, seqno, `${chain.name} has its own seqnos`);
    assert.equal(info.last.globalId, globalId);
    assert.equal(configGlobalId(chain.config()), globalId, 'config param 19 as served');
    // ... and as the TVM reads it (CONFIGOPTPARAM 19 in a deployed contract)
    assert.equal(chain.getAccount(reader.address).state, 'active');
    const run = await chain.runGetMethod(reader.address, 'global_id', []);
    assert.equal(run.exitCode, 0);
    assert.deepEqual(parseTuple(run.stackBoc), [{ type: 'int', value: BigInt(globalId) }]);
    assert.equal(run.block.seqno, seqno);

    // the v5r1 faucet is the wallet a client derives with networkGlobalId = this global id
    const v5 = chain.faucets().find((f) => f.kind === 'v5r1')!;
    const derived = WalletContractV5R1.create({ publicKey: keys.publicKey, walletId: { networkGlobalId: globalId } });
    assert.ok(v5.address.equals(derived.address));
    assert.equal(chain.getAccount(v5.address).balance, toNano(1_000_000));
    assert.deepEqual(parseTuple((await chain.runGetMethod(v5.address, 'get_subwallet_id', [])).stackBoc), [
      { type: 'int', value: BigInt(v5.walletId) },
    ]);
  }
  const v5Of = (c: typeof main) => c.chain.faucets().find((f) => f.kind === 'v5r1')!.address;
  assert.ok(!v5Of(main).equals(v5Of(testnet)), 'v5r1 wallet ids differ by network');
  assert.ok(
    main.chain.faucets()[0].address.equals(testnet.chain.faucets()[0].address),
    'v4r2 (fixed wallet id) is the same key and address',
  );
  assert.ok(
    !main.chain.masterchainInfo().first.id.rootHash.equals(testnet.chain.masterchainInfo().first.id.rootHash),
    'different zero states',
  );
});
