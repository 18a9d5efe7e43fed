/**
 * Bad input, for every method: a table of malformed values for every parameter of every method (built
 * from the method table itself, so a new method is covered the day it is added), plus the rules that
 * tie parameters together. Each bad call must be a 4xx naming what was wrong, the same over GET, POST and
 * JSON-RPC; no input may give a 5xx or stop the server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell, storeMessage, toNano } from '@ton/core';
import { V2_METHODS } from '../../../src/api/v2/methods/index.js';
import type { ParamSpec, ParamType } from '../../../src/api/v2/params.js';
import { getJson, startTestTongate, type TestTongate } from '../../support/tongate.js';
import { THROUGH_UPSTREAM, frontFor } from '../../support/through-upstream.js';
import { callGet, callPost, callRpc, type Answer } from './support/call.js';
import { fund, seedWallet } from './support/scenario.js';

let tongate: TestTongate;
/** Set when the suite runs through a tongate in upstream mode (test/support/through-upstream.ts). */
let front: TestTongate | undefined;
let base: string;
const wallet = seedWallet(61);

before(async () => {
  tongate = await startTestTongate({ bodyLimit: '65536' });
  base = tongate.url('mainnet');
  if (THROUGH_UPSTREAM) {
    front = await frontFor({ mainnet: tongate.url('mainnet') }, { bodyLimit: '65536' });
    base = front.url('mainnet');
  }
  await fund(tongate.chain('mainnet'), wallet.address, toNano('5'));
});
after(async () => {
  await front?.stop();
  await tongate?.stop();
});

const ADDRESS = wallet.address.toString();
const SHARD = '-9223372036854775808';
const HASH = 'ab'.repeat(32);
const BOC = beginCell().storeUint(1, 8).endCell().toBoc().toString('base64');

/** A valid value of each parameter type, so one bad parameter at a time can be tested. */
const VALID: Record<ParamType, unknown> = {
  int: 1,
  int64: '1',
  string: 'x',
  bool: true,
  json: {},
  'string[]': ['x'],
  address: ADDRESS,
  hash: HASH,
  'hash[]': [HASH],
  boc: BOC,
  shard: SHARD,
  stack: [],
  method: 'seqno',
};

/** Values each type must refuse (strings and JSON values both: GET sends strings, POST and JSON-RPC JSON). */
const BAD: Record<ParamType, unknown[]> = {
  int: ['x', 1.5, '1e3', '99999999999', { n: 1 }, [1, 2]],
  // Signed 64-bit: the stores keep lts as SQLite / PostgreSQL integers (2^63 answered 500 from SQLite).
  int64: [
    'x',
    '1.5',
    '0x10',
    '99999999999999999999999',
    '9223372036854775808',
    '18446744073709551615',
    '-9223372036854775809',
    '9'.repeat(2_000),
    { n: 1 },
  ],
  string: [{ s: 1 }, [1], true],
  bool: ['maybe', '2', 1.5, { b: 1 }],
  json: [],
  'string[]': [[1, 2], { s: 1 }],
  address: [
    'bad',
    '0:zz',
    `0:${'ab'.repeat(31)}`,
    ADDRESS.slice(0, -1) + (ADDRESS.endsWith('A') ? 'B' : 'A'),
    '1000:' + 'ab'.repeat(32),
    42,
    { a: 1 },
  ],
  hash: ['xyz', 'ab'.repeat(31), 'ab'.repeat(33), '!'.repeat(44), 7, { h: 1 }],
  'hash[]': ['xyz', ['ab'.repeat(32), 'nope'], [{ h: 1 }]],
  boc: ['not base64!', 'dGVzdA==', 'te6cckEBAQEAAgAAAE', 5, { b: 1 }],
  shard: ['abc', '1e3', '18446744073709551616', '-9223372036854775809', 1.5, { s: 1 }],
  stack: [
    'not json',
    { a: 1 },
    [['num']],
    [['num', 'zz']],
    [['num', '1'.repeat(100)]],
    [['tvm.Cell', '!!']],
    [['foo', 1]],
    [{}],
    [['tuple', { elements: 'x' }]],
  ],
  method: [{ m: 1 }, 'a b', 'x'.repeat(200), 1.5, 2 ** 40],
};

