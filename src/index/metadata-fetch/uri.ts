/**
 * Which URL a TEP-64 `uri` is fetched from: http and https as they are; `ipfs://<cid>/<path>` through the
 * configured gateway (none: not fetched, since a public gateway is someone else's service to lean on).
 */
import { MetadataFetchError } from './errors.js';

const MAX_URI_LENGTH = 4096;

export function fetchUrlOf(uri: string, ipfsGateway?: URL): URL {
  const text = uri.trim();
  if (text.length > MAX_URI_LENGTH) throw new MetadataFetchError('unsupported-uri', `the uri is longer than ${MAX_URI_LENGTH} characters`);
  if (/^ipfs:\/\//i.test(text)) {
    if (!ipfsGateway) throw new MetadataFetchError('unsupported-uri', 'an ipfs:// uri needs --ipfs-gateway');
    const path = text.slice('ipfs://'.length).replace(/^ipfs\//i, '');
    return parse(`${ipfsGateway.href.replace(/\/+$/, '')}/${path}`);
  }
  const url = parse(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MetadataFetchError('unsupported-uri', `only http, https and ipfs uris are fetched, not ${url.protocol}`);
  }
  return url;
}

function parse(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new MetadataFetchError('unsupported-uri', `not a URL: ${JSON.stringify(text.slice(0, 200))}`);
  }
}
