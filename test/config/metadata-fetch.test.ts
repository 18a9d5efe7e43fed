import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { runTongate } from '../support/process.js';
import { configError, configFiles } from '../support/config.js';

const { file } = configFiles('tongate-metadata-fetch-');

test('metadata fetching is off by default, with its budgets', () => {
  assert.deepEqual(loadConfig({ flags: {}, env: {} }).metadataFetch, {
    enabled: false,
    allowPrivate: false,
    ipfsGateway: undefined,
    timeoutMs: 10_000,
    maxBytes: 1_048_576,
    concurrency: 4,
  });
});

test('the fetcher options from flags, the environment and a config file', () => {
  const fromFlags = loadConfig({
    flags: {
      fetchMetadata: true,
      fetchMetadataAllowPrivate: true,
      ipfsGateway: 'https://ipfs.io/ipfs',
      fetchMetadataTimeout: '2500',
      fetchMetadataMaxSize: '65536',
      fetchMetadataConcurrency: '8',
    },
    env: {},
  }).metadataFetch;
  assert.deepEqual(fromFlags, {
    enabled: true,
    allowPrivate: true,
    ipfsGateway: new URL('https://ipfs.io/ipfs'),
    timeoutMs: 2500,
    maxBytes: 65536,
    concurrency: 8,
  });
  const fromEnv = loadConfig({
    flags: {},
    env: { TONGATE_FETCH_METADATA: 'true', TONGATE_IPFS_GATEWAY: 'http://127.0.0.1:8080/ipfs', TONGATE_FETCH_METADATA_TIMEOUT: '500' },
  }).metadataFetch;
  assert.equal(fromEnv.enabled, true);
  assert.equal(fromEnv.ipfsGateway?.href, 'http://127.0.0.1:8080/ipfs');
  assert.equal(fromEnv.timeoutMs, 500);
  const yaml = file('fetch.yaml', 'fetchMetadata: true\nfetchMetadataAllowPrivate: true\nfetchMetadataMaxSize: 2048\n');
  const fromFile = loadConfig({ flags: { config: yaml }, env: {} }).metadataFetch;
  assert.equal(fromFile.allowPrivate, true);
  assert.equal(fromFile.maxBytes, 2048);
});

test('bad values name the option', () => {
  const bad = (flags: Record<string, unknown>, env: Record<string, string> = {}) => configError(() => loadConfig({ flags, env })).message;
  assert.match(
    bad({ fetchMetadata: true, fetchMetadataTimeout: '5' }),
    /^--fetch-metadata-timeout: expected an integer from 100 to 600000, got "5"/,
  );
  assert.match(bad({ fetchMetadata: true, fetchMetadataMaxSize: 'big' }), /^--fetch-metadata-max-size: expected an integer/);
  assert.match(
    bad({ fetchMetadata: true, fetchMetadataConcurrency: '0' }),
    /^--fetch-metadata-concurrency: expected an integer from 1 to 256/,
  );
  assert.match(bad({ fetchMetadata: true, ipfsGateway: 'ipfs://gateway' }), /^--ipfs-gateway: expected an http or https URL/);
  assert.match(
    bad({ fetchMetadata: true, ipfsGateway: 'https://gw.example/ipfs?x=1' }),
    /^--ipfs-gateway: the gateway URL must not have a query/,
  );
  assert.match(bad({}, { TONGATE_FETCH_METADATA: 'maybe' }), /^TONGATE_FETCH_METADATA: expected true or false, got "maybe"/);
  assert.match(bad({ fetchMetadataAllowPrivate: true }), /^--fetch-metadata-allow-private: has no effect without --fetch-metadata/);
  assert.match(bad({ ipfsGateway: 'https://ipfs.io/ipfs' }), /^--ipfs-gateway: has no effect without --fetch-metadata/);
});

test('a bad fetcher option stops tongate start with exit code 2', async () => {
  const result = await runTongate(['start', '--ephemeral', '--fetch-metadata', '--fetch-metadata-timeout', 'soon']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--fetch-metadata-timeout: expected an integer from 100 to 600000, got "soon"/);
});
