/**
 * bench:render's child: one build's render thread work in a loop over captured transactions (render-capture.ts).
 * `node --import tsx render-loop.ts <build root> <capture.json>`; the build's modules are imported from its root,
 * so two builds (two checkouts) run the same loop. It installs what the build's render thread installs
 * (core-speedups, hashCellsOnDemand), prints `{"ready":true}`, then answers each `{reps}` message with the CPU
 * time (µs) of rendering every transaction `reps` times, and `{texts:true}` with every text once. Without a parent
 * process it runs one loop (`<reps>`, a third argument) and prints its CPU time per transaction.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CapturedTransaction } from './render-capture.js';

const [root, capturePath] = process.argv.slice(2);
const from = (path: string) => import(pathToFileURL(join(root, path)).href);

const speedups = await from('src/ton/core-speedups.ts');
speedups.hashCellsOnDemand();
const core = await from('node_modules/@ton/core/dist/index.js');
const render = await from('src/pending/render.ts');

interface Request {
  id: number;
  boc: Uint8Array;
  workchain: number;
  traceId: string;
  hashes: CapturedTransaction['hashes'] & { messageRefs?: Uint8Array };
  external?: Uint8Array;
}

const captured = JSON.parse(readFileSync(capturePath, 'utf8')) as CapturedTransaction[];
const requests: Request[] = captured.map((c, id) => ({
  id,
  boc: Buffer.from(c.boc, 'base64'),
  workchain: c.workchain,
  traceId: c.traceId,
  hashes: { ...c.hashes, ...(c.messageRefs ? { messageRefs: new Uint8Array(Buffer.from(c.messageRefs, 'base64')) } : {}) },
  ...(c.external ? { external: Buffer.from(c.external, 'base64') } : {}),
}));

// What the render thread does with a request (render-thread.ts): the transaction's BoC parsed, then rendered.
const renderOne = (r: Request): string =>
  render.renderPending(
    core.Cell.fromBoc(Buffer.from(r.boc.buffer, r.boc.byteOffset, r.boc.byteLength))[0],
    r.workchain,
    r.traceId,
    r.hashes,
  );

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

// Run alone (`... render-loop.ts <root> <capture> <reps>`, no parent: under --cpu-prof, say): one timed loop, printed.
if (!process.send) {
  const reps = Number(process.argv[4] ?? 20);
  const start = cpu();
  for (let rep = 0; rep < reps; rep++) for (const r of requests) renderOne(r);
  console.log(`${((cpu() - start) / (reps * requests.length)).toFixed(1)} µs a transaction (${reps} x ${requests.length})`);
  process.exit(0);
}

process.on('message', (m: { reps?: number; texts?: boolean; stop?: boolean }) => {
  if (m.texts) {
    process.send!({ texts: requests.map(renderOne) });
    return;
  }
  const reps = m.reps ?? 1;
  let sink = 0;
  const start = cpu();
  for (let rep = 0; rep < reps; rep++) for (const r of requests) sink += renderOne(r).length;
  process.send!({ cpuUs: cpu() - start, renders: reps * requests.length, sink });
});
process.stdout.write('{"ready":true}\n');