/** Which bad values a parameter with bounds must also refuse. */
function boundViolations(spec: ParamSpec): unknown[] {
  const out: unknown[] = [];
  if (spec.min !== undefined) out.push(String(BigInt(spec.min) - 1n));
  if (spec.max !== undefined) out.push(String(BigInt(spec.max) + 1n));
  return out;
}

function validParams(params: Record<string, ParamSpec>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([, spec]) => spec.required)
      .map(([name, spec]) => [name, VALID[spec.type]]),
  );
}

function assertBad(label: string, answer: Answer, name: string): void {
  assert.ok(answer.status >= 400 && answer.status < 500, `${label}: expected a 4xx, got ${answer.status} ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.ok, false, label);
  assert.equal(answer.body.code, answer.status, label);
  assert.equal('result' in answer.body, false, label);
  assert.ok(answer.body.error.includes(name), `${label}: the message names ${name}: ${answer.body.error}`);
}

test('every parameter of every method refuses malformed values with a 422 naming it, over GET, POST and JSON-RPC', async () => {
  let checked = 0;
  for (const method of V2_METHODS) {
    const specs = method.params as Record<string, ParamSpec>;
    for (const [name, spec] of Object.entries(specs)) {
      for (const bad of [...BAD[spec.type], ...boundViolations(spec)]) {
        const params = { ...validParams(specs), [name]: bad };
        const label = `${method.name}(${name}=${JSON.stringify(bad)})`;
        const calls: Array<Promise<Answer>> = [callPost(base, method.name, params), callRpc(base, method.name, params)];
        // A query string carries only text: an object sent to a text parameter arrives as its JSON, a valid string.
        if (method.verbs.includes('GET') && spec.type !== 'string') calls.push(callGet(base, method.name, params));
        for (const answer of await Promise.all(calls)) {
          assertBad(label, answer, name);
          assert.equal(answer.status, 422, label);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 250, `${checked} bad values checked`);
});

test('every required parameter, when missing, is named in a 422', async () => {
  for (const method of V2_METHODS) {
    const specs = method.params as Record<string, ParamSpec>;
    for (const [name, spec] of Object.entries(specs)) {
      if (!spec.required) continue;
      const params = validParams(specs);
      delete params[name];
      for (const answer of [await callPost(base, method.name, params), await callRpc(base, method.name, params)]) {
        assertBad(`${method.name} without ${name}`, answer, name);
        assert.match(answer.body.error, /missing required parameter/);
      }
    }
  }
});

test('rules across parameters, and values that parse but cannot be', async () => {
  const internalMessage = beginCell()
    .store(
      storeMessage({
        info: {
          type: 'internal',
          ihrDisabled: true,
          bounce: false,
          bounced: false,
          src: wallet.address,
          dest: wallet.address,
          value: { coins: 1n },
          ihrFee: 0n,
          forwardFee: 0n,
          createdLt: 0n,
          createdAt: 0,
        },
        body: Cell.EMPTY,
      }),
    )
    .endCell()
    .toBoc()
    .toString('base64');
  const cases: Array<[string, Record<string, unknown>, string, RegExp?]> = [
    ['getTransactions', { address: ADDRESS, hash: HASH }, 'hash', /lt and hash should be used together/],
    ['getTransactions', { address: ADDRESS, limit: 0 }, 'limit'],
    ['getTransactions', { address: ADDRESS, limit: 1001 }, 'limit'],
    ['getTransactionsStd', { address: ADDRESS, lt: '-1' }, 'lt'],
    ['lookupBlock', { workchain: -1, shard: SHARD }, 'seqno, lt, unixtime'],
    ['lookupBlock', { workchain: -1, shard: SHARD, seqno: 1, unixtime: 5 }, 'seqno, lt, unixtime'],
    ['getBlockTransactions', { workchain: 0, shard: SHARD, seqno: 1, after_lt: '5', after_hash: 'zz' }, 'after_hash'],
    ['getBlockTransactionsExt', { workchain: 0, shard: SHARD, seqno: 1, count: 10001 }, 'count'],
    ['getBlockHeader', { workchain: 1000, shard: SHARD, seqno: 1 }, 'workchain'],
    ['getConfigParam', {}, 'config_id'],
    ['getConfigParam', { config_id: 1, param: 2 }, 'param'],
    ['getShards', { seqno: -1 }, 'seqno'],
    ['getMasterchainBlockSignatures', { seqno: 'x' }, 'seqno'],
    ['dnsResolve', { address: ADDRESS, name: 'a..ton' }, 'name'],
    ['dnsResolve', { address: ADDRESS, name: 'x'.repeat(130) }, 'name'],
    ['dnsResolve', { address: ADDRESS, category: 'bad category!' }, 'category'],
    ['dnsResolve', { address: ADDRESS, ttl: 65 }, 'ttl'],
    ['sendBoc', { boc: internalMessage }, 'boc', /external-in/],
    ['sendBocReturnHash', { boc: BOC }, 'boc'],
    ['estimateFee', { address: ADDRESS, body: BOC, init_code: BOC }, 'init_code'],
    ['runGetMethod', { address: ADDRESS, method: 'seqno', stack: [['num', `0x${'f'.repeat(65)}`]] }, 'stack[0]'],
    [
      'runGetMethod',
      { address: ADDRESS, method: 'seqno', stack: [['tuple', { elements: [['tuple', { elements: [['num', 'x']] }]] }]] },
      'stack[0].elements[0].elements[0]',
    ],
    [
      'runGetMethodStd',
      { address: ADDRESS, method: 'seqno', stack: [{ '@type': 'tvm.stackEntryNumber', number: { number: 'x' } }] },
      'stack[0]',
    ],
    ['getLibraries', { libraries: [] }, 'libraries'],
  ];
  for (const [method, params, name, message] of cases) {
    for (const answer of [await callPost(base, method, params), await callRpc(base, method, params)]) {
      assertBad(`${method}(${JSON.stringify(params)})`, answer, name);
      assert.equal(answer.status, 422, `${method}: ${answer.body.error}`);
      if (message) assert.match(answer.body.error, message);
    }
  }
});

test("booleans in every form toncenter's servers read: y/yes/t/true/on/1 and n/no/f/false/off/0 in any case, JSON integers", async () => {
  for (const archival of ['yes', 'Y', 'on', 'T', 'TRUE', '1', 'no', 'N', 'off', 'F', 'False', '0', 1, 0, 7, true, false]) {
    const params = { address: ADDRESS, limit: 1, archival };
    const answers = typeof archival === 'string' ? [await callGet(base, 'getTransactions', params)] : [];
    answers.push(await callPost(base, 'getTransactions', params), await callRpc(base, 'getTransactions', params));
    for (const answer of answers) assert.equal(answer.status, 200, `archival=${JSON.stringify(archival)}: ${JSON.stringify(answer.body)}`);
  }
});

test('the envelope: body over the limit 413, broken JSON 400, wrong verb 405, JSON-RPC misuse 422, all in v2 shape', async () => {
  const big = { address: ADDRESS, body: 'A'.repeat(70_000) };
  for (const path of ['/api/v2/estimateFee', '/api/v2/jsonRPC']) {
    const response = await getJson(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(big),
    });
    assert.equal(response.status, 413, path);
    assert.deepEqual(response.body, { ok: false, error: 'request body is too large', code: 413 });
  }
  const broken = await getJson(`${base}/api/v2/sendBoc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"boc":',
  });
  assert.equal(broken.status, 400);
  assert.equal(broken.body.code, 400);
  const wrongVerb = await getJson(`${base}/api/v2/sendBoc?boc=${encodeURIComponent(BOC)}`);
  assert.deepEqual(wrongVerb.body, { ok: false, error: 'unsupported http method: GET', code: 405 });
  const notObject = await callPost(base, 'getAddressInformation', [ADDRESS] as unknown as Record<string, unknown>);
  assert.equal(notObject.status, 422);
  for (const call of [
    { id: 1, jsonrpc: '2.0', method: 'getAddressInformation', params: [ADDRESS] },
    { id: 1, jsonrpc: '2.0', method: 42, params: {} },
    { id: 1, jsonrpc: '2.0', params: {} },
    { id: 1, jsonrpc: '2.0', method: 'getAddressInformation', params: 'x' },
  ]) {
    const response = await getJson(`${base}/api/v2/jsonRPC`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call),
    });
    assert.equal(response.status, 422, JSON.stringify(call));
    assert.equal(response.body.ok, false);
  }
  // v2 reads a text/plain body as JSON (as toncenter does: test/api/v2/post-bodies.test.ts); text that is none is a 422.
  const text = await getJson(`${base}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
  assert.deepEqual([text.status, text.body.ok, text.body.code], [422, false, 422]);
  assert.match(text.body.error, /^failed to parse post request: the body is not a JSON object/);
  const scalar = await getJson(`${base}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '"x"' });
  assert.deepEqual(scalar.body, { ok: false, error: 'the request body must be a JSON object', code: 422 });
});

