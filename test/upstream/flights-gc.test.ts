/**
 * Single flight keeps a request only while it is in flight, for the garbage collector too: the reads of a forwarder,
 * each waited for by an object holding ~16 kB of the heap, leave next to nothing in the old generation once answered.
 * Measured as V8 counts it (node:v8's GCProfiler: the old space's growth across each scavenge, the bytes it promoted),
 * so a mark-compact during the run does not hide what was promoted. With the flights in a Map (until the seventh stage),
 * ~8 kB per read here, half of what each waiter held: the Map's table, once in the old generation, built its next
 * tables there, and each table left behind kept the flights it had alive through every scavenge until the next
 * mark-compact (src/upstream/README.md, "Seventh stage"); with the table of now, ~0.1-0.2 kB.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Registry } from 'prom-client';
import { systemClock } from '../../src/util/clock.js';
import { UpstreamForwarder, type ForwardRequest, type ForwardWaiter } from '../../src/upstream/forwarder.js';
import { UpstreamMetrics } from '../../src/upstream/metrics.js';
import { v2Policy } from '../../src/upstream/route-policy.js';
import type { UpstreamAnswer } from '../../src/upstream/target.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

const HELD_BYTES = 16 * 1024;

test('answered reads are not promoted: the single-flight table holds a request only while it is in flight', async (t) => {
  const body = Buffer.from('{"ok":true,"result":{"balance":"0","state":"uninitialized"}}');
  const upstream = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.after(() => upstream.close());
  const { port } = upstream.address() as AddressInfo;
  const forwarder = new UpstreamForwarder(
    'mainnet',
    {
      v2: [new URL(`http://127.0.0.1:${port}/api/v2`)],
      v3: [],
      concurrency: 16,
      cacheMs: 0,
      timeoutMs: 10_000,
      maxResponseBytes: 1_048_576,
      healthIntervalMs: 60_000,
      breakerOpenMs: 2000,
    },
    { clock: systemClock, metrics: new UpstreamMetrics(new Registry()) },
  );
  t.after(() => forwarder.close());

  let sent = 0;
  /** One read of a distinct account (no two coalesce), its waiter holding HELD_BYTES of the heap, as a request and its reply do. */
  const read = () =>
    new Promise<void>((resolve, reject) => {
      const address = `0:${(sent++).toString(16).padStart(64, '0')}`;
      const request: ForwardRequest = {
        version: 'v2',
        method: 'GET',
        rest: `/getAddressInformation?address=${address}`,
        acceptEncoding: 'identity',
        policy: v2Policy('getAddressInformation', { address }),
      };
      const held = new Array<number>(HELD_BYTES / 8).fill(0.5);
      const waiter: ForwardWaiter & { held: number[] } = {
        held,
        settle(failure: Error | undefined, answer: UpstreamAnswer | undefined) {
          if (failure !== undefined || answer?.status !== 200) reject(failure ?? new Error(`status ${answer?.status}`));
          else resolve();
        },
      };
      forwarder.forward(request, waiter);
    });
  /** `count` reads, ten at a time. */
  const reads = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (left-- > 0) await read();
      }),
    );
  };

  await reads(200);
  // A long-running process's mark-compacts promote what is live then: the forwarder's own structures among it.
  gc({ type: 'major' });
  const profiler = new GCProfiler();
  profiler.start();
  const count = 2000;
  await reads(count);
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  const { statistics } = profiler.stop();
  const oldSpace = (side: { heapSpaceStatistics: Array<{ spaceName: string; spaceUsedSize: number }> }) =>
    side.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')!.spaceUsedSize;
  const scavenges = statistics.filter((gcRun) => gcRun.gcType === 'Scavenge');
  const promoted = scavenges.reduce((sum, gcRun) => sum + Math.max(0, oldSpace(gcRun.afterGC) - oldSpace(gcRun.beforeGC)), 0);
  assert.ok(scavenges.length >= 2, `scavenges during the reads: ${scavenges.length}`);
  const perRead = promoted / count;
  assert.ok(
    perRead < HELD_BYTES / 8,
    `${Math.round(perRead)} bytes promoted per answered read (each waiter held ${HELD_BYTES}): answered requests outlived their flight`,
  );
});
