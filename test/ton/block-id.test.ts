import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockIdExt, formatV2Shard, formatV3Shard, parseV2Shard, parseV3Shard, v3BlockRef } from '../../src/ton/block-id.js';
import { ShardParseError } from '../../src/ton/errors.js';

const MASTER = 0x8000000000000000n;

test('v2 shard is a signed int64 decimal string', () => {
  assert.equal(formatV2Shard(MASTER), '-9223372036854775808');
  assert.equal(formatV2Shard(0x2000000000000000n), '2305843009213693952');
  assert.equal(formatV2Shard(0xa000000000000000n), '-6917529027641081856');
  assert.equal(formatV2Shard(0n), '0');
});

test('v2 shard input: signed or unsigned decimal, number, 0x-hex, all to the unsigned id', () => {
  for (const input of ['-9223372036854775808', '9223372036854775808', -9223372036854775808, '0x8000000000000000', MASTER]) {
    assert.equal(parseV2Shard(input), MASTER, String(input));
  }
  assert.equal(parseV2Shard('2305843009213693952'), 0x2000000000000000n);
  assert.equal(parseV2Shard(2305843009213693952), 0x2000000000000000n);
  assert.equal(parseV2Shard('-6917529027641081856'), 0xa000000000000000n);
  for (const shard of [MASTER, 0x2000000000000000n, 0xe000000000000000n, 0x0800000000000000n]) {
    assert.equal(parseV2Shard(formatV2Shard(shard)), shard, 'round trip');
  }
});

test('bad v2 shards raise ShardParseError', () => {
  for (const input of ['', 'abc', '8000000000000000x', '1.5', 1.5, '-9223372036854775809', '18446744073709551616', null, {}, '0x']) {
    assert.throws(() => parseV2Shard(input), ShardParseError, String(input));
  }
});

test('v3 shard is unsigned uppercase hex as Go %X writes it (no padding)', () => {
  assert.equal(formatV3Shard(MASTER), '8000000000000000');
  assert.equal(formatV3Shard(0x2000000000000000n), '2000000000000000');
  assert.equal(formatV3Shard(0xa000000000000000n), 'A000000000000000');
  assert.equal(formatV3Shard(0x0800000000000000n), '800000000000000');
});

test('v3 shard input: hex first (optional 0x), then signed decimal', () => {
  assert.equal(parseV3Shard('8000000000000000'), MASTER);
  assert.equal(parseV3Shard('0x8000000000000000'), MASTER);
  assert.equal(parseV3Shard('a000000000000000'), 0xa000000000000000n);
  assert.equal(parseV3Shard('-9223372036854775808'), MASTER);
  assert.equal(parseV3Shard('2305843009213693952'), 0x2000000000000000n, 'too long for hex, so decimal');
  for (const input of ['', 'zz', '0x', '-1x', 5, '99999999999999999999'])
    assert.throws(() => parseV3Shard(input), ShardParseError, String(input));
});

test('ton.blockIdExt matches the observed toncenter shape', () => {
  const rootHash = Buffer.from('7/j0Uag1MI+IaBJ44Nd3G6eCrG3s9DFK9fw3AOmU65c=', 'base64');
  const fileHash = Buffer.from('qltlv0gkV5wbim9fp0rgYpBFnTtp2Rrf1aBcL+CqvgY=', 'base64');
  assert.deepEqual(blockIdExt({ workchain: -1, shard: MASTER, seqno: 68727824, rootHash, fileHash }), {
    '@type': 'ton.blockIdExt',
    workchain: -1,
    shard: '-9223372036854775808',
    seqno: 68727824,
    root_hash: '7/j0Uag1MI+IaBJ44Nd3G6eCrG3s9DFK9fw3AOmU65c=',
    file_hash: 'qltlv0gkV5wbim9fp0rgYpBFnTtp2Rrf1aBcL+CqvgY=',
  });
  assert.deepEqual(v3BlockRef({ workchain: 0, shard: MASTER, seqno: 12345 }), { workchain: 0, shard: '8000000000000000', seqno: 12345 });
});
