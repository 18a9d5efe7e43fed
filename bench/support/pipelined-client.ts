/**
 * A client that costs next to nothing, for benches that measure what a server spends per request in its own
 * process: 4 connections, each writing 16 prebuilt GET requests at a time and counting the answers' status lines
 * (every answer must be a 200), until `n` were answered.
 */
import { connect, type Socket } from 'node:net';

export function pipelined(port: number, path: string, key: string): (n: number) => Promise<void> {
  const one = `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${key ? `x-api-key: ${key}\r\n` : ''}\r\n`;
  const depth = 16;
  const batch = Buffer.from(one.repeat(depth));
  const sockets = Array.from(
    { length: 4 },
    () =>
      new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket));
        socket.setNoDelay(true);
      }),
  );
  return async (n) => {
    let left = n;
    await Promise.all(
      sockets.map(async (connecting) => {
        const socket = await connecting;
        await new Promise<void>((resolve, reject) => {
          let pending = 0;
          let carry = '';
          const send = () => {
            if (left <= 0) {
              socket.off('data', onData);
              resolve();
              return;
            }
            left -= depth;
            pending = depth;
            socket.write(batch);
          };
          const onData = (chunk: Buffer) => {
            const text = carry + chunk.toString('latin1');
            let at = 0;
            let end = 0;
            while ((at = text.indexOf('HTTP/1.1 ', at)) !== -1) {
              if (!text.startsWith('200', at + 9)) {
                socket.off('data', onData);
                reject(new Error(`answered ${text.slice(at, at + 200)}`));
                return;
              }
              pending--;
              at += 9;
              end = at;
            }
            carry = text.slice(Math.max(end, text.length - 12));
            if (pending === 0) send();
          };
          socket.on('data', onData);
          send();
        });
      }),
    );
  };
}
