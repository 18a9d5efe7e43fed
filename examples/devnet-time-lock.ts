/**
 * A test script against a local tongate: deploys a time-locked contract, moves the chain's clock instead of
 * sleeping, and puts the chain back to a snapshot. Run it with
 *
 *   npx tongate start --mining manual --access off     # in another terminal: blocks only when asked, no limits
 *   npx tsx examples/devnet-time-lock.ts               # TONGATE_URL=http://127.0.0.1:8081 by default
 */
import assert from 'node:assert/strict';
import { beginCell, Cell, contractAddress, internal, toNano } from '@ton/core';
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { DevnetClient } from 'tongate/devnet';

const endpoint = `${process.env.TONGATE_URL ?? 'http://127.0.0.1:8081'}/api/v2/jsonRPC`;
const client = new TonClient({ endpoint });
const devnet = new DevnetClient({ endpoint, adminToken: process.env.TONGATE_ADMIN_TOKEN });

// The lock, in FunC, compiled: op 1 sends its whole balance to the owner once now() >= unlock_time (else exit
// code 100). Data: unlock_time:uint32 owner:MsgAddress.
const LOCK_CODE = Cell.fromBase64(
  'te6cckEBBgEAXgABFP8A9KQT9LzyyAsBAgFiAgMAZtBsMSDXScEgkTDg0x8wwwHc7UTQ0x/4I1i+8uBk+kAwcIAQyMsFWM8WIfoCy2rJgwb7AAIBIAQFABG8lpdqJoa4WPwACb3Bb8EcyOsxFQ==',
);
const WITHDRAW = beginCell().storeUint(1, 32).endCell();

// A new wallet, funded by the network's faucet (that block is mined by the call itself).
const keys = await mnemonicToPrivateKey(await mnemonicNew());
const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }));
await devnet.fund(wallet.address, toNano(10));

// A lock that opens in one hour of chain time.
const { utime: now } = await devnet.time();
const init = {
  code: LOCK_CODE,
  data: beginCell()
    .storeUint(now + 3600, 32)
    .storeAddress(wallet.address)
    .endCell(),
};
const lock = contractAddress(0, init);
let seqno = 0;
async function sendToLock(value: bigint, body?: Cell, deploy = false): Promise<void> {
  const message = internal({ to: lock, value, body, init: deploy ? init : undefined, bounce: false });
  // valid_until by the chain's clock: @ton/ton's default (this machine's clock + 60 s) has expired once the chain's
  // time is moved an hour ahead, and the wallet would refuse the transfer (exit code 36).
  const timeout = await devnet.validUntil();
  await wallet.sendTransfer({ seqno: seqno++, secretKey: keys.secretKey, messages: [message], timeout });
  await devnet.mine(); // the wallet's transaction and the lock's are in this block
}
await sendToLock(toNano(2), undefined, true);
assert.equal((await client.getContractState(lock)).state, 'active');

await devnet.snapshot('locked'); // the starting point each case below can come back to

// Too early: the lock refuses (exit code 100) and keeps its balance.
await sendToLock(toNano('0.05'), WITHDRAW);
assert.ok((await client.getBalance(lock)) > toNano('1.9'));

// One hour later by the chain's clock, not the wall's: it pays out.
await devnet.increaseTime(3600);
await sendToLock(toNano('0.05'), WITHDRAW);
assert.equal(await client.getBalance(lock), 0n);

// Back to the snapshot: the lock holds its coins again and the clock is before the unlock time.
await devnet.restoreSnapshot('locked');
assert.ok((await client.getBalance(lock)) > toNano('1.9'));
assert.ok((await devnet.time()).utime < now + 3600);
await devnet.deleteSnapshot('locked'); // the name is free again for the next run against this tongate
console.log('time lock: refused before its time, paid out after increaseTime, restored by restoreSnapshot');
