// An EventSource client in its own process (the `eventsource` package, with the POST toncenter's SSE takes):
// node sse-client.mjs URL BODY_JSON [API_KEY]. Prints one JSON line per event: {"event": type, "data": <parsed>},
// {"error": status, "message": "..."} when the stream is refused or fails; a refused stream's body as {"refused": status, "body": ...}.
import { EventSource } from 'eventsource';

const [url, body, key] = process.argv.slice(2);
const out = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);
const headers = { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) };
const source = new EventSource(url, {
  fetch: async (input, init) => {
    const response = await fetch(input, { ...init, method: 'POST', body, headers: { ...init.headers, ...headers } });
    if (!response.ok)
      out({
        refused: response.status,
        body: await response
          .clone()
          .json()
          .catch(() => null),
      });
    return response;
  },
});
for (const type of ['connected', 'event']) {
  source.addEventListener(type, (e) => out({ event: type, data: JSON.parse(e.data), at: performance.timeOrigin + performance.now() }));
}
source.onerror = (e) => {
  out({ error: e.code ?? null, message: e.message ?? '' });
  if (source.readyState === EventSource.CLOSED) process.exit(0);
};
