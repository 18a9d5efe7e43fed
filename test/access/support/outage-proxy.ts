/**
 * A TCP proxy in front of a real service (PostgreSQL here) that a test can break: refuse new
 * connections and cut open ones ("down"), swallow traffic without answering ("hang"), or add
 * latency. Used to make the real key store unreachable without touching the shared server.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyMode = 'up' | 'down' | 'hang';

export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  mode: ProxyMode = 'up';
  /** Added to every chunk forwarded upstream while up, in ms. */
  delayMs = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    public port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, 0);
    await proxy.listen();
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async setMode(mode: ProxyMode): Promise<void> {
    const previous = this.mode;
    this.mode = mode;
    if (mode === 'up') {
      // Connections swallowed while hanging are dead (as after a server restart): cut them.
      if (previous === 'hang') this.destroyAll();
      if (!this.server) await this.listen();
      return;
    }
    this.destroyAll();
    if (mode === 'down' && this.server) {
      const server = this.server;
      this.server = undefined;
      await new Promise((resolve) => server.close(resolve));
    } else if (mode === 'hang' && !this.server) {
      await this.listen();
    }
  }

  private destroyAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    await this.setMode('down');
  }

  private listen(): Promise<void> {
    const server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.mode === 'hang') {
        client.resume(); // read and drop: the peer waits forever
        return;
      }
      const upstream = connect(this.target);
      this.sockets.add(upstream);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.on('data', (chunk) => {
        if (this.mode === 'hang') return;
        if (this.delayMs > 0) setTimeout(() => upstream.write(chunk), this.delayMs);
        else upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (this.mode !== 'hang') client.write(chunk);
      });
    });
    this.server = server;
    return new Promise((resolve) =>
      server.listen(this.port, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address === 'object' && address) this.port = address.port;
        resolve();
      }),
    );
  }
}
