/**
 * The token and DNS endpoints' query parsing against toncenter's (ton-index-go main.go, crud_*.go and
 * fiber's query decoder): every address form, repeated / comma / bracketed list keys, unknown parameters,
 * limits, sort and direction values, bool words, toncenter's exact 422 texts, and the address_book and
 * metadata keys of each answer. Rows are written straight into the token tables with the index's own row
 * builders (no chain story needed for parsing); both stores, since the orders are SQL of each.
 * Also the requests real wallets send (MyTonWallet's paging of /jetton/wallets, `_=` cache busters,
 * comma lists on /metadata).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Address } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { dnsEntryBatch } from '../../../src/index/dns/rows.js';
import {
  collectionBatch,
  eventBatch,
  itemBatch,
  masterBatch,
  nftTransferBatch,
  walletBatch,
} from '../../../src/index/tokens/token-rows.js';
import type { SqlValue } from '../../../src/index/sql/driver.js';
import { eachStore } from '../../index/support/stores.js';
import { getJson } from '../../support/tongate.js';
import { serveIndex } from './support/server.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';

/** An address whose standard base64 form has a `+` or `/` (so std and url-safe forms differ). */
function addressWithSymbols(seed: number): Address {
  for (let i = seed; ; i++) {
    const a = new Address(0, Buffer.alloc(32, i));
    if (/[+/]/.test(a.toString({ urlSafe: false }))) return a;
  }
}
const O1 = addressWithSymbols(1);
const O2 = new Address(0, Buffer.alloc(32, 0xb2));
const at = (n: number) => formatRawUpper(new Address(0, Buffer.alloc(32, n)));
const [o1, o2] = [formatRawUpper(O1), formatRawUpper(O2)];
const [M1, M2, W1, W2, W3, C1, I1, I2] = [0xc1, 0xc2, 0xd1, 0xd2, 0xd3, 0xe1, 0xf1, 0xf2].map(at);
const hash = (n: number) => Buffer.alloc(32, n);
const none = Buffer.alloc(32);

function rows() {
  const transfer = (n: number, lt: bigint, aborted: boolean, wallet: string, source: string, destination: string): SqlValue[] => [
    hash(n),
    lt,
    1_700_000_000 + Number(lt),
    aborted ? 1 : 0,
    1,
    '7',
    '100',
    wallet,
    M1,
    source,
    null,
    hash(n),
    source,
    destination,
    '1',
    null,
  ];
  return [
    masterBatch([
      {
        address: M1,
        totalSupply: 1000n,
        mintable: true,
        admin: o1,
        content: { name: 'One', symbol: 'ONE', decimals: '9' },
        walletCodeHash: none,
        lastTxLt: 1n,
        codeHash: none,
        dataHash: none,
      },
      {
        address: M2,
        totalSupply: 5n,
        mintable: false,
        admin: o2,
        content: { uri: 'https://example.org/two.json' },
        walletCodeHash: none,
        lastTxLt: 2n,
        codeHash: none,
        dataHash: none,
      },
    ]),
    // Inserted (first_lt) in the order W1, W2, W3; by balance W2 (0) < W1 (5) < W3 (100).
    walletBatch([
      { address: W1, balance: 5n, owner: o1, jetton: M1, lastTxLt: 3n, codeHash: none, dataHash: none, mintlessIsClaimed: null },
      { address: W2, balance: 0n, owner: o1, jetton: M2, lastTxLt: 4n, codeHash: none, dataHash: none, mintlessIsClaimed: null },
      { address: W3, balance: 100n, owner: o2, jetton: M1, lastTxLt: 5n, codeHash: none, dataHash: none, mintlessIsClaimed: null },
    ]),
    eventBatch('jetton_transfers', [
      transfer(1, 10n, false, W1, o1, o2),
      transfer(2, 20n, false, W3, o2, o1),
      transfer(3, 30n, true, W1, o1, o2),
    ]),
    eventBatch('jetton_burns', [[hash(4), 40n, 1_700_000_040, 0, 1, '8', '3', W1, M1, null, null, hash(4), o1]]),
    collectionBatch([
      { address: C1, nextItemIndex: 2n, owner: o1, content: { name: 'Coll' }, lastTxLt: 6n, codeHash: none, dataHash: none },
    ]),
    itemBatch([
      {
        address: I1,
        init: true,
        index: 0n,
        collection: C1,
        owner: o1,
        content: { name: 'Item 0' },
        lastTxLt: 7n,
        codeHash: none,
        dataHash: none,
      },
      {
        address: I2,
        init: true,
        index: 1n,
        collection: C1,
        owner: o2,
        content: { name: 'Item 1' },
        lastTxLt: 8n,
        codeHash: none,
        dataHash: none,
      },
    ]),
    nftTransferBatch([[hash(5), 50n, 1_700_000_050, 0, 1, '9', I1, '0', C1, o2, o1, null, null, '1', null, hash(5)]]),
    dnsEntryBatch([
      {
        item: I2,
        owner: o2,
        domain: 'alice.ton',
        records: { wallet: o2, nextResolver: null, siteAdnl: null, storageBagId: null },
        lastTxLt: 8n,
      },
    ]),
  ];
}

