/**
 * Our own /api/v2/openapi.json: generated from the method table, so it must list exactly what is served
 * (every method and alias with its verbs and parameters), with unique operation ids, the two API-key
 * schemes, and no value JSON cannot carry. Swagger UI at /api/v2/ loads it from our own assets.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { V2_METHODS } from '../../../src/api/v2/methods/index.js';
import type { ParamSpec } from '../../../src/api/v2/params.js';
import { getJson, startTestTongate, type TestTongate } from '../../support/tongate.js';

let tongate: TestTongate;
let doc: any;
before(async () => {
  tongate = await startTestTongate();
  const response = await getJson(`${tongate.url('mainnet')}/api/v2/openapi.json`);
  assert.equal(response.status, 200);
  doc = response.body;
});
after(() => tongate?.stop());

test('every method and alias is documented with its verbs and parameters; operation ids are unique', () => {
  const ids = new Set<string>();
  for (const method of V2_METHODS) {
    const params = Object.entries(method.params as Record<string, ParamSpec>);
    for (const name of [method.name, ...(method.aliases ?? [])]) {
      const path = doc.paths[`/api/v2/${name}`];
      assert.ok(path, `${name} is documented`);
      assert.deepEqual(Object.keys(path).sort(), method.verbs.map((v) => v.toLowerCase()).sort(), `${name}: verbs`);
      for (const [verb, op] of Object.entries<any>(path)) {
        assert.ok(!ids.has(op.operationId), `${op.operationId} is unique`);
        ids.add(op.operationId);
        assert.equal(typeof op.summary, 'string', `${name} has a summary`);
        if (verb === 'get') {
          assert.deepEqual(
            op.parameters.map((p: any) => p.name),
            params.map(([n]) => n),
          );
          for (const p of op.parameters) assert.equal(p.required, Boolean((method.params as any)[p.name].required));
        } else {
          const schema = op.requestBody.content['application/json'].schema;
          assert.deepEqual(
            Object.keys(schema.properties),
            params.map(([n]) => n),
          );
          assert.deepEqual(
            schema.required,
            params.filter(([, s]) => s.required).map(([n]) => n),
          );
        }
      }
    }
  }
  const rpcMethods = doc.paths['/api/v2/jsonRPC'].post.requestBody.content['application/json'].schema.properties.method.enum;
  assert.deepEqual(new Set(rpcMethods), new Set(V2_METHODS.flatMap((m) => [m.name, ...(m.aliases ?? [])])));
});

test('bounds and defaults reach the document (bigints as JSON numbers); keys by header or query', () => {
  const limit = doc.paths['/api/v2/getTransactions'].get.parameters.find((p: any) => p.name === 'limit');
  assert.deepEqual([limit.schema.minimum, limit.schema.maximum, limit.schema.default], [1, 1000, 10]);
  const toLt = doc.paths['/api/v2/getTransactions'].get.parameters.find((p: any) => p.name === 'to_lt');
  assert.equal(toLt.schema.default, 0);
  assert.equal(doc.paths['/api/v2/estimateFee'].post.requestBody.content['application/json'].schema.properties.ignore_chksig.default, true);
  assert.match(doc.paths['/api/v2/getMasterchainBlockSignatures'].get.summary, /501/);
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['APIKeyHeader', 'APIKeyQuery']);
});

test('Swagger UI at /api/v2/ is served with its assets from the package, no CDN', async () => {
  const base = tongate.url('mainnet');
  const page = await fetch(`${base}/api/v2/`);
  const html = await page.text();
  assert.equal(page.status, 200);
  assert.doesNotMatch(html, /https?:\/\//);
  assert.match(html, /\/api\/v2\/openapi\.json/);
  for (const asset of html.match(/\/api\/v2\/docs\/[\w.-]+/g) ?? []) assert.equal((await fetch(`${base}${asset}`)).status, 200, asset);
});
