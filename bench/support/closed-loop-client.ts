/**
 * A closed-loop load as autocannon sends it (C keep-alive connections, one request in flight on each, the next written
 * when the answer's status line arrives), at a fraction of autocannon's CPU per request: the request is one prebuilt
 * buffer and an answer is found by its status line, nothing parsed. For benches that pin the client to a CPU of its
 * own and need it never to be the bottleneck (bench:access --pinned). Every answer must be a 200.
 */
import { connect, type Socket } from 'node:net';

export interface ClosedLoopRun {
  /** Answers counted within the run's `seconds`. */
  requests: number;
  /** The run's length as measured (hrtime), s. */
  seconds: number;
}

export async function closedLoop(port: number, path: string, key: string, connections: number, seconds: number): Promise<ClosedLoopRun> {
  const request = Buffer.from(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${key ? `x-api-key: ${key}\r\n` : ''}\r\n`);
  const sockets = await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => resolve(socket));
          socket.setNoDelay(true);
          socket.once('error', reject);
        }),
    ),
  );
  let answered = 0;
  let stopping = false;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  const timer = setTimeout(() => {
    stopping = true;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  }, seconds * 1000);
  try {
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve, reject) => {
            let carry = '';
            const onData = (chunk: Buffer) => {
              const text = carry + chunk.toString('latin1');
              let at = 0;
              let end = 0;
              let got = 0;
              while ((at = text.indexOf('HTTP/1.1 ', at)) !== -1) {
                if (!text.startsWith('200', at + 9)) {
                  socket.off('data', onData);
                  reject(new Error(`answered ${text.slice(at, at + 200)}`));
                  return;
                }
                got++;
                at += 9;
                end = at;
              }
              carry = text.slice(Math.max(end, text.length - 12));
              if (got === 0) return;
              if (stopping) {
                // The answer to a request written before the end: not counted, and nothing more is sent.
                socket.off('data', onData);
                resolve();
                return;
              }
              answered += got;
              socket.write(request);
            };
            socket.on('data', onData);
            socket.write(request);
          }),
      ),
    );
  } finally {
    clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  }
  return { requests: answered, seconds: elapsed };
}