eachStore('v3 token endpoints: parameters, defaults, 422 texts and envelopes as toncenter parses them', async (t, { index }) => {
  await index.writer.writeRows(rows());
  const server = await serveIndex(t, index, 'testnet');
  const document = (await server.get('/api/v3/openapi.json')).body;
  const ours = ourV3(document);
  const ok = async (path: string) => {
    const reply = await server.get(`/api/v3${path}`);
    assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    checkAgainstSpecs(ours, `/api/v3${path.split('?')[0]}`, reply.body);
    return reply.body;
  };
  const fails = async (path: string, message: string | RegExp) => {
    const reply = await server.get(`/api/v3${path}`);
    assert.equal(reply.status, 422, `${path}: ${JSON.stringify(reply.body)}`);
    if (typeof message === 'string') assert.equal(reply.body.error, message, path);
    else assert.match(reply.body.error, message, path);
  };
  const wallets = async (query: string) => (await ok(`/jetton/wallets?${query}`)).jetton_wallets.map((w: { address: string }) => w.address);
  const transfers = async (query: string) =>
    (await ok(`/jetton/transfers?${query}`)).jetton_transfers.map((x: { transaction_lt: string }) => x.transaction_lt);

  // Every form of an owner address (raw in either case, bounceable, non-bounceable, std and url-safe base64, test-only).
  const forms = [
    O1.toRawString(),
    o1,
    O1.toString({ bounceable: true, urlSafe: true }),
    O1.toString({ bounceable: false, urlSafe: true }),
    O1.toString({ bounceable: true, urlSafe: false }),
    O1.toString({ bounceable: false, urlSafe: false, testOnly: true }),
  ];
  for (const form of forms) assert.deepEqual(await wallets(`owner_address=${encodeURIComponent(form)}`), [W1, W2], form);
  await fails('/jetton/wallets?owner_address=EQnotanaddress', /^failed to parse parameter owner_address: .*EQnotanaddress/);
  await fails('/jetton/transfers?jetton_master=0:zz', /^failed to parse parameter jetton_master: /);

  // Lists: repeated keys, a comma list, bracketed keys (axios' default), all the same; unknown keys ignored.
  const both = [W1, W2, W3];
  assert.deepEqual(await wallets(`owner_address=${o1}&owner_address=${o2}`), both);
  assert.deepEqual(await wallets(`owner_address=${o1},${o2}`), both);
  assert.deepEqual(await wallets(`owner_address[]=${o1}&owner_address[]=${o2}`), both);
  assert.deepEqual(await wallets(`owner_address=${o1}&_=1732550000000&api_version=3&foo[bar]=1`), [W1, W2]);

  // Orders: no sort = insertion order; sort given = by balance; an empty sort is no sort; case-insensitive.
  assert.deepEqual(await wallets(''), [W1, W2, W3]);
  assert.deepEqual(await wallets('sort=desc'), [W3, W1, W2]);
  assert.deepEqual(await wallets('sort=ASC'), [W2, W1, W3]);
  assert.deepEqual(await wallets('sort='), [W1, W2, W3]);
  await fails('/jetton/wallets?sort=up', /^wrong value for sort parameter/);
  // Events: newest first by default; a single-valued key given twice counts its last value (toncenter's decoder).
  assert.deepEqual(await transfers(''), ['20', '10'], 'the aborted transfer (lt 30) is left out');
  assert.deepEqual(await transfers('sort=asc'), ['10', '20']);
  assert.deepEqual(await transfers('sort=desc&sort=asc'), ['10', '20']);
  assert.deepEqual(await transfers('sort=a'), ['10', '20'], 'toncenter reads a/d as asc/desc');

  // Limits: max 1000 (its exact text), 0 and negatives count as 1, a negative offset as 0.
  await fails('/jetton/wallets?limit=1001', 'limit is not allowed: 1001 > 1000');
  await fails('/dns/records?domain=alice.ton&limit=1001', 'limit is not allowed: 1001 > 1000');
  await fails('/jetton/wallets?limit=ten', /^failed to parse parameter limit: /);
  await fails('/jetton/wallets?limit=5,6', /^failed to parse parameter limit: /);
  assert.deepEqual(await wallets('limit=1000'), both);
  assert.deepEqual(await wallets('limit=0'), [W1]);
  assert.deepEqual(await wallets('limit=-5'), [W1]);
  assert.deepEqual(await wallets('limit=1&offset=-1'), [W1]);
  assert.deepEqual(await wallets('limit=1&offset=2'), [W3]);

  // Bools: Go's ParseBool words and fiber's `on`.
  for (const yes of ['true', 'TRUE', 'True', '1', 't', 'T', 'on'])
    assert.deepEqual(await wallets(`exclude_zero_balance=${yes}`), [W1, W3], yes);
  for (const no of ['false', 'FALSE', '0', 'f', 'F']) assert.deepEqual(await wallets(`exclude_zero_balance=${no}`), both, no);
  await fails('/jetton/wallets?exclude_zero_balance=yes', /^failed to parse parameter exclude_zero_balance: /);

  // Direction (only with an owner), the `address` alias of owner_address, burns by either name.
  assert.deepEqual(await transfers(`owner_address=${o1}&direction=in`), ['20']);
  assert.deepEqual(await transfers(`owner_address=${o1}&direction=out`), ['10']);
  assert.deepEqual(await transfers(`owner_address=${o1}&direction=both`), ['20', '10']);
  assert.deepEqual(await transfers(`address=${O1.toString()}&direction=out`), ['10']);
  await fails(`/jetton/transfers?owner_address=${o1}&direction=sideways`, /^direction should be one of: in, out, both/);
  for (const key of ['owner_address', 'address']) assert.equal((await ok(`/jetton/burns?${key}=${o1}`)).jetton_burns.length, 1, key);
  assert.equal((await ok(`/jetton/burns?owner_address=${o2}`)).jetton_burns.length, 0);

  // toncenter's own 422 texts.
  await fails(`/jetton/wallets?jetton_address=${M1}&jetton_address=${M2}`, 'exact one owner_address required for multiple jetton_address');
  assert.deepEqual(await wallets(`jetton_address=${M1},${M2}&owner_address=${o1}`), [W1, W2]);
  await fails(`/nft/items?collection_address=${C1},${M1}`, 'exact one owner_address required for multiple collection_address');
  await fails('/nft/items?index=1', 'index parameter is not allowed without the collection_address');
  await fails(`/nft/items?collection_address=${C1}&index=0x1`, 'index should contain digits only');
  await fails('/dns/records', 'either wallet address or domain is required');
  await fails(`/dns/records?domain=alice.ton&wallet=${o2}`, 'provide either wallet address or domain, not both');
  await fails('/metadata', 'at least 1 address required');
  await fails('/metadata?address=', 'at least 1 address required');
  await fails(
    `/traces?account=${o1}&tx_hash=${hash(1).toString('hex')}`,
    'only one of account, trace_id, tx_hash, msg_hash should be specified',
  );

  // Envelopes: the list key, an address_book holding every address the rows name, and metadata (DNS: none).
  const envelopes: [string, string, string[]][] = [
    ['/jetton/masters', 'jetton_masters', [M1, M2, o1, o2]],
    ['/jetton/wallets', 'jetton_wallets', [W1, W2, W3, o1, o2, M1, M2]],
    ['/jetton/transfers', 'jetton_transfers', [W1, W3, M1, o1, o2]],
    ['/jetton/burns', 'jetton_burns', [W1, M1, o1]],
    ['/nft/collections', 'nft_collections', [C1, o1]],
    ['/nft/items', 'nft_items', [I1, I2, C1, o1, o2]],
    ['/nft/transfers', 'nft_transfers', [I1, C1, o1, o2]],
    [`/dns/records?wallet=${O2.toString({ bounceable: false })}`, 'records', [I2, o2]],
  ];
  for (const [path, key, named] of envelopes) {
    const body = await ok(path);
    assert.ok(body[key].length > 0, path);
    assert.deepEqual(Object.keys(body.address_book).sort(), [...named].sort(), `${path}: address_book`);
    assert.equal('metadata' in body, key !== 'records', `${path}: metadata key`);
  }
  const { metadata } = await ok('/jetton/wallets');
  assert.equal(metadata[M1].is_indexed, true);
  assert.equal(metadata[M1].token_info[0].symbol, 'ONE');
  assert.equal(metadata[M2].is_indexed, false, 'an offchain uri not fetched yet');
  assert.equal(metadata[W1].token_info[0].type, 'jetton_wallets');
  // /metadata: a jetton wallet brings its master along; NFT items carry their index; other addresses are left out.
  assert.deepEqual(Object.keys(await ok(`/metadata?address=${W1}`)).sort(), [M1, W1].sort());
  const item = (await ok(`/metadata?address=${I1}&address=${o1}`))[I1];
  assert.equal(item.token_info[0].type, 'nft_items');
  assert.equal(item.token_info[0].nft_index, '0');
  // address_book rows: user_friendly, interfaces, and the domain whose wallet record points back at its owner.
  const { address_book: book } = await ok(`/jetton/wallets?owner_address=${o2}`);
  assert.equal(book[o2].domain, 'alice.ton');
  assert.equal(book[o2].user_friendly, O2.toString({ bounceable: false, testOnly: true }), 'no code: non-bounceable, test-only on testnet');
  assert.ok(Array.isArray(book[W3].interfaces));

  // toncenter's X-No-Address-Book / X-No-Metadata (or x_no_address_book / x_no_metadata): that key is `{}`.
  const plain = async (path: string, headers: Record<string, string> = {}) =>
    (await getJson(`${server.base}/api/v3${path}`, { headers })).body;
  // (Through an upstream front too: it forwards these headers, src/upstream/semantic-headers.ts.)
  const noBook = await plain('/jetton/wallets', { 'X-No-Address-Book': 'true' });
  assert.deepEqual(noBook.address_book, {});
  assert.ok(Object.keys(noBook.metadata).length > 0);
  const noMetadata = await plain('/nft/items?x_no_metadata=1');
  assert.deepEqual(noMetadata.metadata, {});
  assert.ok(Object.keys(noMetadata.address_book).length > 0);
  assert.deepEqual(await plain('/jetton/masters?x_no_address_book=maybe'), await ok('/jetton/masters'), 'not a Go bool: no setting');
  assert.deepEqual((await plain(`/dns/records?domain=alice.ton`, { 'X-No-Metadata': '1', 'X-No-Address-Book': 'T' })).address_book, {});

  // What wallets send: MyTonWallet pages /jetton/wallets and reads /metadata with comma lists and a cache buster.
  const page = await ok(
    `/jetton/wallets?owner_address=${O1.toString({ bounceable: false })}&exclude_zero_balance=false&limit=1&offset=1&_=1732550000000`,
  );
  assert.deepEqual(
    page.jetton_wallets.map((w: { address: string }) => w.address),
    [W2],
  );
  assert.deepEqual(Object.keys(await ok(`/metadata?address=${M1},${encodeURIComponent(O1.toString())}&_=1`)).sort(), [M1]);
  assert.deepEqual(await wallets(`owner_address=${O1.toString()}&exclude_zero_balance=true&limit=50&sort=desc`), [W1]);
  assert.deepEqual(await wallets(`owner_address=${o1}&jetton_address=${M2}&limit=1`), [W2]);
  const friendly = [O1.toString({ bounceable: false }), O2.toString()].map(encodeURIComponent).join(',');
  assert.equal(Object.keys(await ok(`/addressBook?address=${friendly}&_=1`)).length, 2);
  for (const path of [`/walletStates?address=${friendly}&_=1`, `/accountStates?address=${friendly}&include_boc=false&_=1`]) {
    const body = await ok(path);
    assert.ok('address_book' in body && 'metadata' in body, path);
  }
  assert.equal((await ok(`/jetton/masters?address=${M1},${M2}`)).jetton_masters.length, 2);
  const dns = await ok('/dns/records?domain=alice.ton&_=1');
  assert.equal(dns.records[0].dns_wallet, o2);
  // The OpenAPI document (which Swagger UI at /api/v3/ reads) lists each endpoint with every parameter toncenter
  // documents, and the defaults as toncenter applies them (jetton/wallets: no sort unless given; DNS: limit 100).
  const toncenter = JSON.parse(readFileSync(new URL('../../reference/toncenter-v3-openapi.json', import.meta.url), 'utf8'));
  const paramsOf = (doc: any, path: string) => new Map<string, any>(doc.paths[path].get.parameters.map((p: any) => [p.name, p]));
  for (const path of [
    '/jetton/masters',
    '/jetton/wallets',
    '/jetton/transfers',
    '/jetton/burns',
    '/nft/collections',
    '/nft/items',
    '/nft/transfers',
    '/dns/records',
    '/metadata',
  ]) {
    const mine = paramsOf(document, `/api/v3${path}`);
    for (const [name, theirs] of paramsOf(toncenter, `/api/v3${path}`)) {
      assert.ok(mine.has(name), `${path}: ${name} documented`);
      if (theirs.schema?.maximum !== undefined)
        assert.equal(mine.get(name).schema.maximum, theirs.schema.maximum, `${path}: ${name} maximum`);
      if (name === 'limit' || name === 'sort')
        assert.equal(mine.get(name).schema.default, theirs.schema.default, `${path}: ${name} default`);
    }
  }
});
