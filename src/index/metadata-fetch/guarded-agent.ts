/**
 * The undici Agent every metadata fetch goes through. Its DNS lookup is tongate's own: it resolves the host,
 * refuses the answer if any address is not public (address-policy.ts), and hands the checked addresses to the
 * socket, which connects to exactly those. Checking and connecting use one resolution, so a name that answers
 * a public address to the check and 127.0.0.1 to the connect (DNS rebinding) gets nowhere. IP literals skip
 * DNS and are checked by `checkLiteralHost` before each request (and each redirect hop).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { refusedAddressReason } from './address-policy.js';
import { RefusedAddressError } from './errors.js';

/** Why an address may not be connected to (null: it may). */
export type AddressRefusal = (ip: string) => string | null;

/** The policy: address-policy.ts's rule, unless private addresses are allowed; `exempt` addresses always pass. */
export function addressRefusal(allowPrivate: boolean, exempt: Iterable<string> = []): AddressRefusal {
  const passes = new Set(exempt);
  return (ip) => (allowPrivate || passes.has(ip) ? null : refusedAddressReason(ip));
}

export interface GuardedAgentOptions {
  refusal: AddressRefusal;
  /** Connect, response-headers and between-body-chunks timeouts. */
  timeoutMs: number;
  /** Connections kept per origin: the per-host politeness limit. */
  connectionsPerHost: number;
  /** Extra CA certificates (tests' own HTTPS servers). */
  ca?: string | Buffer;
}

export function guardedLookup(refusal: AddressRefusal): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
      for (const { address } of addresses) {
        const reason = refusal(address);
        if (reason !== null) return callback(new RefusedAddressError(hostname, address, reason));
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as LookupFunction;
}

/** Refuses a URL whose host is a non-public IP literal (no DNS is asked for those, so the lookup never sees them). */
export function checkLiteralHost(url: URL, refusal: AddressRefusal): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) return;
  const reason = refusal(host);
  if (reason !== null) throw new RefusedAddressError(url.hostname, host, reason);
}

export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(options.refusal), timeout: options.timeoutMs, ...(options.ca ? { ca: options.ca } : {}) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: options.connectionsPerHost,
    keepAliveTimeout: 4_000,
  });
}
