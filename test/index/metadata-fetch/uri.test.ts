import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchUrlOf } from '../../../src/index/metadata-fetch/uri.js';
import { MetadataFetchError } from '../../../src/index/metadata-fetch/errors.js';

const unsupported = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof MetadataFetchError && err.kind === 'unsupported-uri' && message.test(err.message));

test('http and https uris are fetched as they are', () => {
  assert.equal(fetchUrlOf('https://a.example/meta.json').href, 'https://a.example/meta.json');
  assert.equal(fetchUrlOf(' http://a.example:8080/x?y=1 ').href, 'http://a.example:8080/x?y=1');
});

test('ipfs uris go through the gateway, and only when one is set', () => {
  const gateway = new URL('https://gw.example/ipfs/');
  assert.equal(fetchUrlOf('ipfs://QmHash/1.json', gateway).href, 'https://gw.example/ipfs/QmHash/1.json');
  assert.equal(fetchUrlOf('ipfs://ipfs/QmHash', new URL('https://gw.example/ipfs')).href, 'https://gw.example/ipfs/QmHash');
  unsupported(() => fetchUrlOf('ipfs://QmHash/1.json'), /needs --ipfs-gateway/);
});

test('other schemes and non-URLs are not fetched', () => {
  unsupported(() => fetchUrlOf('file:///etc/passwd'), /not file:/);
  unsupported(() => fetchUrlOf('data:application/json,{}'), /not data:/);
  unsupported(() => fetchUrlOf('not a url'), /not a URL/);
  unsupported(() => fetchUrlOf('https://a.example/' + 'x'.repeat(5000)), /longer than/);
});
