/**
 * /metrics after requests: tongate's own answers timed by network, route class and status (one observation per
 * answer, HEAD included), and the chain gauges of each network (seqno, block age, transactions per block, index lag).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toNano } from '@ton/core';
import { routeClass } from '../../src/http/request-durations.js';
import { ADMIN_TOKEN, startManualTongate } from '../devnet/support/manual-tongate.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { freePort } from '../support/ports.js';
import { startTestTongate } from '../support/tongate.js';

/** The value of one sample line of the exposition text, or undefined when it is absent. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`) || (labels === '' && l.startsWith(`${name} `)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

test('route classes: the API versions, the devnet controls, docs, health, admin, metrics, the landing page', () => {
  const cases: Array<[string, string]> = [
    ['/api/v2/getMasterchainInfo', 'v2'],
    ['/api/v2/jsonRPC', 'v2'],
    ['/api/v3/transactions', 'v3'],
    ['/api/v3/nft/items', 'v3'],
    ['/devnet/mine', 'devnet'],
    ['/devnet/snapshots/:name', 'devnet'],
    ['/devnet/', 'docs'],
    ['/devnet/openapi.json', 'docs'],
    ['/api/v2/', 'docs'],
    ['/api/v3/openapi.json', 'docs'],
    ['/api/v3/doc.json', 'docs'],
    ['/api/v3/index.html', 'docs'],
    ['/api/v2/index.html', 'docs'],
    ['/api/v3/docs/:asset', 'docs'],
    ['/healthcheck', 'health'],
    ['/api/v2/healthcheck', 'health'],
    ['/admin/keys', 'admin'],
    ['/admin/keys/:id', 'admin'],
    ['/metrics', 'metrics'],
    ['/', 'landing'],
    ['/elsewhere', 'other'],
  ];
  for (const [url, expected] of cases) assert.equal(routeClass(url), expected, url);
});

test('/metrics: request durations by network, route class and status; chain gauges per network', async (t) => {
  const { gate, url, devnet } = await startManualTongate(t);
  const mainnet = gate.url('mainnet');
  const scrape = async () => {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(response.status, 200);
    return response.text();
  };
  const before = await scrape();
  assert.match(before, /# TYPE tongate_http_request_duration_seconds histogram/);

  const statuses: Array<[string, string, number]> = [
    ['GET', `${url}/`, 200],
    ['HEAD', `${url}/`, 200],
    ['GET', `${url}/api/v2/`, 200],
    ['GET', `${url}/api/v2/getAddressInformation?address=nonsense`, 422],
    ['GET', `${url}/api/v3/masterchainInfo`, 200],
    ['GET', `${url}/no/such/path`, 404],
    ['GET', `${mainnet}/healthcheck`, 200],
  ];
  for (const [method, target, status] of statuses) {
    const response = await fetch(target, { method });
    await response.arrayBuffer();
    assert.equal(response.status, status, `${method} ${target}`);
  }
  // A block with transactions, then the index has it.
  await devnet.fund(testWallet(71).wallet.address, toNano(1));
  const testnet = gate.networks.find((n) => n.name === 'testnet')!;
  // Awaited, not polled against a deadline: on a loaded machine the index threads may take a while to write it.
  await testnet.indexed!(testnet.chain.masterchainInfo().last.id.seqno);
  assert.equal(testnet.indexLag!(), 0, 'the index caught up');

  const text = await scrape();
  const count = (labels: string) => sample(text, 'tongate_http_request_duration_seconds_count', labels);
  assert.equal(count('network="testnet",class="landing",status="200"'), 2, 'GET and HEAD /, each timed once');
  assert.equal(count('network="testnet",class="docs",status="200"'), 1);
  assert.equal(count('network="testnet",class="v2",status="422"'), 1);
  assert.equal(count('network="testnet",class="v3",status="200"'), 1);
  assert.equal(count('network="testnet",class="unmatched",status="404"'), 1);
  assert.equal(count('network="mainnet",class="health",status="200"'), 1);
  assert.equal(count('network="testnet",class="devnet",status="200"'), 1, 'the fund call');
  assert.equal(count('network="testnet",class="metrics",status="200"'), 1, 'the scrape before (this one is timed once answered)');
  const sum = sample(text, 'tongate_http_request_duration_seconds_sum', 'network="testnet",class="v3",status="200"')!;
  assert.ok(sum > 0 && sum < 60, `a duration in seconds: ${sum}`);
  assert.equal(sample(text, 'tongate_http_request_duration_seconds_bucket', 'network="testnet",class="v3",status="200",le="+Inf"'), 1);
  // Buckets are cumulative, rising to the count.
  const landing = text
    .split('\n')
    .filter((l) => l.startsWith('tongate_http_request_duration_seconds_bucket{network="testnet",class="landing",status="200",'));
  const counts = landing.map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
  assert.equal(counts.length, 15, 'fourteen bounds and +Inf');
  for (let i = 1; i < counts.length; i++) assert.ok(counts[i] >= counts[i - 1], landing.join('\n'));
  assert.equal(counts.at(-1), 2);

  const seqno = testnet.chain.masterchainInfo().last.id.seqno;
  assert.equal(sample(text, 'tongate_chain_last_seqno', 'network="testnet"'), seqno);
  assert.equal(sample(text, 'tongate_chain_last_seqno', 'network="mainnet"'), gate.networks[0].chain.masterchainInfo().last.id.seqno);
  const age = sample(text, 'tongate_chain_last_block_age_seconds', 'network="testnet"')!;
  assert.ok(age >= 0 && Number.isFinite(age), `block age ${age}`);
  assert.ok(
    sample(text, 'tongate_chain_block_transactions', 'network="testnet"')! >= 1,
    'the fund transaction is in the newest indexed block',
  );
  assert.equal(sample(text, 'tongate_index_lag_blocks', 'network="testnet"'), 0);
});

test('/metrics of an upstream network: forwarded answers timed as its own, the seqno its upstreams reported, no chain of its own', async (t) => {
  const origin = await startTestTongate({ mining: 'manual' });
  t.after(() => origin.stop());
  const port = await freePort();
  const front = await startTestTongate({
    network: [`mainnet=http://127.0.0.1:${port}`],
    backend: ['mainnet=upstream'],
    upstreamV2: [`mainnet=${origin.url('mainnet')}/api/v2`],
    adminToken: ADMIN_TOKEN,
  });
  t.after(() => front.stop());
  const forwarded = await fetch(`http://127.0.0.1:${port}/api/v2/getMasterchainInfo`);
  assert.equal(forwarded.status, 200);
  const seqno = (await forwarded.json()).result.last.seqno;
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  assert.equal(sample(text, 'tongate_http_request_duration_seconds_count', 'network="mainnet",class="v2",status="200"'), 1);
  // The origin makes no block in this test (manual mining): the front's start-up health check saw this seqno too.
  assert.equal(sample(text, 'tongate_chain_last_seqno', 'network="mainnet"'), seqno);
  assert.equal(sample(text, 'tongate_chain_last_block_age_seconds', 'network="mainnet"'), undefined);
  assert.equal(sample(text, 'tongate_index_lag_blocks', 'network="mainnet"'), undefined);
});
