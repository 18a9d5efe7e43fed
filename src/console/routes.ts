/**
 * `{base}/console/`: the browser console (explorer, devnet controls, keys and limits), a single-page app built from
 * `console/` at `npm run build` into `dist/console-app/` and served here as static files: nothing is fetched from
 * elsewhere at run time. The app talks to the public APIs of the same origin only (v3, the streaming API, the block
 * feed, `/devnet`, `/admin`), so it needs nothing here but its files.
 *
 * Every page carries a strict Content-Security-Policy (scripts and styles from this origin only: no inline script,
 * no eval; requests to this origin only; no framing), `nosniff` and no referrer. Only the files the build wrote are
 * served (listed once at start): a name that is not one of them is 404, so no path reaches outside the folder. Outside
 * /api, so never limited. Without a build (a checkout where `npm run build` has not run) the console answers 404 and
 * says so.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where the build writes the app (two levels up from both src/console and dist/console is the package root). */
export const CONSOLE_APP_DIR = fileURLToPath(new URL('../../dist/console-app/', import.meta.url));

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};

interface ConsoleFile {
  body: Buffer;
  type: string;
}

function readApp(dir: string): Map<string, ConsoleFile> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, ConsoleFile>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(name, { body: readFileSync(join(dir, name)), type });
  }
  return files;
}

function secured(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

export function registerConsole(app: FastifyInstance, { dir = CONSOLE_APP_DIR }: { dir?: string } = {}): void {
  const files = readApp(dir);
  const send = (reply: FastifyReply, name: string) => {
    const file = files?.get(name);
    if (!file) {
      const error = files ? `no such console file: ${name.slice(0, 64)}` : 'the console is not built here: run npm run build';
      return secured(reply).code(404).send({ ok: false, error, code: 404 });
    }
    // index.html names the assets by their content hash: it is read anew, they are kept.
    const cache = name === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable';
    return secured(reply).type(file.type).header('cache-control', cache).send(file.body);
  };
  // The router ignores a trailing slash (as toncenter's v3 does), so one route answers both; the page's assets are
  // named relative to /console/, so /console (or another spelling) is sent there first.
  app.get('/console/', async (request, reply) =>
    request.url.split('?')[0] === '/console/' ? send(reply, 'index.html') : secured(reply).redirect('/console/', 301),
  );
  app.get('/console/:file', async (request, reply) => send(reply, (request.params as { file: string }).file));
}
