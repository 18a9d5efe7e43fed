/**
 * tongate's vesting wallet (src/contracts/vesting) on a real local chain, driven by wallets v4 through TonClient:
 * get_vesting_data as deployed, add_whitelist only from the vesting sender (answered add_whitelist_response),
 * get_whitelist / is_whitelisted after, the owner's send#a7733acd (answered send_response) keeping the locked
 * amount, a locked send to a whitelisted address allowed, a non-bounceable one refused, get_locked_amount's schedule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, contractAddress, internal, toNano } from '@ton/core';
import { addWhitelistBody, VESTING_OP, vestingInit, vestingSendBody } from '../../src/contracts/vesting/vesting.js';
import { postJson } from '../support/tongate.js';
import { vestingCode } from './support/code.js';
import { inboundOp, startContractsChain, transactionsOf } from './support/contracts-chain.js';

test('vesting wallet: whitelist, sends within the lock, the schedule', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const [sender, owner, pool, other] = await Promise.all([171, 172, 173, 174].map((seed) => env.actor(seed)));
  const now = Math.floor(env.clock.now() / 1000);
  const params = {
    subwalletId: 7,
    publicKey: Buffer.alloc(32, 1),
    startTime: now - 100,
    totalDuration: 1000,
    unlockPeriod: 100,
    cliffDuration: 200,
    totalAmount: toNano(10),
    sender: sender.address,
    owner: owner.address,
  };
  const init = vestingInit(await vestingCode(), params);
  const vesting = contractAddress(0, init);
  await sender.send(vesting, toNano(12), undefined, init);

  const { stack } = await client.runMethod(vesting, 'get_vesting_data');
  assert.deepEqual(
    [stack.readNumber(), stack.readNumber(), stack.readNumber(), stack.readNumber(), stack.readBigNumber()],
    [now - 100, 1000, 100, 200, toNano(10)],
  );
  assert.ok(stack.readAddress().equals(sender.address));
  assert.ok(stack.readAddress().equals(owner.address));
  assert.equal(stack.readCellOpt(), null, 'an empty whitelist');
  const locked = async (at: number) =>
    (await client.runMethod(vesting, 'get_locked_amount', [{ type: 'int', value: BigInt(at) }])).stack.readBigNumber();
  assert.equal(await locked(now), toNano(10), 'within the cliff');
  assert.equal(await locked(now + 150), toNano(8), '2 of 10 periods unlocked (250 s after the start)');
  assert.equal(await locked(now + 1000), 0n, 'after the end');

  // Only the vesting sender adds to the whitelist.
  await other.send(vesting, toNano('0.1'), addWhitelistBody([other.address]));
  await sender.send(vesting, toNano('0.1'), addWhitelistBody([pool.address, other.address], 5n));
  assert.equal(inboundOp((await transactionsOf(client, sender.address, 1))[0]), VESTING_OP.addWhitelistResponse);
  // get_whitelist answers a FunC list of [workchain, hash] pairs (v2 writes it as a tvm.list of tuples, hashes in decimal).
  const listed = JSON.stringify(
    (await postJson(`${env.url}/api/v2/runGetMethod`, { address: vesting.toString(), method: 'get_whitelist', stack: [] })).body,
  );
  for (const a of [pool.address, other.address])
    assert.ok(listed.includes(`"${BigInt(`0x${a.hash.toString('hex')}`)}"`), `${a.toRawString()} listed`);
  const whitelisted = async (a: typeof pool.address) =>
    (
      await client.runMethod(vesting, 'is_whitelisted', [{ type: 'slice', cell: beginCell().storeAddress(a).endCell() }])
    ).stack.readNumber();
  assert.equal(await whitelisted(pool.address), -1);
  assert.equal(await whitelisted(owner.address), 0);

  // The owner sends 1 TON to a stranger: only what is above the locked 10 TON may go (12 - 10 here: allowed).
  const before = await client.getBalance(other.address);
  await owner.send(vesting, toNano('0.1'), vestingSendBody(internal({ to: owner.address, value: toNano(1), bounce: false }), 3, 9n));
  assert.equal(inboundOp((await transactionsOf(client, owner.address, 2))[0]), VESTING_OP.sendResponse);
  // Locked coins to a whitelisted address: bounceable, 3 TON (more than is unlocked) goes.
  await owner.send(vesting, toNano('0.1'), vestingSendBody(internal({ to: other.address, value: toNano(3), bounce: true }), 3));
  assert.ok((await client.getBalance(other.address)) - before >= toNano(3) - toNano('0.1'), 'a whitelisted address receives locked coins');
  // Non-bounceable to the whitelist while locked: refused (101), the balance stays.
  const held = await client.getBalance(vesting);
  await owner.send(vesting, toNano('0.1'), vestingSendBody(internal({ to: other.address, value: toNano(3), bounce: false }), 3));
  assert.ok((await client.getBalance(vesting)) >= held, 'nothing left the wallet');
});
