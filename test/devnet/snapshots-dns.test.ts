/**
 * dns_entries after a snapshot restore, on both stores (src/index/tokens/rewind-tokens.ts, src/index/dns): a DNS
 * root (src/contracts/dns) with a domain whose wallet record points at its owner, a snapshot, then the record
 * changed and a second domain deployed, then the snapshot restored. dns_entries (and nft_items) must be back as
 * they were at the snapshot and equal to those of an index built from the restored chain.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Address, contractAddress, internal, toNano } from '@ton/core';
import type { LocalChain } from '../../src/chain/local/index.js';
import { offchainContent } from '../../src/contracts/content.js';
import {
  changeDnsRecordBody,
  deployDomainBody,
  DNS_CATEGORY,
  dnsItemAddress,
  dnsRootInit,
  walletRecord,
} from '../../src/contracts/dns/dns.js';
import { runIndex, type RunningIndex } from '../../src/index/run-index.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain, tempDir, testWallet, v4Send, v4Transfer } from '../chain/local/support/local-chain.js';
import { dnsCode } from '../contracts/support/code.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { dumpTables } from '../support/table-dump.js';

type Store = 'sqlite' | 'postgres';

async function startIndex(t: TestContext, store: Store, chain: LocalChain, dnsRoots: string[]): Promise<RunningIndex> {
  const running =
    store === 'sqlite'
      ? await runIndex({ network: 'testnet', chain, dataDir: tempDir(t), dnsRoots })
      : await (async () => {
          const schema = uniqueName('tongate_snapdns');
          t.after(() => dropSchema(schema));
          return runIndex({ network: 'testnet', chain, databaseUrl: POSTGRES_URL, schema, dnsRoots });
        })();
  t.after(() => running.close());
  await running.attachment.synced();
  return running;
}

const dump = (running: RunningIndex) =>
  dumpTables(running.index.reads, [
    ['dns_entries', 'nft_item_address'],
    ['nft_items', 'address'],
  ]);

for (const store of ['sqlite', 'postgres'] as const) {
  test(`a restore puts domains and their records back as the restored chain has them [${store}]`, async (t) => {
    if (store === 'postgres' && !(await requireService(t, 'postgres'))) return;
    const { chain } = await openChain(t);
    const owner = testWallet(141);
    const X = Address.parse(`0:${'ef'.repeat(32)}`);
    const code = await dnsCode();
    const rootInit = dnsRootInit(code.root, {
      owner: owner.wallet.address,
      content: offchainContent('https://dns.example/snap.json'),
      itemCode: code.item,
    });
    const root = contractAddress(0, rootInit);
    const live = await startIndex(t, store, chain, [formatRawUpper(root)]);
    const seal = async (blocks = 3) => {
      for (let i = 0; i < blocks; i++) await chain.produceBlock();
      await live.attachment.synced();
    };
    const funded = chain.fund(owner.wallet.address, toNano(20));
    await seal(2);
    await funded;
    await chain.sendExternal(v4Transfer(owner, 0, X, toNano('0.1'), { deploy: true }));
    await seal();
    const deployDomain = (domain: string, init = false) =>
      internal({
        to: root,
        value: toNano('0.3'),
        bounce: false,
        init: init ? rootInit : undefined,
        body: deployDomainBody({ domain, owner: owner.wallet.address, amount: toNano('0.1') }),
      });
    const alice = dnsItemAddress(root, code.item, 'alice');
    await chain.sendExternal(v4Send(owner, 1, [deployDomain('alice', true)]));
    await seal();
    await chain.sendExternal(
      v4Send(owner, 2, [
        internal({ to: alice, value: toNano('0.05'), body: changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(owner.wallet.address)) }),
      ]),
    );
    await seal();

    const atSnapshot = await dump(live);
    assert.equal(atSnapshot.dns_entries.length, 1, JSON.stringify(atSnapshot));
    assert.ok(atSnapshot.dns_entries[0].includes(`["dns_wallet","${formatRawUpper(owner.wallet.address)}"]`));
    const saved = await chain.saveSnapshot('s');

    await chain.sendExternal(
      v4Send(owner, 3, [
        internal({ to: alice, value: toNano('0.05'), body: changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(X)) }),
        deployDomain('bob'),
      ]),
    );
    await seal(4);
    const moved = await dump(live);
    assert.equal(moved.dns_entries.length, 2, 'a domain deployed after the snapshot');
    assert.ok(
      moved.dns_entries.some((row) => row.includes(`["dns_wallet","${formatRawUpper(X)}"]`)),
      'the record changed after the snapshot',
    );

    const restored = await chain.restoreSnapshot('s');
    assert.equal(restored.seqno, saved.seqno);
    const rewound = await dump(live);
    assert.deepEqual(rewound, atSnapshot, 'dns_entries and nft_items as they were at the snapshot');
    const fresh = await startIndex(t, store, chain, [formatRawUpper(root)]);
    assert.deepEqual(rewound, await dump(fresh), 'as an index built from the restored chain');
  });
}
