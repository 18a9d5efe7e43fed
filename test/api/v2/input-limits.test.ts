/**
 * Work limits on client input that reaches expensive code (docs/api.md "Limits"): get-method stacks and BoCs
 * are refused with a 422 naming the parameter before any BoC is decoded and before the emulator runs, on
 * every way in (v2 REST, JSON-RPC, v3 POST). These tests assert the limits and that the emulator was not
 * called, never a duration; the server must still answer afterwards.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, external, storeMessage, type Cell } from '@ton/core';
import { EmulatorPool } from '../../../src/chain/emulator/index.js';
import { EMULATOR_MAX_MESSAGE_DEPTH, GET_METHOD_MAX_STACK_DEPTH } from '../../../src/chain/emulator/emulator-limits.js';
import { getJson, postJson, startTestTongate, type TestTongate } from '../../support/tongate.js';

let tongate: TestTongate;
let base: string;
let wallet: string;

before(async () => {
  tongate = await startTestTongate();
  base = tongate.url('mainnet');
  // The faucet wallet is active from genesis: its get-methods really run in the emulator.
  wallet = tongate.chain('mainnet').faucets()[0].address.toString();
  // Each network loads its config into the emulator workers on its first call (an 'init' call the pool
  // counts): done here, so the counts the tests compare change only with what the tests do.
  for (const network of ['mainnet', 'testnet']) {
    const chain = tongate.chain(network);
    await chain.runGetMethod(chain.faucets()[0].address, 'seqno', []);
  }
});
after(() => tongate?.stop());

/** Get-methods and emulations served by the process's emulator workers so far. */
const emulatorRuns = () =>
  EmulatorPool.shared()
    .stats()
    .read.reduce((sum, w) => sum + w.served, 0);

const num = ['num', 1];
const nums = (n: number) => Array.from({ length: n }, () => num);
const tuple = (items: unknown[]) => ['tuple', { elements: items }];
const b64 = (cell: Cell) => cell.toBoc().toString('base64');

/** runGetMethod three ways: v2 REST, JSON-RPC and v3 POST (v3 takes its own entry form, so only when asked). */
async function runEveryWay(stack: unknown[], v3Stack?: unknown[]) {
  const params = { address: wallet, method: 'seqno', stack };
  const answers = [
    { way: 'v2', ...(await postJson(`${base}/api/v2/runGetMethod`, params)) },
    { way: 'v2 std', ...(await postJson(`${base}/api/v2/runGetMethodStd`, params)) },
    { way: 'jsonRPC', ...(await postJson(`${base}/api/v2/jsonRPC`, { id: 1, jsonrpc: '2.0', method: 'runGetMethod', params })) },
  ];
  if (v3Stack) answers.push({ way: 'v3', ...(await postJson(`${base}/api/v3/runGetMethod`, { ...params, stack: v3Stack })) });
  return answers;
}

function assertRefused(label: string, answers: Awaited<ReturnType<typeof runEveryWay>>, words: RegExp): void {
  for (const { way, status, body } of answers) {
    assert.equal(status, 422, `${label} (${way}): ${JSON.stringify(body).slice(0, 200)}`);
    const message: string = body.error;
    assert.match(message, /parameter stack/, `${label} (${way}) names the parameter`);
    assert.match(message, words, `${label} (${way}): ${message}`);
    assert.doesNotMatch(message, /Cannot read|Maximum call stack|undefined|emulator failed/, `${label} (${way})`);
  }
}

