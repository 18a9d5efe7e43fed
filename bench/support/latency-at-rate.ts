/**
 * Latency at a fixed, unsaturated rate, each request timed with hrtime (autocannon's histogram has 1 ms
 * resolution, too coarse for the figures asked): `rate` requests/s on keep-alive sockets for `seconds`, the first
 * 10 % dropped as warm-up. Shared by bench:access and bench:hot.
 */
import http from 'node:http';

export interface TimedRequest {
  port: number;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LatencyFigures {
  p50: number;
  p99: number;
  non2xx: number;
}

export async function latencyAtRate(target: TimedRequest, seconds: number, rate: number): Promise<LatencyFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const samples: number[] = [];
  let non2xx = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.request(
        { host: '127.0.0.1', port: target.port, path: target.path, method: target.method ?? 'GET', headers: target.headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
            if (res.statusCode !== 200) non2xx++;
            resolve();
          });
        },
      );
      req.on('error', () => resolve());
      req.end(target.body);
    });
  const inFlight: Promise<void>[] = [];
  const tickMs = 10;
  const perTick = Math.max(1, Math.round((rate * tickMs) / 1000));
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    for (let i = 0; i < perTick; i++) inFlight.push(one());
    await new Promise((r) => setTimeout(r, tickMs));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const sorted = Float64Array.from(samples.slice(Math.floor(samples.length / 10))).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), non2xx };
}
