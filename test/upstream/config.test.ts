/**
 * The options of upstream networks: flags, environment and file give the same configuration; every
 * value that cannot work stops start-up with a message naming the option (exit 2 from the CLI).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runTongate } from '../support/process.js';
import { configError } from '../support/config.js';

const NETWORKS = ['mainnet=http://127.0.0.1:8080', 'testnet=http://127.0.0.1:8081'];

test('flags: a mixed deployment (mainnet upstream with two v2 URLs and a v3 URL, testnet local)', () => {
  const config = loadConfig({
    flags: {
      network: NETWORKS,
      backend: ['mainnet=upstream'],
      upstreamV2: ['mainnet=https://toncenter.com/api/v2/', 'mainnet=https://backup.example.org/api/v2'],
      upstreamV3: ['mainnet=https://toncenter.com/api/v3'],
      upstreamKey: ['mainnet=abc'],
      upstreamRps: ['mainnet=25'],
      upstreamConcurrency: ['mainnet=8'],
      upstreamTimeout: '3000',
      upstreamHealthInterval: '60000',
      upstreamBreakerOpen: '500',
    },
    env: {},
  });
  const [mainnet, testnet] = config.networks;
  assert.equal(mainnet.backend, 'upstream');
  assert.deepEqual(mainnet.upstream!.v2.map(String), ['https://toncenter.com/api/v2', 'https://backup.example.org/api/v2']);
  assert.deepEqual(mainnet.upstream!.v3.map(String), ['https://toncenter.com/api/v3']);
  assert.equal(mainnet.upstream!.apiKey, 'abc');
  assert.equal(mainnet.upstream!.rps, 25);
  assert.equal(mainnet.upstream!.concurrency, 8);
  assert.equal(mainnet.upstream!.cacheMs, 1000);
  assert.equal(mainnet.upstream!.timeoutMs, 3000);
  assert.equal(mainnet.upstream!.maxResponseBytes, 32 * 1_048_576);
  assert.equal(mainnet.upstream!.healthIntervalMs, 60_000);
  assert.equal(mainnet.upstream!.breakerOpenMs, 500);
  assert.equal(testnet.backend, 'local');
  assert.equal(testnet.upstream, undefined);
});

test('the environment (comma-separated name=value) and the file (maps, lists) say the same', () => {
  const fromEnv = loadConfig({
    flags: {},
    env: {
      TONGATE_NETWORK: NETWORKS.join(','),
      TONGATE_BACKEND: 'mainnet=upstream,testnet=upstream',
      TONGATE_UPSTREAM_V2: 'mainnet=https://a.example/api/v2,testnet=https://t.example/api/v2',
      TONGATE_UPSTREAM_KEY: 'mainnet=k1,testnet=k2',
      TONGATE_UPSTREAM_CACHE: 'testnet=0',
      TONGATE_UPSTREAM_HEALTH_INTERVAL: '15000',
      TONGATE_UPSTREAM_BREAKER_OPEN: '4000',
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'tongate-upstream-'));
  const path = join(dir, 'tongate.yaml');
  writeFileSync(
    path,
    [
      'networks:',
      '  mainnet: http://127.0.0.1:8080',
      '  testnet: http://127.0.0.1:8081',
      'backend: { mainnet: upstream, testnet: upstream }',
      'upstreamV2:',
      '  mainnet: [https://a.example/api/v2]',
      '  testnet: https://t.example/api/v2',
      'upstreamKey: [mainnet=k1, testnet=k2]',
      'upstreamCache: { testnet: 0 }',
      'upstreamHealthInterval: 15000',
      'upstreamBreakerOpen: 4000',
    ].join('\n'),
  );
  const fromFile = loadConfig({ flags: { config: path }, env: {} });
  for (const config of [fromEnv, fromFile]) {
    assert.deepEqual(
      config.networks.map((n) => [n.upstream!.healthIntervalMs, n.upstream!.breakerOpenMs]),
      [
        [15_000, 4000],
        [15_000, 4000],
      ],
    );
    assert.deepEqual(
      config.networks.map((n) => [
        n.name,
        n.backend,
        n.upstream!.v2.map(String),
        n.upstream!.v3.length,
        n.upstream!.apiKey,
        n.upstream!.cacheMs,
      ]),
      [
        ['mainnet', 'upstream', ['https://a.example/api/v2'], 0, 'k1', 1000],
        ['testnet', 'upstream', ['https://t.example/api/v2'], 0, 'k2', 0],
      ],
    );
  }
});

test('bad upstream configuration names the option', () => {
  const load = (flags: Record<string, unknown>) => loadConfig({ flags: { network: NETWORKS, ...flags }, env: {} });
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ backend: ['mainnet=remote'] }, /^--backend: mainnet: expected one of local, lite, upstream, got "remote"/],
    [{ backend: ['devnet=upstream'] }, /^--backend: unknown network "devnet"/],
    [{ backend: ['mainnet'] }, /^--backend: expected network=value/],
    [
      { backend: ['mainnet=upstream'] },
      /^--upstream-v2: mainnet is an upstream network: give --upstream-v2 mainnet=URL and\/or --upstream-v3 mainnet=URL/,
    ],
    [{ upstreamV2: ['mainnet=https://a.example/api/v2'] }, /^--backend: mainnet has upstream options but its backend is local/],
    [{ backend: ['mainnet=upstream'], upstreamV2: ['mainnet=ftp://a.example'] }, /^--upstream-v2: mainnet: expected an http or https URL/],
    [
      { backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://user:secret@a.example/api/v2'] },
      /^--upstream-v2: mainnet: no credentials in the URL/,
    ],
    [
      { backend: ['mainnet=upstream'], upstreamV3: ['mainnet=https://a.example/api/v3?api_key=x'] },
      /^--upstream-v3: mainnet: the URL must not have a query/,
    ],
    [
      { backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://a/api/v2'], upstreamRps: ['mainnet=0'] },
      /^--upstream-rps: mainnet: expected an integer from 1/,
    ],
    [
      { backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://a/api/v2'], upstreamConcurrency: ['mainnet=many'] },
      /^--upstream-concurrency: mainnet: expected an integer/,
    ],
    [
      { backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://a/api/v2'], upstreamKey: ['mainnet=a', 'mainnet=b'] },
      /^--upstream-key: mainnet is given 2 values; one is allowed/,
    ],
    [
      { backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://a/api/v2'], upstreamTimeout: '5' },
      /^--upstream-timeout: expected an integer from 100/,
    ],
    [
      { backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://a/api/v2'], upstreamHealthInterval: '0' },
      /^--upstream-health-interval: expected an integer from 100/,
    ],
    [
      { backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://a/api/v2'], upstreamBreakerOpen: '2s' },
      /^--upstream-breaker-open: expected an integer from 100/,
    ],
  ];
  for (const [flags, message] of cases) assert.match(configError(() => load(flags)).message, message, JSON.stringify(flags));
  // A malformed key is reported without being shown; nor is it part of an error about another option.
  const malformed = configError(() =>
    load({ backend: ['mainnet=upstream'], upstreamV2: ['mainnet=https://a/api/v2'], upstreamKey: ['topsecret'] }),
  );
  assert.match(malformed.message, /^--upstream-key: expected network=key/);
  assert.ok(!malformed.message.includes('topsecret'));
  const error = configError(() =>
    load({
      backend: ['mainnet=upstream'],
      upstreamV2: ['mainnet=https://a/api/v2'],
      upstreamKey: ['mainnet=topsecret'],
      upstreamRps: ['mainnet=x'],
    }),
  );
  assert.ok(!error.message.includes('topsecret'));
});

test('the CLI exits 2 on a bad upstream option', async () => {
  const result = await runTongate(['start', '--ephemeral', '--backend', 'mainnet=upstream']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /bad configuration: --upstream-v2: mainnet is an upstream network/);
});

test("docs/upstream.md's example loads: mainnet and testnet fronting toncenter, keys from the environment", () => {
  const section = readFileSync(new URL('../../docs/upstream.md', import.meta.url), 'utf8');
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1];
  const dir = mkdtempSync(join(tmpdir(), 'tongate-readme-'));
  const path = join(dir, 'tongate.yaml');
  writeFileSync(path, yaml);
  const config = loadConfig({ flags: { config: path }, env: { TONGATE_UPSTREAM_KEY: 'mainnet=km,testnet=kt' } });
  assert.deepEqual(
    config.networks.map((n) => [
      n.name,
      n.backend,
      n.upstream!.v2.map(String),
      n.upstream!.v3.map(String),
      n.upstream!.apiKey,
      n.upstream!.rps,
    ]),
    [
      ['mainnet', 'upstream', ['https://toncenter.com/api/v2', 'http://10.0.0.5:8081/api/v2'], ['https://toncenter.com/api/v3'], 'km', 25],
      ['testnet', 'upstream', ['https://testnet.toncenter.com/api/v2'], ['https://testnet.toncenter.com/api/v3'], 'kt', 10],
    ],
  );
});
