// The streaming bench's clients, in a process of their own: node stream-clients.mjs URL. Commands come as stdin lines:
//   {"open": [[address, ...], ...], "actions": k}       opens one WebSocket per list, subscribes it (transactions,
//                                          min_finality confirmed; the first k sockets `actions` too); prints
//                                          {"ready": n} once all are subscribed
//   {"subscribe": [[address, ...], ...], "actions": k}  replaces each open socket's subscription (toncenter's
//                                          `subscribe` replaces); prints {"subscribed": n} once all have answered
//   report                                 prints {"received": [[seqno, at, "c"|"f"|"ac"|"af"], ...], "closed": n,
//                                          "cpuMs": m} (cpuMs: this process's CPU since the last report; "ac"/"af": an
//                                          `actions` notification, its seqno the first trace_mc_seqno_end) and clears its notes
//   exit                                   closes everything
// For every notification it notes the masterchain seqno of its transactions and when it arrived (performance.timeOrigin
// + now: the same epoch as the server's), without parsing the notification.
import WebSocket from 'ws';
import { createInterface } from 'node:readline';

const [url] = process.argv.slice(2);
const out = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);
const lines = createInterface({ input: process.stdin });
let received = [];
let closed = 0;
const sockets = [];
const waiting = new Map(); // socket -> resolve of its pending subscribe answer
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let cpuAtReport = cpu();

const subscribe = (socket, addresses, actions) =>
  new Promise((resolve, reject) => {
    waiting.set(socket, { resolve, reject });
    const types = actions ? ['transactions', 'actions'] : ['transactions'];
    socket.send(JSON.stringify({ operation: 'subscribe', id: 's', types, addresses, min_finality: 'confirmed' }));
  });

function open(addresses, actions) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('open', () => subscribe(socket, addresses, actions).then(() => resolve(socket), reject));
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === '{"status":"pong"}') return;
      if (text.startsWith('{"id"')) {
        const answer = JSON.parse(text);
        const w = waiting.get(socket);
        waiting.delete(socket);
        if (answer.status === 'subscribed') w?.resolve();
        else w?.reject(new Error(text));
        return;
      }
      const at = performance.timeOrigin + performance.now();
      if (text.startsWith('{"type":"actions"')) {
        const end = /"trace_mc_seqno_end":(\d+)/.exec(text);
        if (end) received.push([Number(end[1]), at, text.startsWith('{"type":"actions","finality":"confirmed"') ? 'ac' : 'af']);
        return;
      }
      // The seqno without parsing the whole notification: the first mc_block_seqno in it.
      const found = /"mc_block_seqno":(\d+)/.exec(text);
      if (found) received.push([Number(found[1]), at, text.startsWith('{"type":"transactions","finality":"confirmed"') ? 'c' : 'f']);
    });
    socket.on('close', () => closed++);
    socket.on('error', reject);
  });
}

lines.on('line', async (line) => {
  if (line === 'report') {
    const now = cpu();
    out({ received, closed, cpuMs: now - cpuAtReport });
    cpuAtReport = now;
    received = [];
  } else if (line === 'exit') {
    for (const s of sockets) s.close();
    setTimeout(() => process.exit(0), 200);
  } else {
    const command = JSON.parse(line);
    if (command.open) {
      const k = command.actions ?? 0;
      for (let i = 0; i < command.open.length; i += 50)
        sockets.push(...(await Promise.all(command.open.slice(i, i + 50).map((addresses, j) => open(addresses, i + j < k)))));
      out({ ready: sockets.length });
      // As real clients do: a ping every 15 s (a socket silent for 30 s is closed as idle).
      setInterval(() => {
        for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.send('{"operation":"ping"}');
      }, 15_000).unref();
    } else if (command.subscribe) {
      await Promise.all(sockets.map((s, i) => subscribe(s, command.subscribe[i], i < (command.actions ?? 0))));
      out({ subscribed: sockets.length });
    }
  }
});
