/**
 * Keys must never reach logs. toncenter clients may send the key in the query (`api_key=`), and
 * request logs print URLs: this cuts the value out. The parameter name is compared decoded, the
 * way the query parser will read it (so `api%5Fkey=` is redacted too).
 */

export const REDACTED = '[REDACTED]';

export function redactApiKey(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url.slice(q + 1);
  if (!/api|%/i.test(query)) return url;
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    return decodedName(name) === 'api_key' ? `${name}=${REDACTED}` : part;
  });
  return url.slice(0, q + 1) + parts.join('&');
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
