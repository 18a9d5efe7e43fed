import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offchainUriOf, tokenInfoOf } from '../../../src/index/metadata-fetch/token-info.js';

test('fetched JSON: name, symbol, description, image become fields, every other key goes to extra', () => {
  const entry = tokenInfoOf({
    type: 'jetton_masters',
    onchain: { uri: 'https://x.example/j.json' },
    offchain: {
      state: 'fetched',
      json: {
        name: 'Coin',
        symbol: 'CN',
        description: 'd',
        image: 'https://x.example/i.png',
        decimals: '6',
        social: ['https://t.me/x'],
        image_data: 'AA==',
      },
    },
  });
  assert.deepEqual(entry, {
    is_indexed: true,
    token_info: [
      {
        valid: true,
        type: 'jetton_masters',
        name: 'Coin',
        symbol: 'CN',
        description: 'd',
        image: 'https://x.example/i.png',
        is_nsfw: false,
        is_scam: false,
        extra: { decimals: '6', social: ['https://t.me/x'], image_data: 'AA==', uri: 'https://x.example/j.json' },
      },
    ],
  });
});

test('onchain values override fetched ones, fields and extra alike', () => {
  const [info] = tokenInfoOf({
    type: 'jetton_masters',
    onchain: { uri: 'https://x.example/j.json', name: 'Onchain', decimals: '9' },
    offchain: { state: 'fetched', json: { name: 'Fetched', symbol: 'F', decimals: '6' } },
  }).token_info;
  assert.equal(info.name, 'Onchain');
  assert.equal(info.symbol, 'F');
  assert.deepEqual(info.extra, { decimals: '9', uri: 'https://x.example/j.json' });
});

test('a field that is not a string stays in extra and does not count for validity', () => {
  const entry = tokenInfoOf({
    type: 'jetton_masters',
    onchain: { uri: 'u' },
    offchain: { state: 'fetched', json: { symbol: 5, name: 'N' } },
  });
  assert.deepEqual(entry, { is_indexed: true, token_info: [{ valid: false, type: 'jetton_masters' }] });
});

test('not fetched yet: is_indexed false and the bare type (and nft_index), as toncenter before its fetcher ran', () => {
  assert.deepEqual(tokenInfoOf({ type: 'nft_items', onchain: { uri: 'u' }, offchain: { state: 'pending' }, nftIndex: '7' }), {
    is_indexed: false,
    token_info: [{ type: 'nft_items', nft_index: '7' }],
  });
});

test('validity: a jetton needs a symbol, an NFT item a name or a domain, a collection a name', () => {
  const valid = (input: Parameters<typeof tokenInfoOf>[0]) => tokenInfoOf(input).token_info[0].valid;
  const fetched = (json: Record<string, unknown>) => ({ state: 'fetched' as const, json });
  assert.equal(valid({ type: 'jetton_masters', onchain: {}, offchain: fetched({ name: 'N' }) }), false);
  assert.equal(valid({ type: 'jetton_masters', onchain: {}, offchain: fetched({ symbol: 'S' }) }), true);
  assert.equal(valid({ type: 'nft_items', onchain: {}, offchain: fetched({ symbol: 'S' }) }), false);
  assert.equal(valid({ type: 'nft_items', onchain: {}, offchain: fetched({ name: 'N' }) }), true);
  assert.equal(valid({ type: 'nft_items', onchain: {}, offchain: fetched({}), domain: 'alice.ton' }), true);
  assert.equal(valid({ type: 'nft_collections', onchain: {}, offchain: fetched({ description: 'd' }) }), false);
  assert.equal(valid({ type: 'nft_collections', onchain: {}, offchain: fetched({ name: 'C' }) }), true);
});

test('a fetch that failed for good: indexed, from the onchain values alone', () => {
  assert.deepEqual(tokenInfoOf({ type: 'jetton_masters', onchain: { uri: 'u' }, offchain: { state: 'failed' } }), {
    is_indexed: true,
    token_info: [{ valid: false, type: 'jetton_masters' }],
  });
  const [info] = tokenInfoOf({ type: 'jetton_masters', onchain: { uri: 'u', symbol: 'S' }, offchain: { state: 'failed' } }).token_info;
  assert.deepEqual(info, { valid: true, type: 'jetton_masters', symbol: 'S', is_nsfw: false, is_scam: false, extra: { uri: 'u' } });
});

test('onchain content alone gives what the token index shows today', () => {
  const [info] = tokenInfoOf({
    type: 'nft_items',
    onchain: { name: 'Item', image: 'i', render_type: 'x' },
    offchain: { state: 'absent' },
    nftIndex: '0',
  }).token_info;
  assert.deepEqual(info, {
    valid: true,
    type: 'nft_items',
    name: 'Item',
    image: 'i',
    nft_index: '0',
    is_nsfw: false,
    is_scam: false,
    extra: { render_type: 'x' },
  });
});

test('the uri to fetch: offchain content, or onchain content that also carries one', () => {
  assert.equal(offchainUriOf({ uri: ' https://a.example/x.json ' }), 'https://a.example/x.json');
  assert.equal(offchainUriOf({ name: 'N', uri: 'ipfs://Qm' }), 'ipfs://Qm');
  assert.equal(offchainUriOf({ name: 'N' }), undefined);
  assert.equal(offchainUriOf({ uri: '' }), undefined);
});
