import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusedAddressReason } from '../../../src/index/metadata-fetch/address-policy.js';

test('non-public IPv4 addresses are refused with the reason', () => {
  const cases: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
  ];
  for (const [ip, why] of cases) assert.equal(refusedAddressReason(ip), why, ip);
});

test('public addresses pass', () => {
  for (const ip of [
    '1.1.1.1',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
  ]) {
    assert.equal(refusedAddressReason(ip), null, ip);
  }
});

test('non-public IPv6 addresses are refused, and IPv6 forms that carry a private IPv4 address', () => {
  const cases: Array<[string, RegExp]> = [
    ['::1', /^loopback$/],
    ['::', /^unspecified$/],
    ['fe80::1', /^link-local$/],
    ['fd12:3456::1', /^unique-local$/],
    ['fc00::1', /^unique-local$/],
    ['ff02::1', /^multicast$/],
    ['fec0::1', /^site-local$/],
    ['::ffff:127.0.0.1', /^loopback \(IPv4 inside IPv6\)$/],
    ['::ffff:7f00:1', /^loopback \(IPv4 inside IPv6\)$/], // the same as WHATWG URL writes it
    ['[::ffff:a9fe:a9fe]', /^link-local/],
    ['::10.0.0.1', /^private/],
    ['64:ff9b::c0a8:0101', /^private/],
    ['2002:7f00:0001::', /^loopback/],
  ];
  for (const [ip, why] of cases) assert.match(refusedAddressReason(ip) ?? 'null', why, ip);
});

test('something that is not an IP address is refused', () => {
  assert.equal(refusedAddressReason('localhost'), 'not an IP address');
});
