/**
 * `npm run bench:console`: what the browser console costs.
 *
 *   bundle      the files `npm run build` writes into dist/console-app (the script builds first), raw and gzipped
 *   page load   Chromium headless (Debian's, as the tests use) opening `/console/` with a session key: navigation to
 *               DOMContentLoaded, and to the first block listed (the app loaded, its v3 reads answered, the feed
 *               connected); --loads N times (default 5), each in a fresh browser context (nothing cached)
 *   CPU         tongate's CPU (this process: tongate runs here, as `tongate start` wires it, one local network in
 *               auto mining at its default 1 block/s, keys on) over --seconds S (default 30) with no console open
 *               (the baseline), then with 10 consoles open on the explorer (each its own key, as each session makes
 *               one), and the browser's own CPU for those 10 (Chromium's processes, from /proc)
 *
 * Ratios are measured in one run: CPU with consoles / CPU without, in the same process, back to back (idle before
 * the browser starts, and again once the consoles are closed).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_OUT } from '../console/build.mjs';
import { loadConfig } from '../src/config/load.js';
import { startTongate } from '../src/cli/start.js';
import { freePort } from '../test/support/ports.js';
import { numberArg } from './support/args.js';

const loads = numberArg('loads', 5);
const seconds = numberArg('seconds', 30);
const consoles = numberArg('consoles', 10);
const CHROMIUM = process.env.TONGATE_CHROMIUM ?? '/usr/bin/chromium';
const ADMIN = 'bench-console-admin';
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// Bundle.
let raw = 0;
let gzipped = 0;
for (const name of readdirSync(DEFAULT_OUT)) {
  const body = readFileSync(join(DEFAULT_OUT, name));
  raw += body.length;
  gzipped += gzipSync(body, { level: 9 }).length;
  console.log(`  ${name}: ${(body.length / 1024).toFixed(1)} KiB, gzip ${(gzipSync(body, { level: 9 }).length / 1024).toFixed(1)} KiB`);
}
console.log(`bundle: ${(raw / 1024).toFixed(1)} KiB, gzip ${(gzipped / 1024).toFixed(1)} KiB (every file a first visit loads)`);

const port = await freePort();
const config = loadConfig({
  flags: { ephemeral: true, logLevel: 'silent', access: 'on', adminToken: ADMIN, network: [`mainnet=http://127.0.0.1:${port}`] },
  env: {},
});
const running = await startTongate(config, { logger: pino({ level: 'silent' }) });
const base = `http://127.0.0.1:${port}`;

async function newKey(): Promise<string> {
  const response = await fetch(`${base}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ network: 'mainnet', label: 'bench console', rps: 100 }),
  });
  return ((await response.json()) as { result: { key: string } }).result.key;
}

async function openConsole(browser: Browser, key: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(
    ([admin, apiKey]) => {
      sessionStorage.setItem('tongate.console.admin-token', admin);
      sessionStorage.setItem('tongate.console.api-key', apiKey);
    },
    [ADMIN, key],
  );
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(`${base}/console/`, { waitUntil: 'domcontentloaded' });
  const domContentLoaded = performance.now() - started;
  await page.locator('[data-testid=blocks] li').first().waitFor({ timeout: 60_000 });
  await page.locator('.live.on').waitFor({ timeout: 60_000 });
  return { context, domContentLoaded, firstBlock: performance.now() - started };
}

/** utime + stime (ms) of this process's descendants (the browser Chromium runs as this process's children), from /proc. */
function childrenCpuMs(): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  const tick = 1000 / 100; // USER_HZ
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const ppid = Number(fields[1]);
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * tick);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      /* gone */
    }
  }
  let total = 0;
  const stack = [...(children.get(process.pid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// CPU: tongate idle (1 block/s, no client), before the browser starts.
await pause(5000);
let before = cpuMs();
await pause(seconds * 1000);
const idle = cpuMs() - before;

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
try {
  // Page loads, each in a fresh context (no cache).
  const samples: { domContentLoaded: number; firstBlock: number }[] = [];
  const key = await newKey();
  for (let i = 0; i < loads; i++) {
    const opened = await openConsole(browser, key);
    samples.push(opened);
    await opened.context.close();
  }
  const p50 = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `page load (${loads} loads, load average ${load()}): DOMContentLoaded p50 ${p50(samples.map((s) => s.domContentLoaded)).toFixed(0)} ms, ` +
      `first block listed p50 ${p50(samples.map((s) => s.firstBlock)).toFixed(0)} ms (max ${Math.max(...samples.map((s) => s.firstBlock)).toFixed(0)} ms)`,
  );

  // CPU with the consoles open (the idle baseline was taken before any page).
  const keys = await Promise.all(Array.from({ length: consoles }, () => newKey()));
  const opened = [];
  for (const k of keys) opened.push(await openConsole(browser, k));
  await pause(2000);
  before = cpuMs();
  const browserBefore = childrenCpuMs();
  await pause(seconds * 1000);
  const withConsoles = cpuMs() - before;
  const browserCpu = childrenCpuMs() - browserBefore;
  const pct = (ms: number): string => `${((ms / (seconds * 1000)) * 100).toFixed(1)} % of a core`;
  console.log(
    `CPU over ${seconds} s (load average ${load()}): tongate idle ${pct(idle)}, with ${consoles} consoles ${pct(withConsoles)} ` +
      `(ratio ${(withConsoles / idle).toFixed(2)}); the browser for the ${consoles} consoles ${pct(browserCpu)}`,
  );
  for (const o of opened) await o.context.close();
  // Idle again, consoles closed: the first idle window follows tongate's start and may hold its tail.
  await pause(2000);
  before = cpuMs();
  await pause(seconds * 1000);
  const idleAfter = cpuMs() - before;
  console.log(
    `CPU idle again, consoles closed (load average ${load()}): tongate ${pct(idleAfter)}; with consoles / this idle: ${(withConsoles / idleAfter).toFixed(2)}`,
  );
} finally {
  await browser.close();
  await running.stop();
}
