// The streaming bench's clients, in a process of their own: node stream-clients.mjs URL < subscriptions.json
// (an array, one list of addresses per connection). Opens one WebSocket per list, subscribes it (transactions,
// default finality: finalized), prints {"ready": n} once all are subscribed; then notes, for every notification,
// the masterchain seqno of its transactions and when it arrived (performance.timeOrigin + now: the same epoch
// as the server's). On the stdin line "report" it prints {"received": [[seqno, at, "c"|"f"], ...], "closed": n} and
// clears its notes; "exit" closes everything.
import WebSocket from 'ws';
import { createInterface } from 'node:readline';

const [url] = process.argv.slice(2);
const out = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);
const lines = createInterface({ input: process.stdin });
let subscriptions;
let received = [];
let closed = 0;
const sockets = [];

function open(addresses) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('open', () =>
      socket.send(JSON.stringify({ operation: 'subscribe', id: 's', types: ['transactions'], addresses, min_finality: 'confirmed' })),
    );
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === '{"status":"pong"}') return;
      if (text.startsWith('{"id"')) {
        const answer = JSON.parse(text);
        if (answer.status === 'subscribed') resolve(socket);
        else reject(new Error(text));
        return;
      }
      const at = performance.timeOrigin + performance.now();
      // The seqno without parsing the whole notification: the first mc_block_seqno in it.
      const found = /"mc_block_seqno":(\d+)/.exec(text);
      if (found) received.push([Number(found[1]), at, text.startsWith('{"type":"transactions","finality":"confirmed"') ? 'c' : 'f']);
    });
    socket.on('close', () => closed++);
    socket.on('error', reject);
  });
}

lines.on('line', async (line) => {
  if (subscriptions === undefined) {
    subscriptions = JSON.parse(line);
    for (let i = 0; i < subscriptions.length; i += 50) sockets.push(...(await Promise.all(subscriptions.slice(i, i + 50).map(open))));
    out({ ready: sockets.length });
    // As real clients do: a ping every 15 s (a socket silent for 30 s is closed as idle).
    setInterval(() => {
      for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.send('{"operation":"ping"}');
    }, 15_000).unref();
  } else if (line === 'report') {
    out({ received, closed });
    received = [];
  } else if (line === 'exit') {
    for (const s of sockets) s.close();
    setTimeout(() => process.exit(0), 200);
  }
});