test("the issue's reproductions: a 1 MB body of 100,000 entries, or 255 tuples of 255 numbers, is refused before it is parsed, and the emulator never runs", async () => {
  const text = `{"address":"${wallet}","method":"seqno","stack":[${Array(100_000).fill('["num",1]').join(',')}]}`;
  assert.ok(text.length > 900_000 && text.length < 1_048_576, `${text.length} bytes`);
  const runs = emulatorRuns();
  const answer = await getJson(`${base}/api/v2/runGetMethod`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  // The body parser counts JSON values on the raw bytes (src/http/json-body.ts): parsing 100,000 arrays alone
  // would cost the HTTP thread 50-500 ms.
  assert.equal(answer.status, 400);
  assert.match(answer.body.error, /^request body holds more than 20000 JSON values$/);
  const wide = JSON.stringify({ address: wallet, method: 'seqno', stack: [tuple(Array.from({ length: 255 }, () => tuple(nums(255))))] });
  const wideAnswer = await getJson(`${base}/api/v2/runGetMethod`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: wide,
  });
  assert.equal(wideAnswer.status, 400);
  assert.equal(emulatorRuns(), runs, 'the emulator was not called');
  assert.equal((await getJson(`${base}/healthcheck`)).status, 200, 'the server is alive and answering');
});

test('stacks over a limit are refused before the emulator, every way in', async () => {
  const cell = b64(beginCell().storeUint(1, 8).endCell());
  const cases: [string, unknown[], unknown[] | undefined, RegExp][] = [
    ['5,000 entries', nums(5_000), undefined, /more than 255 entries/],
    ['1,000 entries', nums(1_000), Array.from({ length: 1_000 }, () => ({ type: 'num', value: '1' })), /more than 255 entries/],
    [
      '1,000 cells',
      Array.from({ length: 1_000 }, () => ['tvm.Cell', cell]),
      Array.from({ length: 1_000 }, () => ({ type: 'cell', value: cell })),
      /more than 255 entries/,
    ],
    [
      '255 cells',
      Array.from({ length: 255 }, () => ['tvm.Cell', cell]),
      Array.from({ length: 255 }, () => ({ type: 'slice', value: cell })),
      /more than 64 cell, slice and builder entries/,
    ],
    [
      'a tuple of 40 tuples of 40 numbers',
      [tuple(Array.from({ length: 40 }, () => tuple(nums(40))))],
      undefined,
      /more than 999 entries in all/,
    ],
    ['65 levels of tuples', [Array.from({ length: 65 }).reduce((inner) => tuple([inner]), num)], undefined, /nested deeper than 64 levels/],
    ['["constructor",1]', [['constructor', 1]], [{ type: 'toString', value: 1 }], /unsupported stack entry type: (constructor|toString)/],
    ['{"@type":"__proto__"}', [JSON.parse('{"@type":"__proto__"}')], [{ type: 'valueOf' }], /unsupported stack entry type/],
  ];
  const runs = emulatorRuns();
  for (const [label, stack, v3Stack, words] of cases) assertRefused(label, await runEveryWay(stack, v3Stack), words);
  assert.equal(emulatorRuns(), runs, 'the emulator was never called');
});

test('stacks within the limits run; one whose cells nest deeper than the emulator takes is a 422, not a 503', async () => {
  const within: [string, unknown[]][] = [
    ['255 entries', nums(255)],
    ['a tuple of 255', [tuple(nums(255))]],
    ['999 entries in all', [tuple(nums(255)), tuple(nums(255)), tuple(nums(255)), tuple(nums(999 - 3 * 256 - 1))]],
    ['64 levels of tuples', [Array.from({ length: 64 }).reduce((inner) => tuple([inner]), num)]],
    ['64 cells', Array.from({ length: 64 }, (_, i) => ['tvm.Slice', b64(beginCell().storeUint(i, 16).endCell())])],
  ];
  for (const [label, stack] of within) {
    for (const { way, status, body } of await runEveryWay(stack))
      assert.equal(status, 200, `${label} (${way}): ${JSON.stringify(body).slice(0, 200)}`);
  }
  // Within the counts, but the stack's cells nest deeper than the local emulator takes (it fails above 326).
  const runs = emulatorRuns();
  assertRefused(
    'a tuple of 255 under 254 entries',
    await runEveryWay([tuple(nums(255)), ...nums(254)]),
    new RegExp(`nest \\d+ levels deep, the local emulator takes at most ${GET_METHOD_MAX_STACK_DEPTH}`),
  );
  let deep = beginCell().endCell();
  for (let i = 0; i < 400; i++) deep = beginCell().storeRef(deep).endCell();
  assertRefused(
    'a cell 400 deep',
    await runEveryWay([['tvm.Cell', b64(deep)]], [{ type: 'cell', value: b64(deep) }]),
    /nest 40\d levels deep/,
  );
  assert.equal(emulatorRuns(), runs, 'refused before the emulator');
  assert.equal(
    (await postJson(`${base}/api/v2/runGetMethod`, { address: wallet, method: 'seqno' })).status,
    200,
    'the emulator still answers',
  );
});

