// A WebSocket client in its own process (the `ws` package): node ws-client.mjs URL [API_KEY].
// Every line read on stdin is sent as a text frame; every frame received is printed as one JSON line
// {"message": <parsed>}; the connection's end as {"close": code, "reason": "..."}; a refused upgrade as
// {"unexpected": status, "body": "..."}.
import WebSocket from 'ws';
import { createInterface } from 'node:readline';

const [url, key] = process.argv.slice(2);
const out = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);
const socket = new WebSocket(url, { headers: key ? { 'X-API-Key': key } : {} });
socket.on('open', () => out({ open: true }));
socket.on('message', (data) => out({ message: JSON.parse(data.toString()), at: performance.timeOrigin + performance.now() }));
socket.on('close', (code, reason) => {
  out({ close: code, reason: reason.toString() });
  process.exit(0);
});
socket.on('unexpected-response', (_request, response) => {
  let body = '';
  response.on('data', (chunk) => (body += chunk));
  response.on('end', () => {
    out({ unexpected: response.statusCode, body });
    process.exit(0);
  });
});
socket.on('error', (error) => out({ error: error.message }));
createInterface({ input: process.stdin }).on('line', (line) => socket.send(line));
