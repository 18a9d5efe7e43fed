/**
 * `npm run bench:render [-- --before REF --wallets W --per-wallet P --runs R --reps N --capture FILE]`: the CPU the
 * pending layer's render thread spends per followed transaction, this checkout against the build at git REF
 * (default `HEAD`: the working tree's changes against the last commit), as ratios.
 *
 * The transactions are real: W wallets v4 x P transfers each run through a local chain, taken from its open block
 * as the pending layer takes them (support/render-capture.ts; each wallet's first transfer deploys it, so P = 8
 * deploys one in eight as bench:stream does), both transactions of each transfer (the wallet's and its
 * destination's). `--capture FILE` keeps them in FILE (read from it when it exists). Each build runs in a process
 * of its own (support/render-loop.ts: the build's render thread's work, in a loop), warmed up, then the two are
 * alternated R times (A B A B ...), N passes over every transaction a run; a run's figure is its CPU time per
 * transaction. Before timing, every text of both builds is compared: they must be byte for byte the same. Both
 * builds get the same requests, with what this checkout's chain side hands over (a build that takes less ignores
 * the rest), and this checkout's packages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberArg, stringArg } from './support/args.js';
import { spawnBenchChild, type BenchChild } from './support/bench-child.js';
import { captureTransfers, type CapturedTransaction } from './support/render-capture.js';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const BEFORE = stringArg('before') ?? 'HEAD';
const WALLETS = numberArg('wallets', 100);
const PER_WALLET = numberArg('per-wallet', 8);
const RUNS = numberArg('runs', 5);
const REPS = numberArg('reps', 10);
const CAPTURE = stringArg('capture') ?? '';
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function transactions(): Promise<string> {
  if (CAPTURE && existsSync(CAPTURE)) return CAPTURE;
  const captured: CapturedTransaction[] = await captureTransfers(WALLETS, PER_WALLET);
  const path = CAPTURE || join(mkdtempSync(join(tmpdir(), 'tongate-render-')), 'capture.json');
  writeFileSync(path, JSON.stringify(captured));
  return path;
}

/** The build at `ref`, its sources exported into a directory of its own, this checkout's packages beside them. */
function checkout(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-render-before-'));
  const tar = execFileSync('git', ['-C', here, 'archive', ref, 'src'], { maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(here, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const capture = await transactions();
  const captured = JSON.parse(readFileSync(capture, 'utf8')) as CapturedTransaction[];
  const roots = captured.filter((c) => c.external !== undefined).length;
  const before = checkout(BEFORE);
  const loop = join(here, 'bench/support/render-loop.ts');
  const builds: { name: string; child: BenchChild<unknown> }[] = [];
  try {
    builds.push({ name: 'ours', child: await spawnBenchChild(loop, [here, capture]) });
    builds.push({ name: `before (${BEFORE})`, child: await spawnBenchChild(loop, [before, capture]) });
    console.log(
      `bench:render  ${captured.length} transactions (${roots} transfers, 1 in ${PER_WALLET} deploying its wallet), ${RUNS} runs x ${REPS} passes, node ${process.version}`,
    );

    const [ours, old] = await Promise.all(builds.map((b) => b.child.ask<{ texts: string[] }>({ texts: true })));
    const differ = ours.texts.findIndex((text, i) => text !== old.texts[i]);
    if (differ >= 0) throw new Error(`the texts differ at transaction ${differ}:\n${ours.texts[differ]}\n${old.texts[differ]}`);
    console.log(`texts: all ${ours.texts.length} byte for byte the same in both builds`);

    for (const b of builds) await b.child.ask({ reps: REPS });
    console.log(`load at start: ${load()}`);
    const perTx: number[][] = builds.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      for (let b = 0; b < builds.length; b++) {
        const index = run % 2 === 0 ? b : builds.length - 1 - b;
        const r = await builds[index].child.ask<{ cpuUs: number; renders: number }>({ reps: REPS });
        perTx[index].push(r.cpuUs / r.renders);
      }
    }
    console.log(`load at end: ${load()}`);
    for (let b = 0; b < builds.length; b++)
      console.log(
        `${builds[b].name.padEnd(20)} µs/transaction: ${perTx[b].map((x) => x.toFixed(1)).join(', ')} (median ${median(perTx[b]).toFixed(1)})`,
      );
    const ratios = perTx[0].map((x, i) => x / perTx[1][i]);
    console.log(
      `ours/before per run: ${ratios.map((r) => r.toFixed(3)).join(', ')} (median ${median(ratios).toFixed(3)}, ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})`,
    );
  } finally {
    for (const b of builds) await b.child.stop();
    rmSync(before, { recursive: true, force: true });
  }
}

await main();
