/**
 * No spelling of a request target reaches a method around the access layer. Against a real tongate (real
 * sockets, the real router), every limited route (every v2 method and alias, JSON-RPC, every v3 endpoint) is
 * asked for in every spelling a client or attacker can send: absolute-form, `//`, `/./`, `..`, %-escapes, case,
 * trailing slash, `;` parameters, fragments, and keys in header and query together or twice. Each answer must be
 * the access layer's refusal (401 / 403 / 429) or a 404 that served nothing. Positive controls show that the
 * spellings the router does serve reach the method once the key is good. Time is a ManualClock: no waiting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { V2_METHODS } from '../../src/api/v2/methods/index.js';
import { V3_ENDPOINTS, V3_POST_ENDPOINTS } from '../../src/api/v3/endpoints/index.js';
import { ManualClock } from '../../src/util/clock.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';
import { startTestTongate } from '../support/tongate.js';
import { startTongateUnderTest } from '../support/through-upstream.js';

const ADMIN = 'bypass-admin-token';

const LIMITED_ROUTES: string[] = [
  ...V2_METHODS.flatMap((m) => [m.name, ...(m.aliases ?? [])]).map((name) => `/api/v2/${name}`),
  '/api/v2/jsonRPC',
  ...V3_ENDPOINTS.flatMap((e) => [e.path, ...(e.aliases ?? [])]).map((path) => `/api/v3${path}`),
  ...V3_POST_ENDPOINTS.map((e) => `/api/v3${e.path}`),
];

/** `%XX` of one character, upper or lower case hex. */
const escape = (c: string, lower = false) => {
  const hex = c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  return `%${lower ? hex.toLowerCase() : hex}`;
};

/** Every way to write `path` (`/api/vN/name`) as a request target. */
function spellings(path: string, port: number): Array<[label: string, target: string]> {
  const [, api, version, name] = path.split('/');
  const head = `/${api}/${version}`;
  return [
    ['plain', path],
    ['absolute-form', `http://127.0.0.1:${port}${path}`],
    ['absolute-form, another host', `http://elsewhere.example${path}`],
    ['absolute-form, upper-case scheme', `HTTP://127.0.0.1:${port}${path}`],
    ['absolute-form, https', `https://127.0.0.1${path}`],
    ['leading //', `/${path}`],
    ['// inside', `/${api}//${version}/${name}`],
    ['// before the name', `${head}//${name}`],
    ['/./', `${head}/./${name}`],
    ['/./ before version', `/${api}/./${version}/${name}`],
    ['..', `${head}/../${version}/${name}`],
    ['%-escaped first letter', `${head}/${escape(name[0])}${name.slice(1)}`],
    ['%-escaped first letter, lower-case hex', `${head}/${escape(name[0], true)}${name.slice(1)}`],
    ['%-escaped version', `/${api}/${escape('v')}${escape(version[1])}/${name}`],
    ['%-escaped api', `/${escape('a')}pi/${version}/${name}`],
    ['%-escaped slash', `${head}%2F${name}`],
    ['every character %-escaped', `${head}/${[...name].map((c) => escape(c)).join('')}`],
    ['upper case', path.toUpperCase()],
    ['capitalized name', `${head}/${name[0].toUpperCase()}${name.slice(1)}`],
    ['trailing slash', `${path}/`],
    ['; parameter', `${path};x=1`],
    ['fragment', `${path}#top`],
    ['empty query', `${path}?`],
    ['query ;', `${path}?;`],
  ];
}

interface Scenario {
  label: string;
  /** Headers and query that carry (or do not carry) a key. */
  headers: Record<string, string>;
  query: string;
  /** The only refusal this scenario may get. */
  refusal: 401 | 403 | 429;
}

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

