/**
 * Where the CLI's devnet commands reach a running tongate, and what they say when nothing answers there.
 *
 * A network's base URL is its public address, which may be a proxy's (or not reachable from the machine tongate
 * runs on). With `--listen` the configuration says where tongate itself listens, so the commands call that address
 * and send the base URL's host in `Host`, which is how tongate tells the networks of one listener apart. A TLS
 * listener keeps the base URL: its certificate names the public host, not the listening address.
 */
import { request } from 'undici';
import { effectivePort } from '../config/networks.js';
import type { NetworkConfig, TongateConfig } from '../config/types.js';
import { DevnetClient } from '../devnet/client.js';

export interface DevnetTarget {
  client: DevnetClient;
  /** What is called, for messages: the base URL, or the listening address and the Host sent to it. */
  calls: string;
  /** True when the configuration's --listen is used. */
  viaListen: boolean;
}

export function devnetTarget(config: TongateConfig, network: NetworkConfig): DevnetTarget {
  const adminToken = config.adminToken ? { adminToken: config.adminToken } : {};
  const base = network.baseUrl.origin;
  if (!config.listen || (network.baseUrl.protocol === 'https:' && config.tlsCert)) {
    return { client: new DevnetClient({ endpoint: base, ...adminToken }), calls: base, viaListen: false };
  }
  const listener = `http://${connectHost(config.listen.host)}:${config.listen.port}`;
  // With the port always written out: tongate matches a Host without one against the scheme's default port.
  const host = `${network.baseUrl.hostname}:${effectivePort(network.baseUrl)}`;
  return {
    client: new DevnetClient({ endpoint: base, fetch: fetchThrough(listener, host), ...adminToken }),
    calls: `${listener} (--listen, Host ${host})`,
    viaListen: true,
  };
}

/** A wildcard listening address is reached on loopback. */
function connectHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** A fetch that sends each request to `listener` with `Host: host` (the global fetch does not let Host be set). */
function fetchThrough(listener: string, host: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const answer = await request(`${listener}${url.pathname}${url.search}`, {
      method: (init?.method ?? 'GET') as 'GET',
      headers: { ...(init?.headers as Record<string, string> | undefined), host },
      body: init?.body as string | Uint8Array | undefined,
    });
    const bytes = new Uint8Array(await answer.body.arrayBuffer());
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    return new Response(answer.statusCode === 204 || answer.statusCode === 304 ? null : bytes, { status: answer.statusCode, headers });
  }) as typeof fetch;
}

/**
 * A call that got no answer, in words that say where it went and what to check, instead of fetch's bare
 * "fetch failed".
 */
export function unreachable(what: string, target: DevnetTarget, network: string, error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code ?? cause?.message ?? (error as Error).message;
  const check = target.viaListen
    ? `is tongate running and listening there (its --listen)?`
    : `is tongate running, serving ${network} at this base URL? The CLI takes it from --config, TONGATE_NETWORK or ` +
      `the defaults, as start does: give it the same options. Behind a proxy, or when the base URL is not reachable ` +
      `from here, give --listen [host:]port: the CLI then calls that address`;
  return `${what}: no answer from ${target.calls} (${code}): ${check}`;
}
