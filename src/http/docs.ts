/**
 * API docs of one version: `<prefix>/openapi.json` and a Swagger UI page at `<prefix>/`, its assets served from
 * the swagger-ui-dist package under `<prefix>/docs/` (no CDN: works offline). Never rate limited. The same
 * document and page are also at the paths toncenter's servers give them (TONCENTER_DOCS), so a link or a tool
 * made for toncenter finds them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const assetsDir = dirname(require.resolve('swagger-ui-dist/package.json'));
// A Map, not an object literal: asset names come from the URL, and `constructor` or `__proto__` must be unknown.
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'application/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);
const assetCache = new Map<string, Buffer>();

/**
 * Where toncenter's servers put their docs, under a version's prefix: ton-index-go serves gofiber/swagger under
 * `/api/v3/*` (the page at `index.html`, the document at `doc.json`); ton-http-api-cpp serves `/api/v2/*` from its
 * static folder (`index.html`, `openapi.json`), as the older tonlib server's FastAPI did (`/api/v2/`, `openapi.json`).
 */
const TONCENTER_DOCS: Record<string, { document: string[]; page: string[] }> = {
  '/api/v2': { document: [], page: ['/index.html'] },
  '/api/v3': { document: ['/doc.json'], page: ['/index.html'] },
};

/** The document's and the page's paths of a prefix, toncenter's included (not the assets under `<prefix>/docs/`). */
export function docsPaths(prefix: string): { document: string[]; page: string[] } {
  const toncenter = TONCENTER_DOCS[prefix] ?? { document: [], page: [] };
  return {
    document: [`${prefix}/openapi.json`, ...toncenter.document.map((path) => prefix + path)],
    page: [`${prefix}/`, ...toncenter.page.map((path) => prefix + path)],
  };
}

function page(prefix: string, title: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="${prefix}/docs/swagger-ui.css"><link rel="icon" href="${prefix}/docs/favicon-32x32.png"></head>
<body><div id="ui"></div>
<script src="${prefix}/docs/swagger-ui-bundle.js"></script>
<script src="${prefix}/docs/swagger-ui-standalone-preset.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '${prefix}/openapi.json', dom_id: '#ui', presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });</script>
</body></html>`;
}

export function registerDocs(
  app: FastifyInstance,
  { prefix, title, document }: { prefix: string; title: string; document: () => object },
): void {
  let cached: string | undefined;
  const paths = docsPaths(prefix);
  for (const path of paths.document) {
    app.get(path, async (_request, reply) => {
      cached ??= JSON.stringify(document());
      return reply.type('application/json; charset=utf-8').send(cached);
    });
  }
  const html = page(prefix, title);
  for (const path of paths.page) app.get(path, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  app.get(`${prefix}/docs/:asset`, async (request, reply) => {
    const { asset } = request.params as { asset: string };
    const type = ASSETS.get(asset);
    if (!type) return reply.callNotFound();
    let body = assetCache.get(asset);
    if (!body) {
      body = readFileSync(join(assetsDir, asset));
      assetCache.set(asset, body);
    }
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}
