/**
 * src/index/dns without a chain: the records dictionary as toncenter keeps it, and the get-method reads with their
 * "not a domain item" cache (a runner that counts its calls stands for the chain).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Dictionary, type Cell, type TupleItem } from '@ton/core';
import { adnlRecord, DNS_CATEGORY, nextResolverRecord, storageRecord, walletRecord } from '../../src/contracts/dns/dns.js';
import { NO_RECORDS, parseDnsRecords } from '../../src/index/dns/records.js';
import { DomainItemGetMethods } from '../../src/index/dns/item-get-methods.js';
import type { GetMethodRunner } from '../../src/index/tokens/get-methods.js';
import type { VmValue } from '../../src/ton/vm-stack.js';

const A = Address.parse(`0:${'a1'.repeat(32)}`);
const B = Address.parse(`0:${'b2'.repeat(32)}`);

function recordsDict(entries: [bigint, Cell][]): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [key, value] of entries) dict.set(key, value);
  return beginCell().storeDictDirect(dict).endCell();
}

test('DNS records: the four categories toncenter keeps; a record of another tag is null', () => {
  const adnl = Buffer.alloc(32, 0x0f);
  const bag = Buffer.alloc(32, 0xee);
  assert.deepEqual(
    parseDnsRecords(
      recordsDict([
        [DNS_CATEGORY.wallet, walletRecord(A)],
        [DNS_CATEGORY.nextResolver, nextResolverRecord(B)],
        [DNS_CATEGORY.site, adnlRecord(adnl)],
        [DNS_CATEGORY.storage, storageRecord(bag)],
      ]),
    ),
    { wallet: `0:${'A1'.repeat(32)}`, nextResolver: `0:${'B2'.repeat(32)}`, siteAdnl: '0f'.repeat(32), storageBagId: 'ee'.repeat(32) },
  );
  // site kept as a storage bag, wallet written as a next resolver, a truncated record: left out.
  assert.deepEqual(
    parseDnsRecords(
      recordsDict([
        [DNS_CATEGORY.site, storageRecord(bag)],
        [DNS_CATEGORY.wallet, nextResolverRecord(A)],
        [DNS_CATEGORY.storage, beginCell().storeUint(0x7473, 16).storeUint(1, 8).endCell()],
      ]),
    ),
    NO_RECORDS,
  );
  assert.deepEqual(parseDnsRecords(null), NO_RECORDS);
});

/** A chain whose items answer `answers[method]` (null: a non-zero exit code; 'throw': the chain fails). */
function runner(answers: Record<string, VmValue[] | null | 'throw'>): GetMethodRunner & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async run(_address: string, method: string, _stack: TupleItem[]) {
      calls.push(method);
      const answer = answers[method];
      if (answer === 'throw') throw new Error('liteserver down');
      return answer ?? null;
    },
  };
}

const slice = (cell: Cell): VmValue => ({ type: 'slice', cell }) as VmValue;
const int = (value: bigint): VmValue => ({ type: 'int', value }) as VmValue;
const name = (text: string) => slice(beginCell().storeBuffer(Buffer.from(text)).endCell());
const code = Buffer.alloc(32, 1);
const item = `0:${'cc'.repeat(32)}`;

test('DNS reads: the domain with .ton, the records of dnsresolve("\\0", 0); a code that is no domain item is not asked again', async () => {
  const records = recordsDict([[DNS_CATEGORY.wallet, walletRecord(A)]]);
  const good = runner({ get_domain: [name('alice')], dnsresolve: [int(8n), { type: 'cell', cell: records } as VmValue] });
  assert.deepEqual(await new DomainItemGetMethods(good).read(item, code, 1), {
    domain: 'alice.ton',
    records: { ...NO_RECORDS, wallet: `0:${'A1'.repeat(32)}` },
  });

  // dnsresolve that does not resolve the 8 bits: the domain, no records.
  const partial = runner({ get_domain: [name('bob')], dnsresolve: [int(0n), { type: 'null' } as VmValue] });
  assert.deepEqual(await new DomainItemGetMethods(partial).read(item, code, 1), { domain: 'bob.ton', records: NO_RECORDS });

  const notDomain = runner({ get_domain: null });
  const reads = new DomainItemGetMethods(notDomain);
  assert.equal(await reads.read(item, code, 1), null);
  assert.equal(await reads.read(item, code, 2), null);
  assert.deepEqual(notDomain.calls, ['get_domain'], 'remembered by code hash');

  // The chain failing is not the code's doing: the error goes up (the token detector retries the item:
  // test/index/detection-retry.test.ts), and the code is asked again next time.
  const down = runner({ get_domain: 'throw' });
  const again = new DomainItemGetMethods(down);
  await assert.rejects(again.read(item, code, 1), /liteserver down/);
  await assert.rejects(again.read(item, code, 2), /liteserver down/);
  assert.deepEqual(down.calls, ['get_domain', 'get_domain']);
  const resolveDown = runner({ get_domain: [name('carol')], dnsresolve: 'throw' });
  await assert.rejects(
    new DomainItemGetMethods(resolveDown).read(item, code, 1),
    /liteserver down/,
    'records not answered: no row without them',
  );
});