test('every spelling of every limited route meets 401 / 403 / 429, or a 404 that serves nothing', async (t) => {
  const clock = new ManualClock(Date.now());
  // With TONGATE_TEST_THROUGH_UPSTREAM=1 (test/upstream/access-bypass-through-upstream.test.ts), a tongate in upstream mode.
  const tongate = await startTongateUnderTest({ access: 'on', adminToken: ADMIN }, { clock });
  t.after(() => tongate.stop());
  const port = Number(new URL(tongate.url('mainnet')).port);
  const host = `127.0.0.1:${port}`;
  const testnetPort = Number(new URL(tongate.url('testnet')).port);

  const createKey = async (network: string, onPort: number): Promise<string> => {
    const res = await rawRequest({
      port: onPort,
      target: '/admin/keys',
      method: 'POST',
      headers: { host: `127.0.0.1:${onPort}`, authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ network, rps: 1 }),
    });
    assert.equal(res.status, 201, res.text);
    return res.json.result.key as string;
  };
  const mainnetKey = await createKey('mainnet', port);
  const testnetKey = await createKey('testnet', testnetPort);
  const unknownKey = 'tg_no_such_key_0123456789';

  const send = (target: string, scenario: Pick<Scenario, 'headers' | 'query'>, method = 'GET'): Promise<RawResponse> => {
    const joined = scenario.query === '' ? target : `${target}${target.includes('?') ? '&' : '?'}${scenario.query}`;
    // A fragment must stay last: put the query before it.
    const hash = target.indexOf('#');
    const final = hash === -1 || scenario.query === '' ? joined : `${target.slice(0, hash)}?${scenario.query}${target.slice(hash)}`;
    return rawRequest({ port, target: final, method, headers: { host, ...scenario.headers } });
  };

  const failures: string[] = [];
  let served404 = 0;
  let refused = 0;
  const REFUSALS: Record<number, string> = { 401: 'API key does not exist', 403: 'Network not allowed', 429: 'Ratelimit exceeded' };
  /**
   * Not a bypass: the scenario's refusal, or another refusal of the access layer (`/x#top?api_key=K` carries the
   * key `K#top`, which does not exist), or a 404 in the error shape. Anything else reached a method.
   */
  const judge = (res: RawResponse, scenario: Scenario, what: string, bodyless = false) => {
    if (res.status in REFUSALS) {
      refused++;
      if (bodyless) return;
      if (res.json?.error !== REFUSALS[res.status] || res.json?.ok !== false) failures.push(`${what}: refusal body ${res.text}`);
      if (res.status !== scenario.refusal && !what.includes('fragment'))
        failures.push(`${what}: ${res.status} where ${scenario.refusal} was due`);
      return;
    }
    if (res.status === 404) {
      served404++;
      if (bodyless) return;
      const shape =
        res.json && typeof res.json.error === 'string' && Object.keys(res.json).every((k) => ['ok', 'error', 'code'].includes(k));
      if (!shape) failures.push(`${what}: 404 body ${res.text.slice(0, 200)}`);
      return;
    }
    failures.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
  };

  const cases = LIMITED_ROUTES.flatMap((route) => spellings(route, port).map(([label, target]) => ({ route, label, target })));

  // Keys that must be refused whatever the clock says.
  const timeless: Scenario[] = [
    { label: 'unknown key in X-API-Key', headers: { 'x-api-key': unknownKey }, query: '', refusal: 401 },
    { label: 'unknown key in api_key', headers: {}, query: `api_key=${unknownKey}`, refusal: 401 },
    { label: 'unknown key in api%5Fkey', headers: {}, query: `api%5Fkey=${unknownKey}`, refusal: 401 },
    { label: 'unknown key first of two api_key', headers: {}, query: `api_key=${unknownKey}&api_key=${mainnetKey}`, refusal: 401 },
    {
      label: 'unknown key in the header, good key in the query',
      headers: { 'x-api-key': unknownKey },
      query: `api_key=${mainnetKey}`,
      refusal: 401,
    },
    { label: 'testnet key on mainnet', headers: { 'x-api-key': testnetKey }, query: '', refusal: 403 },
    { label: 'testnet key in the query on mainnet', headers: {}, query: `api_key=${testnetKey}`, refusal: 403 },
  ];
  for (const scenario of timeless) {
    await pool(cases, 16, async ({ label, target }) =>
      judge(await send(target, scenario), scenario, `${scenario.label} | ${label} | ${target}`),
    );
  }
  // POST and JSON-RPC take the same decision.
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getMasterchainInfo', params: {} });
  for (const [label, target] of spellings('/api/v2/jsonRPC', port)) {
    const scenario = timeless[0];
    const res = await rawRequest({
      port,
      target,
      method: 'POST',
      headers: { host, 'content-type': 'application/json', ...scenario.headers },
      body: rpc,
    });
    judge(res, scenario, `POST ${label} | ${target}`);
  }
  for (const [label, target] of spellings('/api/v2/getMasterchainInfo', port)) {
    judge(await send(target, timeless[0], 'HEAD'), timeless[0], `HEAD ${label}`, true);
  }

  // The clock stands still: after one admitted request, the keyless client and the key (1 request/s) are over.
  const keyless: Scenario = { label: 'no key, quota used', headers: {}, query: '', refusal: 429 };
  const keyed: Scenario = { label: 'good key, quota used', headers: { 'x-api-key': mainnetKey }, query: '', refusal: 429 };
  const keyedInQuery: Scenario = { label: 'good key in the query, quota used', headers: {}, query: `api_key=${mainnetKey}`, refusal: 429 };
  const twoKeys: Scenario = {
    label: 'good key first of two api_key, quota used',
    headers: {},
    query: `api_key=${mainnetKey}&api_key=${unknownKey}`,
    refusal: 429,
  };
  clock.advance(5_000);
  assert.equal((await send('/api/v2/getMasterchainInfo', keyless)).status, 200, 'the keyless client’s one request a second');
  assert.equal((await send('/api/v2/getMasterchainInfo', keyed)).status, 200, 'the key’s one request a second');
  for (const scenario of [keyless, keyed, keyedInQuery, twoKeys]) {
    await pool(cases, 16, async ({ label, target }) =>
      judge(await send(target, scenario), scenario, `${scenario.label} | ${label} | ${target}`),
    );
  }

  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} answers escaped the access layer`);
  assert.ok(refused > served404, `most spellings reach a route and are refused (${refused} refused, ${served404} not found)`);

  // Positive control: the spellings the router serves do reach the method once the key is good and has quota.
  const servedSpellings = new Set<string>();
  for (const [label, target] of spellings('/api/v2/getMasterchainInfo', port)) {
    clock.advance(1_001);
    const res = await send(target, keyed);
    if (res.status === 200) {
      assert.equal(res.json.ok, true, `${label}: ${res.text.slice(0, 200)}`);
      servedSpellings.add(label);
    } else {
      assert.equal(res.status, 404, `${label}: ${res.status} ${res.text.slice(0, 200)}`);
    }
  }
  for (const label of ['plain', 'absolute-form', 'absolute-form, another host', '%-escaped first letter']) {
    assert.ok(servedSpellings.has(label), `${label} is served (so the refusals above were the access layer's)`);
  }
});

test('an absolute-form target is answered in the shape of the version its path names', async (t) => {
  const tongate = await startTestTongate();
  t.after(() => tongate.stop());
  const port = Number(new URL(tongate.url('mainnet')).port);
  const headers = { host: `127.0.0.1:${port}` };
  const v3 = await rawRequest({ port, target: `http://127.0.0.1:${port}/api/v3/nothingHere`, headers });
  assert.equal(v3.status, 404);
  assert.deepEqual(v3.json, { error: 'not found' }, 'an absolute-form v3 target gets the v3 shape');
  const v2 = await rawRequest({ port, target: `http://127.0.0.1:${port}/api/v2/nothingHere`, headers });
  assert.deepEqual(v2.json, { ok: false, error: 'Not Found', code: 404 });
});
