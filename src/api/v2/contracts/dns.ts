/**
 * TON DNS resolution (TEP-81) through resolver contracts' `dnsresolve(subdomain, category)`.
 *
 * A domain "alice.ton" travels in its internal form: labels reversed, each followed by a zero byte
 * ("ton\0alice\0"). A resolver answers how many bits of that it resolved and a cell: the record (or, for
 * category 0, the dictionary of all records) when it resolved everything; a dns_next_resolver record
 * when it resolved a prefix, in which case resolution goes on at that resolver with the rest, up to
 * `ttl` more hops, as tonlib's dns.resolve does.
 *
 * Records (block.tlb):
 *   dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) ...   dns_next_resolver#ba93 resolver:MsgAddressInt
 *   dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) ...       dns_storage_address#7473 bag_id:bits256
 *   dns_text#1eda _:Text   (Text: chunks:(## 8), each len:(## 8) data:(bits len*8), the next one in a ref)
 */
import { createHash } from 'node:crypto';
import { Address, beginCell, crc16, Dictionary, type Cell } from '@ton/core';
import { formatV2Address } from '../../../ton/address.js';
import { bocBase64 } from '../../../ton/boc.js';
import { formatHash } from '../../../ton/hash.js';
import { accountAddress } from '../../../ton/tonlib-json.js';
import { ApiError, badParameter } from '../../../http/api-error.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { callGetMethod, NotThatContract, StackReader } from './get-method-call.js';

/** A domain's internal form fits one cell. */
const MAX_INTERNAL_BYTES = 127;

/** The internal form of a domain; "" or "." is the resolver's own record set ("\0"). */
export function internalDomain(name: string): Buffer {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  if (trimmed === '') return Buffer.from([0]);
  const labels = trimmed.toLowerCase().split('.');
  for (const label of labels) {
    if (label === '') throw badParameter('name', `empty label in ${JSON.stringify(name)}`);
    if (!/^[\x21-\x7e]+$/.test(label)) throw badParameter('name', `label ${JSON.stringify(label)} has characters TON DNS does not allow`);
  }
  const internal = Buffer.from(
    labels
      .reverse()
      .map((label) => `${label}\0`)
      .join(''),
    'latin1',
  );
  if (internal.length > MAX_INTERNAL_BYTES) throw badParameter('name', `longer than ${MAX_INTERNAL_BYTES} bytes in internal form`);
  return internal;
}

/** A category: a name ("wallet", "site", hashed with sha256), a decimal or 0x-hex 256-bit number; 0 = all. */
export function categoryOf(text: string | undefined): bigint {
  if (text === undefined || text === '') return 0n;
  if (/^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/.test(text)) {
    const value = BigInt(text);
    if (value < 1n << 256n) return value;
  }
  if (/^[A-Za-z0-9_-]{1,127}$/.test(text) && !/^\d/.test(text)) return BigInt(`0x${createHash('sha256').update(text).digest('hex')}`);
  throw badParameter('category', `expected a category name (e.g. wallet) or a 256-bit number, got ${JSON.stringify(text.slice(0, 80))}`);
}

const hashBytes = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');

/** tonlib's user-friendly ADNL address: base32 of 0x2d + id + crc16, without its first character. */
export function friendlyAdnl(id: Buffer): string {
  const bytes = Buffer.concat([Buffer.from([0x2d]), id]);
  const all = Buffer.concat([bytes, crc16(bytes)]);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of all) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out.slice(1);
}

function loadTextRecord(cell: Cell): string {
  const cs = cell.beginParse();
  cs.skip(16);
  const chunks = cs.loadUint(8);
  const pieces: Buffer[] = [];
  let current = cs;
  for (let i = 0; i < chunks; i++) {
    const length = current.loadUint(8);
    pieces.push(current.loadBuffer(length));
    if (i + 1 < chunks) current = current.loadRef().beginParse();
  }
  return Buffer.concat(pieces).toString('utf8');
}

