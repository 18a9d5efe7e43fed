// The bare Redis round trip beside bench:access's scaled-out latency run: a plain ioredis client in a process of its own
// (placed where tongate runs) sends what tongate sends for the latency client's requests, without tongate around it:
// every 10 ms one EVALSHA of the sliding-log script carrying that tick's rate/100 decisions of one key as one group, as
// latency-at-rate.ts sends rate/100 requests every 10 ms and tongate batches one turn's into one call. Each call is
// timed from just before it is handed to ioredis to its reply (hrtime). On the parent's {seconds, rate} it answers
// {p50, p99} in ms, the first 10 % dropped as warm-up (as latency-at-rate.ts does). Argument: the Redis URL. Prints one
// JSON line when connected. BENCH_DIST names another build, as in built-tongate.mjs.
import { pathToFileURL } from 'node:url';

const dist = process.env.BENCH_DIST ? pathToFileURL(`${process.env.BENCH_DIST}/`) : new URL('../../dist/', import.meta.url);
const { SLIDING_LOG_SCRIPT } = await import(new URL('access/limiter/redis-sliding-log.js', dist).href);
const { Redis } = await import('ioredis');

const redis = new Redis(process.argv[2]);
redis.defineCommand('slidingLog', { lua: SLIDING_LOG_SCRIPT, numberOfKeys: 1 });
const key = `tg_bench_rtt:rl:{${process.pid}}`;
// keys, then ARGV: window (µs), and one group: limit (far above the load), '' (Redis's TIME), count.
const call = (count) => redis.slidingLog(key, 1_000_000, 1_000_000, '', count);
await call(1);

process.on('message', (m) => {
  const { seconds, rate } = m;
  void (async () => {
    const perTick = Math.max(1, Math.round((rate * 10) / 1000));
    const samples = [];
    const calls = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const t0 = process.hrtime.bigint();
      calls.push(call(perTick).then(() => samples.push(Number(process.hrtime.bigint() - t0) / 1e6)));
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all(calls);
    const sorted = Float64Array.from(samples.slice(Math.floor(samples.length / 10))).sort();
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    process.send({ p50: at(0.5), p99: at(0.99) });
  })();
});
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
process.once('SIGTERM', () => {
  redis.disconnect();
  process.exit(0);
});
