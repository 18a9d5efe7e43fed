/** Host names and ports as the network router compares them. */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Loopback names are interchangeable: a base URL on 127.0.0.1 answers requests to localhost too. */
export function sameHost(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/^\[|\]$/g, '');
  const y = b.toLowerCase().replace(/^\[|\]$/g, '');
  return x === y || (isLoopback(x) && isLoopback(y));
}

/** Splits a Host header value ("api.example.org", "127.0.0.1:8080", "[::1]:8080"). */
export function splitHost(host: string): { hostname: string; port?: number } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.trim());
  if (!match) return { hostname: host };
  return { hostname: match[1].replace(/^\[|\]$/g, ''), port: match[2] ? Number(match[2]) : undefined };
}

export function isIpLiteral(hostname: string): boolean {
  return /^\d+\.\d+\.\d+\.\d+$/.test(hostname) || hostname.includes(':');
}
