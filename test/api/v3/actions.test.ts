/**
 * /api/v3/actions and /api/v3/traces?include_actions=true on real chains:
 *   - tongate's own token contracts on a real tongate (SQLite, its index on its own threads): the shared scenario
 *     (test/contracts/support/scenario.ts: a mint, a transfer, a burn, a transfer bounced by a refusing wallet, NFT mints
 *     and a transfer, a DNS domain and its wallet record) sent by wallets through v2, as a dApp would; every
 *     action checked field by field, the filters, the version filter, the 4xx;
 *   - the sandbox story served from each store (PostgreSQL too) through a real gateway.
 * Every answer is checked against toncenter's v3 spec and ours.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { toNano, type Address } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { startContractsChain } from '../../contracts/support/contracts-chain.js';
import { deployTokenScenario, scenarioDnsRoot } from '../../contracts/support/scenario.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { indexedUpTo } from '../../devnet/support/manual-tongate.js';
import { getJson } from '../../support/tongate.js';
import { openStore } from '../../index/support/stores.js';
import { story } from '../../index/support/sandbox-blocks.js';
import { ourV3, toncenterV3, type ResponseValidator } from './support/spec.js';
import { serveIndex } from './support/server.js';

const raw = (address: Address) => formatRawUpper(address);

function checker(base: string, ours: ResponseValidator) {
  return async (path: string, headers: Record<string, string> = {}) => {
    const reply = await getJson(`${base}${path}`, { headers });
    assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    const bare = path.split('?')[0];
    assert.deepEqual(toncenterV3().errors(bare, reply.body), [], `${path} against toncenter's spec`);
    assert.deepEqual(ours.errors(bare, reply.body), [], `${path} against our openapi.json`);
    return reply.body;
  };
}

test("/actions on tongate's own token contracts: mint, transfer, burn, a bounced transfer, NFT mints and a transfer, a DNS record", async (t) => {
  const env = await startContractsChain(t, { dnsRoot: [`testnet=${(await scenarioDnsRoot()).toString()}`] });
  const s = await deployTokenScenario(env);
  // A transfer of nothing: the trace has no action of its own, so toncenter writes one `unknown` action.
  const { wallet, keys } = testWallet(201 + 1);
  const alice = env.client.open(wallet);
  await alice.sendTransfer({ seqno: await alice.getSeqno(), secretKey: keys.secretKey, messages: [] });
  await env.devnet.mine();
  // More TON than bob holds: his wallet takes the request and sends nothing (toncenter shows the transfer, failed).
  await s.actors.bob.send(s.actors.alice.address, toNano('1000'));
  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);
  const get = checker(env.url, ourV3((await getJson(`${env.url}/api/v3/openapi.json`)).body));
  const A = raw(s.actors.alice.address);
  const B = raw(s.actors.bob.address);
  const M = raw(s.jetton.master);
  const [aliceJW, bobJW] = s.jetton.wallets.map((w) => raw(w.wallet));

  const ofAlice = (await get(`/api/v3/actions?account=${A}&limit=100&sort=asc`)).actions as any[];
  const types = ofAlice.map((a) => a.type);
  for (const type of [
    'ton_transfer',
    'contract_deploy',
    'jetton_mint',
    'jetton_transfer',
    'call_contract',
    'nft_transfer',
    'change_dns',
    'unknown',
  ])
    assert.ok(types.includes(type), `${type} among ${types}`);
  const ends = ofAlice.map((a) => BigInt(a.trace_end_lt));
  assert.deepEqual(
    ends,
    [...ends].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
    'sort=asc: oldest trace first',
  );

  const mint = ofAlice.find((a) => a.type === 'jetton_mint');
  assert.deepEqual(mint.details, { asset: M, receiver: A, receiver_jetton_wallet: aliceJW, amount: '1000', ton_amount: '50000000' });
  assert.equal(mint.success, true);

  const [transfer, bounced] = ofAlice.filter((a) => a.type === 'jetton_transfer');
  assert.deepEqual(transfer.details, {
    asset: M,
    sender: A,
    receiver: B,
    sender_jetton_wallet: aliceJW,
    receiver_jetton_wallet: bobJW,
    amount: '300',
    comment: null,
    is_encrypted_comment: false,
    query_id: '0',
    response_destination: A,
    custom_payload: null,
    forward_payload: null,
    forward_amount: '10000000',
  });
  assert.equal(transfer.success, true);
  assert.equal(bounced, undefined, "carol's refusing wallet is no jetton wallet: that transfer is contract calls");
  const transferTrace = (await get(`/api/v3/actions?trace_id=${encodeURIComponent(transfer.trace_id)}&sort=asc`)).actions as any[];
  // Ordered by their ends: alice's wallet deployed by this first external of hers, bob's new jetton wallet, the transfer.
  assert.deepEqual(
    transferTrace.map((a) => [a.type, a.details.destination ?? a.details.receiver]),
    [
      ['contract_deploy', A],
      ['contract_deploy', bobJW],
      ['jetton_transfer', B],
    ],
  );
  // The trace's transactions: alice's wallet, her jetton wallet, bob's, bob (notification), alice (excess).
  const txs = (await get(`/api/v3/transactions?trace_id=${encodeURIComponent(transfer.trace_id)}&limit=100`)).transactions as any[];
  assert.deepEqual([...transfer.transactions].sort(), txs.map((tx) => tx.hash).sort());
  assert.equal(
    transfer.action_id,
    createHash('sha256')
      .update(txs.find((tx) => tx.account === aliceJW).in_msg.hash + 'jetton_transfer')
      .digest('base64'),
  );

  // The transfer to carol: contract calls (her refusing wallet is no jetton wallet), the aborted internal transfer
  // failed (it names alice's jetton wallet, not alice), its bounce back did not.
  const carolWallet = raw(s.jetton.failingWallet);
  const ofCarol = (await get(`/api/v3/actions?account=${carolWallet}&sort=asc`)).actions as any[];
  assert.deepEqual(
    ofCarol.map((a) => [a.type, a.details.opcode, a.details.source, a.details.destination, a.success]),
    [
      ['call_contract', '0x178d4519', aliceJW, carolWallet, false],
      ['call_contract', '0xffffffff', carolWallet, aliceJW, true],
    ],
  );

  const burn = (await get(`/api/v3/actions?account=${B}&action_type=jetton_burn`)).actions as any[];
  assert.deepEqual(
    burn.map((a) => [a.details, a.success]),
    [[{ owner: B, owner_jetton_wallet: bobJW, asset: M, amount: '100' }, true]],
  );

  const C = raw(s.nft.collection);
  const mints = (await get(`/api/v3/actions?account=${C}&action_type=nft_mint&sort=asc`)).actions as any[];
  assert.deepEqual(
    mints.map((a) => [a.details.nft_item, a.details.nft_item_index, a.details.nft_collection, a.details.owner]),
    s.nft.items.map((i) => [raw(i.address), String(i.index), C, C]),
  );
  const nft = ofAlice.find((a) => a.type === 'nft_transfer');
  assert.equal(nft.details.nft_item, raw(s.nft.items[0].address));
  assert.equal(nft.details.old_owner, A);
  assert.equal(nft.details.new_owner, B);
  assert.equal(nft.details.nft_collection, C);
  assert.equal(nft.details.is_purchase, false);

  const dns = ofAlice.find((a) => a.type === 'change_dns');
  assert.deepEqual(dns.details, {
    key: createHash('sha256').update('wallet').digest('hex'),
    value: {
      sum_type: 'DNSSmcAddress',
      dns_smc_address: A,
      dns_adnl_address: null,
      dns_text: null,
      dns_next_resolver_address: null,
      dns_storage_address: null,
      flags: 0,
    },
    source: A,
    asset: raw(s.dns.item),
    nft_collection: raw(s.dns.root),
  });

  // The answer's address book and metadata name what the actions name: the master is a jetton.
  const page = await get(
    `/api/v3/actions?action_id=${encodeURIComponent(transfer.action_id)}&include_accounts=true&include_transactions=true`,
  );
  assert.equal(page.actions.length, 1);
  const [full] = page.actions;
  assert.deepEqual(new Set(full.accounts), new Set([A, aliceJW, bobJW, B]));
  assert.deepEqual(
    full.transactions_full.map((tx: any) => tx.hash),
    full.transactions,
    'transactions_full in the order of transactions',
  );
  assert.ok(page.address_book[M] && page.address_book[A] && page.address_book[bobJW]);
  assert.equal(page.metadata[M].token_info[0].symbol, 'SCN');
  assert.equal(transfer.accounts, undefined, 'accounts only when asked');
  assert.equal(transfer.finality, 'finalized');

  // The version filter: unknown is a v2 type; X-Actions-Version replaces supported_action_types.
  const unknown = ofAlice.filter((a) => a.type === 'unknown');
  assert.equal(unknown.length, 1);
  assert.deepEqual(unknown[0].details, { error: "unsupported action type: 'unknown'" });
  assert.equal(unknown[0].action_id, unknown[0].trace_id);
  const v1 = (await get(`/api/v3/actions?account=${A}&limit=100`, { 'X-Actions-Version': 'v1' })).actions as any[];
  assert.equal(v1.length, ofAlice.length - 1);
  assert.ok(!v1.some((a) => a.type === 'unknown'));
  assert.equal(((await get(`/api/v3/actions?account=${A}&limit=100&supported_action_types=v1`)).actions as any[]).length, v1.length);
  assert.equal(
    ((await get(`/api/v3/actions?account=${A}&limit=100&supported_action_types=v1`, { 'X-Actions-Version': 'latest' })).actions as any[])
      .length,
    ofAlice.length,
  );

  // Other filters: by transaction, by message, by masterchain block, by lt, excluding types, a page.
  const aliceJWtx = txs.find((tx) => tx.account === aliceJW);
  // Held by the transfer, and by bob's wallet's deployment, which alice's jetton wallet started.
  assert.deepEqual(
    ((await get(`/api/v3/actions?tx_hash=${encodeURIComponent(aliceJWtx.hash)}`)).actions as any[]).map((a) => a.type).sort(),
    ['contract_deploy', 'jetton_transfer'],
  );
  const byMsg = (await get(`/api/v3/actions?msg_hash=${encodeURIComponent(aliceJWtx.in_msg.hash)}`)).actions as any[];
  assert.ok(byMsg.some((a) => a.action_id === transfer.action_id));
  const inBlock = (await get(`/api/v3/actions?mc_seqno=${transfer.trace_mc_seqno_end}&limit=100`)).actions as any[];
  assert.ok(inBlock.length > 0 && inBlock.every((a) => a.trace_mc_seqno_end === transfer.trace_mc_seqno_end));
  const window = (await get(`/api/v3/actions?account=${A}&start_lt=${transfer.trace_end_lt}&end_lt=${transfer.trace_end_lt}&limit=100`))
    .actions as any[];
  assert.deepEqual([...new Set(window.map((a) => a.trace_id))], [transfer.trace_id]);
  assert.ok(
    ((await get(`/api/v3/actions?account=${A}&exclude_action_type=contract_deploy,call_contract&limit=100`)).actions as any[]).every(
      (a) => !['contract_deploy', 'call_contract'].includes(a.type),
    ),
  );
  const second = (await get(`/api/v3/actions?account=${A}&limit=2&offset=1&sort=asc`)).actions as any[];
  assert.deepEqual(
    second.map((a) => a.action_id),
    ofAlice.slice(1, 3).map((a) => a.action_id),
  );

  // /traces?include_actions=true: the same actions (without accounts), the trace classified.
  const traces = await get(`/api/v3/traces?trace_id=${encodeURIComponent(transfer.trace_id)}&include_actions=true`);
  const [trace] = traces.traces;
  assert.equal(trace.trace_info.classification_state, 'ok');
  const byId = (list: any[]) => [...list].sort((x, y) => x.action_id.localeCompare(y.action_id));
  assert.deepEqual(byId(trace.actions), byId(transferTrace));
  const starts = trace.actions.map((a: any) => BigInt(a.start_lt));
  assert.deepEqual(
    starts,
    [...starts].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
    "a trace's actions by start_lt (toncenter's order there)",
  );
  assert.ok(traces.address_book[M], "the address book names the actions' jetton");
  // /events: toncenter's older name, actions always in, the list under `events` (not in toncenter's published spec).
  const events = await getJson(`${env.url}/api/v3/events?trace_id=${encodeURIComponent(transfer.trace_id)}`);
  assert.equal(events.status, 200);
  assert.deepEqual(ourV3((await getJson(`${env.url}/api/v3/openapi.json`)).body).errors('/api/v3/events', events.body), []);
  assert.deepEqual(events.body.events, traces.traces);
  const plain = (await get(`/api/v3/traces?trace_id=${encodeURIComponent(transfer.trace_id)}`)).traces[0];
  assert.equal(plain.actions, undefined);
  assert.equal(plain.trace_info.classification_state, 'ok');

  // /balanceChanges (ton-index-go's, not in its published spec): the jettons moved, the fees paid.
  const balances = await getJson(`${env.url}/api/v3/balanceChanges?trace_id=${encodeURIComponent(transfer.trace_id)}`);
  assert.equal(balances.status, 200);
  assert.deepEqual(balances.body.jettons, { [A]: { [M]: '-300' }, [B]: { [M]: '300' } });
  assert.ok(balances.body.fees[A] > 0 && balances.body.changes[A] < 0, JSON.stringify(balances.body));
  const ofTransfer = await getJson(`${env.url}/api/v3/balanceChanges?action_id=${encodeURIComponent(transfer.action_id)}`);
  assert.deepEqual(ofTransfer.body.jettons, balances.body.jettons);
  const ofDeploy = await getJson(`${env.url}/api/v3/balanceChanges?action_id=${encodeURIComponent(transferTrace[1].action_id)}`);
  assert.deepEqual(
    ofDeploy.body,
    { changes: null, fees: null, jettons: null },
    'a deployment has none of its own (toncenter answers nulls)',
  );
  assert.deepEqual(
    [(await getJson(`${env.url}/api/v3/balanceChanges`)).status, (await getJson(`${env.url}/api/v3/balanceChanges`)).body],
    [400, { error: 'trace_id or action_id is required' }],
  );
  const noAction = await getJson(`${env.url}/api/v3/balanceChanges?action_id=${encodeURIComponent(Buffer.alloc(32).toString('base64'))}`);
  assert.deepEqual([noAction.status, noAction.body], [404, { error: 'action_id not found' }]);

  const [refused] = (await get(`/api/v3/actions?account=${B}&action_type=ton_transfer&sort=desc&limit=1`)).actions as any[];
  assert.deepEqual(
    [refused.success, refused.details.destination, refused.details.value, refused.accounts],
    [false, A, '1000000000000', undefined],
  );
  assert.equal(refused.transactions.length, 1, "the wallet's transaction alone: nothing was sent");

  // Bad input: a 4xx naming what was wrong.
  const badType = await getJson(`${env.url}/api/v3/actions?action_type=jetton-transfer`);
  assert.deepEqual([badType.status, badType.body], [422, { error: 'action_type contains invalid characters' }]);
  const badExclude = await getJson(`${env.url}/api/v3/actions?exclude_action_type=a%20b`);
  assert.deepEqual([badExclude.status, badExclude.body], [422, { error: 'exclude_action_type contains invalid characters' }]);
  const noBlock = await getJson(`${env.url}/api/v3/actions?mc_seqno=99999999`);
  assert.deepEqual([noBlock.status, noBlock.body], [404, { error: 'masterchain block 99999999 not found' }]);
  const badAccount = await getJson(`${env.url}/api/v3/actions?account=nope`);
  assert.equal(badAccount.status, 422);
  assert.match(badAccount.body.error, /account/);
});

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/actions and /traces?include_actions from the ${store} store, through a real gateway [${store}]`, async (t: TestContext) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const s = await story();
    for (const block of s.blocks) await opened.index.writer.write(block);
    const server = await serveIndex(t, opened.index);
    const get = checker(server.base, ourV3((await server.get('/api/v3/openapi.json')).body));
    const A = raw(s.walletA);
    const answer = await get(`/api/v3/actions?account=${A}&limit=100&include_accounts=true`);
    assert.ok(answer.actions.length >= 6);
    assert.ok(answer.actions.every((a: any) => a.accounts.includes(A)));
    assert.ok(answer.address_book[A]);
    const hello = answer.actions.find((a: any) => a.details.comment === 'hello');
    assert.deepEqual(hello.details, {
      source: A,
      destination: raw(s.walletB),
      value: '3000000000',
      value_extra_currencies: {},
      comment: 'hello',
      encrypted: false,
    });
    const traces = await get(`/api/v3/traces?account=${A}&include_actions=true&limit=100`);
    const byId = new Map(traces.traces.map((tr: any) => [tr.trace_id, tr]));
    const withHello = byId.get(hello.trace_id) as any;
    assert.deepEqual(
      withHello.actions.map((a: any) => a.type),
      ['contract_deploy', 'ton_transfer', 'ton_transfer'],
    );
    assert.ok(
      traces.traces.every(
        (tr: any) => tr.trace_info.classification_state === (tr.trace_info.trace_state === 'complete' ? 'ok' : 'unclassified'),
      ),
    );
  });
}
