/**
 * Where an upstream network's streams go: the streaming base of each v3 URL (`…/api/v3` -> `…/api/streaming`); the
 * relay itself runs end to end in test/stream/upstream-relay.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { streamingBase, UpstreamStreaming } from '../../src/upstream/streaming.js';

test("the streaming base is the v3 URL's path with v3 made streaming; none when the path does not end in v3", () => {
  const base = (url: string) => streamingBase(new URL(url))?.href;
  assert.equal(base('https://toncenter.com/api/v3'), 'https://toncenter.com/api/streaming');
  assert.equal(base('https://toncenter.com/api/v3/'), 'https://toncenter.com/api/streaming');
  assert.equal(base('http://127.0.0.1:8081/testnet/api/v3?x=1'), 'http://127.0.0.1:8081/testnet/api/streaming');
  assert.equal(base('https://indexer.example/v3'), 'https://indexer.example/streaming');
  assert.equal(base('https://indexer.example/index'), undefined);
  assert.equal(base('https://indexer.example/api/v3x'), undefined);
  assert.equal(UpstreamStreaming.of([new URL('https://indexer.example/index')], undefined, 1000), undefined);
  const streaming = UpstreamStreaming.of([new URL('https://a.example/index'), new URL('https://b.example/api/v3')], 'k', 1000);
  assert.deepEqual(
    streaming?.bases.map((b) => b.href),
    ['https://b.example/api/streaming'],
  );
  void streaming?.close();
});
