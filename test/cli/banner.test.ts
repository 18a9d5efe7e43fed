/** The banner's v3 line of a lite network names the block its index begins at, and says when it is back-filling. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderBanner } from '../../src/cli/banner.js';
import { loadConfig } from '../../src/config/load.js';
import type { NetworkContext } from '../../src/http/network-context.js';

function v3Line(index: { from: number; last: number; head: number }): string {
  const config = loadConfig({ flags: { ephemeral: true, network: ['mainnet=http://127.0.0.1:8080'] }, env: {} });
  const network = { name: 'mainnet', globalId: -239, baseUrl: new URL('http://127.0.0.1:8080') } as unknown as NetworkContext;
  const banner = renderBanner(config, [{ network, faucets: [], liteservers: { count: 1, configFile: 'global.config.json' }, index }], '', {
    servingMs: 1,
    readyMs: 1,
  });
  return banner.split('\n').find((line) => line.includes('/api/v3'))!;
}

test('--index-from: the block v3 begins at, and the back-fill to the head', () => {
  assert.equal(
    v3Line({ from: 5, last: 4, head: 40 }),
    '  v3  http://127.0.0.1:8080/api/v3   (indexed from masterchain block 5; back-filling to 40, progress in the log)',
  );
});

test('an index at the head (a first start, or a restart that missed a block): where it begins, nothing else', () => {
  assert.equal(v3Line({ from: 40, last: 39, head: 40 }), '  v3  http://127.0.0.1:8080/api/v3   (indexed from masterchain block 40)');
  assert.equal(v3Line({ from: 12, last: 39, head: 40 }), '  v3  http://127.0.0.1:8080/api/v3   (indexed from masterchain block 12)');
  assert.doesNotMatch(v3Line({ from: 12, last: 39, head: 40 }), /started at/);
});
