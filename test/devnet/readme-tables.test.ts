/**
 * docs/local-chains.md's table of devnet controls read against the routes the code registers: every control served is in
 * the table, every control in the table is served, and every answer field the table names is in that control's
 * result schema (the same schema the OpenAPI document shows).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { registerDevnetRoutes } from '../../src/devnet/routes.js';
import { devnetOpenApi } from '../../src/devnet/openapi.js';
import { registerDocs } from '../../src/http/docs.js';

const readme = readFileSync(new URL('../../docs/local-chains.md', import.meta.url), 'utf8');

/** The rows of the table whose header starts with `| control |`: [controls, body, answer] cells. */
function controlRows(): string[][] {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| control | body | answer'));
  assert.ok(start >= 0, 'docs/local-chains.md has the table of controls');
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

async function servedDocument(): Promise<{ paths: Record<string, Record<string, any>> }> {
  const app = Fastify();
  // As the gateway serves it (src/gateway/gateway.ts): the document of the operations the routes registered.
  const operations = registerDevnetRoutes(app, {});
  registerDocs(app, { prefix: '/devnet', title: 'devnet', document: () => devnetOpenApi(operations, 'test') });
  const answer = await app.inject({ method: 'GET', url: '/devnet/openapi.json' });
  await app.close();
  return answer.json();
}

test('the docs table of /devnet controls lists exactly the controls served, with the answer fields they have', async () => {
  const document = await servedDocument();
  const served = new Set(
    Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`)),
  );
  const documented = new Map<string, string>();
  for (const [controls, , answer] of controlRows()) {
    const named = [...controls.matchAll(/`(GET|POST|DELETE) (\/devnet\/[^`]*)`/g)];
    // A row of several controls answers for each in turn when its cell has as many parts, else for all alike.
    const parts = answer.split('; ');
    named.forEach(([, method, path], i) => documented.set(`${method} ${path}`, parts.length === named.length ? parts[i] : answer));
  }
  assert.deepEqual(
    [...documented.keys()].filter((c) => !served.has(c)),
    [],
    'in the docs, not served',
  );
  assert.deepEqual(
    [...served].filter((c) => !documented.has(c)),
    [],
    'served, not in the docs',
  );

  for (const [control, answer] of documented) {
    const [method, path] = control.split(' ');
    const result = document.paths[path][method.toLowerCase()].responses['200'].content?.['application/json']?.schema.properties.result;
    if (!result?.properties) continue;
    // The fields named in the answer cell, outside nested objects written as `"name": {...}`.
    const named = [...answer.replace(/"\w+": \{[^}]*\}/g, (m) => m.slice(0, m.indexOf(':'))).matchAll(/"([a-z_]+)"/g)].map((m) => m[1]);
    for (const field of named)
      assert.ok(
        field in result.properties,
        `${control}: the docs name "${field}", its result has ${Object.keys(result.properties).join(', ')}`,
      );
  }
});