/** One record as tonlib's dns.EntryData. */
export function dnsEntryData(record: Cell, testOnly: boolean): Record<string, unknown> {
  try {
    const cs = record.beginParse();
    const tag = cs.loadUint(16);
    switch (tag) {
      case 0x9fd3:
        return { '@type': 'dns.entryDataSmcAddress', smc_address: accountAddress(formatV2Address(cs.loadAddress(), testOnly)) };
      case 0xba93:
        return { '@type': 'dns.entryDataNextResolver', resolver: accountAddress(formatV2Address(cs.loadAddress(), testOnly)) };
      case 0xad01:
        return {
          '@type': 'dns.entryDataAdnlAddress',
          adnl_address: { '@type': 'adnlAddress', adnl_address: friendlyAdnl(cs.loadBuffer(32)) },
        };
      case 0x7473:
        return { '@type': 'dns.entryDataStorageAddress', bag_id: cs.loadBuffer(32).toString('hex') };
      case 0x1eda:
        return { '@type': 'dns.entryDataText', text: loadTextRecord(record) };
    }
  } catch {
    // A record that does not parse as its tag says is reported as unknown bytes below.
  }
  return { '@type': 'dns.entryDataUnknown', bytes: bocBase64(record) };
}

export interface DnsEntry {
  '@type': 'dns.entry';
  name: string;
  category: string;
  entry: Record<string, unknown>;
}

export interface ResolveRequest {
  resolver: Address;
  name: string;
  category: bigint;
  /** Further resolvers to follow after the first one. */
  ttl: number;
  seqno?: number;
}

const NEXT_RESOLVER_CATEGORY = BigInt(`0x${createHash('sha256').update('dns_next_resolver').digest('hex')}`);

/** Category 0: the resolver answers its dictionary category -> ^record. */
function recordsOf(dictionary: Cell): Array<[bigint, Cell]> {
  try {
    return [...Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), dictionary)];
  } catch (error) {
    throw new ApiError(409, `the DNS resolver answered a malformed record dictionary: ${(error as Error).message}`);
  }
}

export async function resolveDns(network: NetworkContext, request: ResolveRequest): Promise<DnsEntry[]> {
  let resolver = request.resolver;
  let rest = internalDomain(request.name);
  const entry = (category: bigint, record: Cell): DnsEntry => ({
    '@type': 'dns.entry',
    name: request.name,
    category: formatHash(hashBytes(category)),
    entry: dnsEntryData(record, network.testOnly),
  });
  for (let hops = 0; ; hops++) {
    const subdomain = { type: 'slice' as const, cell: beginCell().storeBuffer(rest).endCell() };
    const values = await callGetMethod(
      network,
      resolver,
      'dnsresolve',
      [subdomain, { type: 'int', value: request.category }],
      request.seqno,
    );
    if (values === null)
      throw new ApiError(409, `${formatV2Address(resolver, network.testOnly)} is not a DNS resolver (dnsresolve failed)`);
    let resolvedBits: bigint;
    let result: Cell | null;
    try {
      const stack = new StackReader(values, 'dnsresolve');
      resolvedBits = stack.int(0);
      result = values[1]?.type === 'null' ? null : stack.cell(1);
    } catch (error) {
      if (error instanceof NotThatContract) throw new ApiError(409, `the DNS resolver answered an unexpected stack: ${error.message}`);
      throw error;
    }
    const totalBits = BigInt(rest.length * 8);
    if (resolvedBits === 0n || result === null) return [];
    if (resolvedBits < 0n || resolvedBits > totalBits || resolvedBits % 8n !== 0n) {
      throw new ApiError(409, `the DNS resolver claims ${resolvedBits} resolved bits of ${totalBits}`);
    }
    if (resolvedBits === totalBits) {
      if (request.category !== 0n) return [entry(request.category, result)];
      return recordsOf(result).map(([category, record]) => entry(category, record));
    }
    // A prefix was resolved: `result` names the resolver of the rest.
    const next = dnsEntryData(result, network.testOnly);
    if (next['@type'] !== 'dns.entryDataNextResolver' || hops >= request.ttl) return [entry(NEXT_RESOLVER_CATEGORY, result)];
    resolver = result.beginParse().skip(16).loadAddress();
    rest = rest.subarray(Number(resolvedBits / 8n));
  }
}
