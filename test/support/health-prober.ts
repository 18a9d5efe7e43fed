/**
 * Asks `/healthcheck` every few milliseconds from a thread of its own (so the caller's own work, such as building a
 * megabyte body, cannot delay the measurement) and reports the slowest answer, the p99, every failure (with what a
 * failing answer said), and the longest stretch in which the answers showed no new block. The fuzz suite checks that
 * tongate stays responsive with it; `npm run soak` measures how fast it answers under steady load.
 */
import { Worker } from 'node:worker_threads';

export interface ProbeReport {
  probes: number;
  slowestMs: number;
  p99Ms: number;
  /** Probes that failed or answered other than 200, with what happened. */
  failures: string[];
  /** The longest time between two probes that saw the newest block's seqno move on (0 with fewer than two moves). */
  longestWithoutBlockMs: number;
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
// Measure the server, not the scheduler: this thread runs ahead of the other tests' processes (root only).
try { require('node:os').setPriority(0, -10); } catch {}
const latencies = [];
let stopped = false, probes = 0, slowestMs = 0;
let lastSeqno, lastMoveAt, longestWithoutBlockMs = 0;
const failures = [];
const t0 = performance.now();
function probe() {
  if (stopped) return;
  const started = performance.now();
  const req = http.get({ host: '127.0.0.1', port: workerData.port, path: '/healthcheck', agent, timeout: workerData.timeoutMs }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => (body += chunk));
    res.on('end', () => {
      const ms = performance.now() - started;
      probes++;
      latencies.push(ms);
      if (ms > slowestMs) slowestMs = ms;
      if (res.statusCode !== 200) failures.push('status ' + res.statusCode + ' at ' + Math.round(started - t0) + ' ms: ' + body.slice(0, 200));
      let seqno;
      try { seqno = JSON.parse(body).last_seqno; } catch {}
      if (typeof seqno === 'number' && seqno !== lastSeqno) {
        if (lastSeqno !== undefined) {
          if (lastMoveAt !== undefined) longestWithoutBlockMs = Math.max(longestWithoutBlockMs, started - lastMoveAt);
          lastMoveAt = started;
        }
        lastSeqno = seqno;
      }
      setTimeout(probe, workerData.everyMs);
    });
  });
  req.on('timeout', () => req.destroy(new Error('no answer within ' + workerData.timeoutMs + ' ms')));
  req.on('error', (e) => { failures.push(e.message + ' at ' + Math.round(started - t0) + ' ms'); setTimeout(probe, workerData.everyMs); });
}
parentPort.on('message', () => {
  stopped = true;
  latencies.sort((a, b) => a - b);
  const p99Ms = latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] : 0;
  parentPort.postMessage({ probes, slowestMs, p99Ms, failures, longestWithoutBlockMs });
});
probe();
`;

/** `timeoutMs`: a probe not answered within it is a failure (and ends; the next starts `everyMs` later). */
export function startHealthProber(
  port: number,
  { everyMs = 20, timeoutMs = 5000 }: { everyMs?: number; timeoutMs?: number } = {},
): { stop(): Promise<ProbeReport> } {
  const worker = new Worker(WORKER, { eval: true, workerData: { port, everyMs, timeoutMs } });
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once('message', (report: ProbeReport) => {
          void worker.terminate();
          resolve(report);
        });
        worker.postMessage('stop');
      }),
  };
}
