/**
 * message_content.decoded on tongate's own token contracts (the token scenario: a jetton mint, transfer with
 * notification, burn; an NFT transfer; a DNS wallet record), read back through /api/v3/messages of a running
 * tongate: each message of the cascade decoded by its scheme, valid against toncenter's v3 OpenAPI document.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { deployTokenScenario } from '../../contracts/support/scenario.js';
import { startContractsChain } from '../../contracts/support/contracts-chain.js';
import { until } from '../../devnet/support/manual-tongate.js';
import { toncenterV3 } from './support/spec.js';

const hex = (a: Address) => a.hash.toString('hex').toUpperCase();
const std = (a: Address) => ({
  '@type': 'addr_std',
  anycast: { '@type': 'nothing_from_maybe' },
  workchain_id: String(a.workChain),
  address: hex(a),
});

test("the token scenario's messages read decoded on /api/v3/messages: jetton, NFT and DNS schemes", async (t) => {
  const env = await startContractsChain(t);
  const s = await deployTokenScenario(env);
  const { alice, bob } = s.actors;
  const [aliceWallet, bobWallet] = s.jetton.wallets.map((w) => w.wallet);
  /** Messages to `to`, once the index has them all (the last step of the scenario is indexed last). */
  const messagesTo = async (to: Address, count = 1) => {
    const ask = () => fetch(`${env.url}/api/v3/messages?destination=${formatRawUpper(to)}&limit=50`).then((r) => r.json() as Promise<any>);
    const body = await until(ask, (b) => b.messages?.length >= count);
    assert.deepEqual(toncenterV3().errors('/api/v3/messages', body, 'get'), [], "against toncenter's spec");
    return body.messages as any[];
  };
  const decodedOf = (messages: any[], name: string) => {
    const found = messages.filter((m) => m.decoded_opcode === name);
    assert.ok(found.length > 0, `a ${name} among ${messages.map((m) => m.decoded_opcode).join(', ')}`);
    for (const m of found) assert.equal(m.message_content.decoded['@type'], name, `${name} decoded by its own scheme`);
    return found.map((m) => m.message_content.decoded);
  };
  await messagesTo(s.dns.item, 2); // the DNS record change is the scenario's last message

  // The transfer alice -> bob: alice's wallet gets jetton_transfer, bob's the internal transfer, bob the
  // notification (forward amount > 0), alice the excess.
  const [transfer] = decodedOf(await messagesTo(aliceWallet, 3), 'jetton_transfer').filter((d: any) => d.amount.value === '300');
  assert.deepEqual([transfer.destination, transfer.response_destination], [std(bob.address), std(alice.address)]);
  const [internalTransfer] = decodedOf(await messagesTo(bobWallet, 1), 'jetton_internal_transfer');
  assert.deepEqual([internalTransfer.amount.value, internalTransfer.from], ['300', std(alice.address)]);
  const [notify] = decodedOf(await messagesTo(bob.address, 1), 'jetton_notify');
  assert.deepEqual([notify.amount.value, notify.sender], ['300', std(alice.address)]);
  assert.ok(decodedOf(await messagesTo(alice.address, 1), 'excess').length > 0);
  // The mint (tongate's minter op 21): the internal transfer it carries decoded in place.
  const toMaster = await messagesTo(s.jetton.master, 2);
  const [mint] = decodedOf(toMaster, 'minter_jetton_mint');
  assert.deepEqual(mint.to_address, std(alice.address));
  assert.deepEqual(
    [mint.master_msg['@type'], mint.master_msg.amount.value, mint.master_msg.from],
    ['jetton_internal_transfer', '1000', { '@type': 'addr_none' }],
  );
  // The burn: bob's wallet tells the master.
  const [burned] = decodedOf(toMaster, 'jetton_burn_notification');
  assert.deepEqual([burned.amount.value, burned.sender], ['100', std(bob.address)]);
  // The NFT transfer of item 0 from alice to bob.
  const [nft] = decodedOf(await messagesTo(s.nft.items[0].address, 1), 'nft_transfer');
  assert.deepEqual(nft.new_owner, std(bob.address));
  // The DNS wallet record alice set on her domain.
  const [record] = decodedOf(await messagesTo(s.dns.item, 2), 'change_dns_record');
  assert.deepEqual(record.value, { '@type': 'dns_smc_address', smc_addr: std(alice.address), flags: '0' });
});
