/**
 * What a domain item of a configured DNS root says about itself, asked the way ton-indexer asks a `.ton` item:
 * `get_domain` (the domain's bytes, the root's zone appended: "alice" -> "alice.ton") and `dnsresolve("\0", 0)`
 * (8 bits resolved and the dictionary of every record). Runs in the store thread through the same
 * GetMethodRunner as token detection, at the block's masterchain seqno.
 *
 * An item whose code answers neither as expected is not a domain (remembered by code hash, as the token
 * detectors do); a dnsresolve that does not resolve the 8 bits, or whose dictionary does not parse, leaves the
 * domain with no records. A chain that does not answer (a time-out, a liteserver down) says nothing about the item:
 * the error goes up, and the token detector asks the item again at a later block (src/index/tokens/detection-retry.ts).
 */
import { beginCell } from '@ton/core';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import type { GetMethodRunner } from '../tokens/get-methods.js';
import { NO_RECORDS, parseDnsRecords, type DnsRecords } from './records.js';

/** ton-indexer's zone for the .ton roots. Every configured root is read as a .ton root. */
export const DNS_ZONE = '.ton';

const MAX_MISSES = 10_000;
/** "\0": the domain itself. */
const SELF = beginCell().storeUint(0, 8).endCell();

export interface DomainState {
  domain: string;
  records: DnsRecords;
}

export class DomainItemGetMethods {
  private readonly misses = new Set<string>();

  constructor(private readonly runner: GetMethodRunner) {}

  /** The domain and records of an item, null when its code is not a domain item's; throws when the chain failed to answer. */
  async read(address: string, codeHash: Buffer, seqno: number): Promise<DomainState | null> {
    const key = codeHash.toString('base64');
    if (this.misses.has(key)) return null;
    try {
      const domain = await this.domain(address, seqno);
      return { domain, records: await this.records(address, seqno) };
    } catch (error) {
      if (!(error instanceof NotThatContract)) throw error;
      if (this.misses.size >= MAX_MISSES) this.misses.clear();
      this.misses.add(key);
      return null;
    }
  }

  private async domain(address: string, seqno: number): Promise<string> {
    const values = await this.runner.run(address, 'get_domain', [], seqno);
    if (!values) throw new NotThatContract('get_domain failed');
    const slice = new StackReader(values, 'get_domain').cell(0).beginParse();
    if (slice.remainingBits % 8 !== 0) throw new NotThatContract('get_domain: not whole bytes');
    const name = slice.loadBuffer(slice.remainingBits / 8).toString('utf8');
    if (name.length === 0) throw new NotThatContract('get_domain: empty');
    return name + DNS_ZONE;
  }

  private async records(address: string, seqno: number): Promise<DnsRecords> {
    const values = await this.runner.run(
      address,
      'dnsresolve',
      [
        { type: 'slice', cell: SELF },
        { type: 'int', value: 0n },
      ],
      seqno,
    );
    if (!values || values.length < 2) return NO_RECORDS;
    const s = new StackReader(values, 'dnsresolve');
    if (s.int(0) !== 8n || values[1].type === 'null') return NO_RECORDS;
    try {
      return parseDnsRecords(s.cell(1));
    } catch {
      return NO_RECORDS;
    }
  }
}
