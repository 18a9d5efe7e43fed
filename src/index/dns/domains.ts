/**
 * Which detected NFT items are domains: an item (initialized) of one of the network's configured DNS root
 * collections is asked for its domain and records (item-get-methods.ts). Its nft_items content gains `domain`, as
 * toncenter's does, and it becomes a dns_entries row. Called by the token detector for every item it
 * detected, so a change_dns_record (which changes the item's data) updates the row at that block.
 */
import type { GetMethodRunner } from '../tokens/get-methods.js';
import type { NftItemRow } from '../tokens/token-rows.js';
import { DomainItemGetMethods } from './item-get-methods.js';
import type { DnsEntryRow } from './rows.js';

export class DomainDetector {
  private readonly getMethods: DomainItemGetMethods;

  /** `roots`: raw uppercase addresses of the network's DNS root collections. */
  constructor(
    runner: GetMethodRunner,
    private readonly roots: ReadonlySet<string>,
  ) {
    this.getMethods = new DomainItemGetMethods(runner);
  }

  /**
   * The item's dns_entries row (and `domain` added to its content), or null when it is not a domain. Throws when the
   * chain did not answer (the caller retries: detection-retry.ts).
   */
  async detect(item: NftItemRow, seqno: number): Promise<DnsEntryRow | null> {
    // Not initialized yet: no domain to read (and a failing get_domain must not mark the code as not a domain).
    if (!item.init || !item.collection || !this.roots.has(item.collection)) return null;
    const state = await this.getMethods.read(item.address, item.codeHash, seqno);
    if (!state) return null;
    item.content = { ...(item.content ?? {}), domain: state.domain };
    return { item: item.address, owner: item.owner, domain: state.domain, records: state.records, lastTxLt: item.lastTxLt };
  }
}