test('stack cells: malformed bags, out-of-range indexes, exotic slices and pruned branches are 422s naming the entry', async () => {
  const badIndex = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 2, 1, 0, 5, 0, 1, 0, 9, 0, 0]).toString('base64');
  const library = b64(beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell({ exotic: true }));
  const pruned = b64(
    beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32, 9)).storeUint(3, 16).endCell({ exotic: true }),
  );
  const cases: [string, unknown[], unknown[], RegExp][] = [
    ['an out-of-range reference', [['tvm.Cell', badIndex]], [{ type: 'cell', value: badIndex }], /stack\[0\].*cell 0 refers to cell 9/],
    ['a library cell as a slice', [['tvm.Slice', library]], [{ type: 'slice', value: library }], /stack\[0\].*cannot be passed as a slice/],
    ['a pruned branch', [['tvm.Cell', pruned]], [{ type: 'cell', value: pruned }], /stack\[0\].*pruned branch/],
  ];
  const runs = emulatorRuns();
  for (const [label, stack, v3Stack, words] of cases) assertRefused(label, await runEveryWay(stack, v3Stack), words);
  assert.equal(emulatorRuns(), runs, 'the emulator was never called');
  // A library cell passed as a cell is fine (the code resolves it when it loads it).
  for (const { way, status } of await runEveryWay([['tvm.Cell', library]])) assert.equal(status, 200, way);
});

test('client BoCs everywhere: out-of-range indexes, oversized bags and exotic message bodies are 422s naming the parameter', async () => {
  const badIndex = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 2, 1, 0, 5, 0, 1, 0, 9, 0, 0]).toString('base64');
  const badRoot = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 1, 1, 0, 2, 4, 0, 0]).toString('base64');
  const lies = Buffer.from([
    0xb5, 0xee, 0x9c, 0x72, 0x04, 0x01, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
  ]).toString('base64');
  const library = beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell({ exotic: true });
  const pruned = beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32, 9)).storeUint(3, 16).endCell({ exotic: true });
  const holdsPruned = beginCell().storeUint(0, 32).storeRef(pruned).endCell();
  const ordinary = b64(beginCell().storeUint(0, 32).endCell());
  const huge = 'A'.repeat(200_000);
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['sendBoc', { boc: badIndex }, 'boc', /cell 0 refers to cell 9/],
    ['sendBoc', { boc: badRoot }, 'boc', /root index 4 is beyond its 1 cells/],
    ['sendBoc', { boc: lies }, 'boc', /not a valid bag of cells/],
    ['sendBocReturnHash', { boc: huge }, 'boc', /larger than 65535 bytes/],
    ['estimateFee', { address: wallet, body: b64(library) }, 'body', /exotic cell .* cannot be a message body/],
    ['estimateFee', { address: wallet, body: b64(pruned) }, 'body', /pruned branch/],
    ['estimateFee', { address: wallet, body: b64(holdsPruned) }, 'body', /pruned branch/],
    ['estimateFee', { address: wallet, body: ordinary, init_code: b64(pruned), init_data: ordinary }, 'init_code', /pruned branch/],
    ['estimateFee', { address: wallet, body: ordinary, init_code: ordinary, init_data: badIndex }, 'init_data', /cell 0 refers to cell 9/],
  ];
  const v3Path: Record<string, string> = {
    sendBoc: '/api/v3/message',
    sendBocReturnHash: '/api/v3/message',
    estimateFee: '/api/v3/estimateFee',
  };
  for (const [method, params, name, words] of cases) {
    const answers = [
      await postJson(`${base}/api/v2/${method}`, params),
      await postJson(`${base}/api/v2/jsonRPC`, { id: 1, jsonrpc: '2.0', method, params }),
      await postJson(`${base}${v3Path[method]}`, params),
    ];
    for (const { status, body } of answers) {
      const label = `${method}(${name}) ${JSON.stringify(body).slice(0, 200)}`;
      assert.equal(status, 422, label);
      assert.match(body.error, new RegExp(`parameter ${name}`), label);
      assert.match(body.error, words, label);
      assert.doesNotMatch(body.error, /Cannot read|undefined/, label);
    }
  }
  // A library cell as code is legitimate (jetton wallets are deployed so): not refused as a part.
  const withLibraryCode = await postJson(`${base}/api/v2/estimateFee`, {
    address: wallet,
    body: ordinary,
    init_code: b64(library),
    init_data: ordinary,
  });
  assert.equal(withLibraryCode.status, 200, JSON.stringify(withLibraryCode.body));
});