test('random junk for every parameter of every method: never a 5xx, the server keeps answering', async () => {
  const junk: unknown[] = [
    '',
    ' ',
    '\u0000',
    '💥',
    '-0',
    '0x',
    'null',
    'true',
    '[]',
    '{}',
    -1,
    0,
    2 ** 53,
    -(2 ** 63),
    null,
    [],
    [[]],
    { '@type': 'x' },
    'A'.repeat(5000),
  ];
  for (const method of V2_METHODS) {
    const specs = method.params as Record<string, ParamSpec>;
    for (const name of Object.keys(specs)) {
      for (const value of junk) {
        const params = { ...validParams(specs), [name]: value };
        for (const answer of [await callPost(base, method.name, params), await callRpc(base, method.name, params)]) {
          // 501: the proofs methods, reached when the junk happened to be an acceptable value.
          assert.ok(
            answer.status < 500 || answer.status === 501,
            `${method.name}(${name}=${JSON.stringify(value)}): ${answer.status} ${JSON.stringify(answer.body)}`,
          );
          assert.equal(typeof answer.body, 'object');
        }
      }
    }
  }
  const alive = await callGet(base, 'getMasterchainInfo');
  assert.equal(alive.status, 200);
});

test('deeply nested values in any parameter or in the JSON-RPC id: a 4xx naming what was wrong, never a 500', async () => {
  // 10,000 levels (the reproduction) are refused by the body parser; 500 levels pass it and reach
  // each parameter's parser and the one place that renders a value into a message (bounded, not recursive).
  const nested = (levels: number) => ['['.repeat(levels) + '1' + ']'.repeat(levels), '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)];
  const post = (path: string, text: string) =>
    getJson(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  let checked = 0;
  for (const method of V2_METHODS) {
    const specs = method.params as Record<string, ParamSpec>;
    for (const [name, spec] of Object.entries(specs)) {
      if (spec.type === 'json') continue; // taken as it is: nothing to refuse
      const others = JSON.stringify(validParams(specs)).slice(1, -1);
      for (const deep of [...nested(500), ...nested(10_000)]) {
        const params = `{${others}${others ? ',' : ''}"${name}":${deep}}`;
        const answers = [
          await post(`/api/v2/${method.name}`, params),
          await post('/api/v2/jsonRPC', `{"id":1,"jsonrpc":"2.0","method":"${method.name}","params":${params}}`),
        ];
        for (const answer of answers) {
          const label = `${method.name}(${name} nested ${deep.length > 10_000 ? 10_000 : 500})`;
          if (deep.length > 10_000) {
            assert.deepEqual(answer.body, { ok: false, error: 'request body is nested deeper than 512 levels', code: 400 }, label);
            continue;
          }
          assertBad(label, answer, name);
          assert.equal(answer.status, 422, label);
          assert.ok(answer.body.error.length < 400, 'the value is shown cut short');
          assert.doesNotMatch(answer.body.error, /Maximum call stack/);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 200, `${checked} parameters checked`);
  for (const deep of nested(500)) {
    const answer = await post('/api/v2/jsonRPC', `{"id":${deep},"jsonrpc":"2.0","method":"getMasterchainInfo","params":{}}`);
    assert.deepEqual(answer.body, { ok: false, error: 'id must be a string or a number', code: 422 });
  }
  const numbered = await callRpc(base, 'getMasterchainInfo', {}, 7);
  assert.equal(numbered.body.id, '7', 'a numeric id is still echoed');
  assert.equal((await callGet(base, 'getMasterchainInfo')).status, 200);
});
