/** A TCP proxy of the tests' own, between a client and a server, that can turn the server's bytes into garbage. */
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** While true, every byte from the server reaches the client inverted. */
  corrupt: boolean;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const proxy: TcpProxy = {
    port: 0,
    corrupt: false,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: targetHost, port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (data) => upstream.write(data));
    upstream.on('data', (data) => client.write(proxy.corrupt ? Buffer.from(data.map((b) => b ^ 0xff)) : data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as { port: number }).port;
  return proxy;
}