test('messages deeper than the local emulator takes are 422s naming the part; within it they run', async () => {
  const chainOf = (depth: number) => {
    let cell = beginCell().endCell();
    for (let i = 0; i < depth; i++) cell = beginCell().storeRef(cell).endCell();
    return cell;
  };
  const to = Address.parse(wallet);
  const message = (body: Cell) =>
    beginCell()
      .store(storeMessage(external({ to, body })))
      .endCell();
  const ordinary = b64(beginCell().storeUint(0, 32).endCell());
  const deep = chainOf(450); // a valid BoC (TON allows 512), deeper than the emulator's 434
  const runs = emulatorRuns();
  const cases: [string, Record<string, unknown>, string][] = [
    ['estimateFee', { address: wallet, body: b64(deep) }, 'body'],
    [
      'estimateFee',
      { address: wallet, body: ordinary, init_code: b64(chainOf(EMULATOR_MAX_MESSAGE_DEPTH - 1)), init_data: ordinary },
      'init_code',
    ],
    ['sendBoc', { boc: b64(message(deep)) }, 'boc'],
  ];
  for (const [method, params, name] of cases) {
    for (const answer of [
      await postJson(`${base}/api/v2/${method}`, params),
      await postJson(`${base}/api/v2/jsonRPC`, { id: 1, jsonrpc: '2.0', method, params }),
    ]) {
      assert.equal(answer.status, 422, `${method} ${name}: ${JSON.stringify(answer.body).slice(0, 200)}`);
      assert.match(
        answer.body.error,
        new RegExp(
          `parameter ${name}: its cells nest \\d+ levels deep; the local emulator takes messages up to ${EMULATOR_MAX_MESSAGE_DEPTH}`,
        ),
      );
    }
  }
  assert.equal(emulatorRuns(), runs, 'refused before the emulator');
  const within = await postJson(`${base}/api/v2/estimateFee`, { address: wallet, body: b64(chainOf(EMULATOR_MAX_MESSAGE_DEPTH - 2)) });
  assert.equal(within.status, 200, JSON.stringify(within.body).slice(0, 200));
  const refused = await postJson(`${base}/api/v2/sendBoc`, { boc: b64(message(chainOf(EMULATOR_MAX_MESSAGE_DEPTH - 2))) });
  assert.equal(refused.status, 400, 'within the depth, the wallet refuses an unsigned message (not the emulator failing)');
});

test('POST /devnet/fund: a workchain that does not exist and more than the faucet holds are 422s naming the field', async () => {
  const to = Address.parse(wallet);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ address: new Address(5, to.hash).toRawString(), amount: '1000000000' }, /^address: workchain 5 does not exist on this chain/],
    [{ address: new Address(-2, to.hash).toRawString(), amount: '1000000000' }, /^address: workchain -2 does not exist/],
    [{ address: wallet, amount: (10n ** 18n).toString() }, /^amount: the faucet .* holds \d+ nanotons/],
  ];
  for (const [body, words] of cases) {
    const answer = await postJson(`${base}/devnet/fund`, body);
    assert.equal(answer.status, 422, JSON.stringify(answer.body));
    assert.equal(answer.body.ok, false);
    assert.match(answer.body.error, words);
  }
});
