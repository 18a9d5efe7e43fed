/**
 * GET and POST /api/v3/decode on a running gateway: opcodes named and bodies decoded by the same tables messages
 * use (decoded_opcode, message_content.decoded), in toncenter's parameter names and answer shape (validated against
 * toncenter's v3 OpenAPI document and ours), and bad input refused with a 422 that names it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, Cell } from '@ton/core';
import { decodeMessageBody } from '../../../src/ton/decoded/decode.js';
import { serveIndex } from './support/server.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';

const NOWHERE = new Address(0, Buffer.alloc(32, 0x5e));

const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
const transfer = beginCell()
  .storeUint(0x0f8a7ea5, 32)
  .storeUint(77, 64)
  .storeCoins(5_000_000n)
  .storeAddress(NOWHERE)
  .storeAddress(NOWHERE)
  .storeMaybeRef(null)
  .storeCoins(1n)
  .storeBit(1)
  .storeRef(comment('pay 42'))
  .endCell();
const base64 = (cell: Cell) => cell.toBoc().toString('base64');
const hex = (cell: Cell) => cell.toBoc().toString('hex');

test('/api/v3/decode: names and decodings as messages carry them, on GET and POST, valid against both documents', async (t) => {
  const server = await serveIndex(t, undefined);
  const ours = ourV3((await server.get('/api/v3/openapi.json')).body);

  const opcodes = ['0x0f8a7ea5', '0f8a7ea5', '260734629', '-1', '0x7362D09C', '0xdeadbeef', '0x000000000f8a7ea5'];
  const names = ['jetton_transfer', 'jetton_transfer', 'jetton_transfer', 'bounce', 'jetton_notify', 'unknown', 'jetton_transfer'];
  const bodies = [
    base64(transfer),
    hex(transfer),
    transfer.toBoc({ idx: false, crc32: true }).toString('base64url'),
    base64(comment('hello')),
    base64(beginCell().endCell()),
    base64(beginCell().storeUint(7, 16).endCell()),
    base64(beginCell().storeUint(0x1badcafe, 32).storeUint(1, 8).endCell()),
  ];
  const decodedTransfer = decodeMessageBody(transfer);
  assert.equal(decodedTransfer!['@type'], 'jetton_transfer');
  const expected = {
    opcodes: names,
    bodies: [
      decodedTransfer,
      decodedTransfer,
      decodedTransfer,
      // The marker's own form: the old {"comment","type"} form is kept for message documents only, as toncenter does.
      { '@type': 'text_comment', text: 'hello' },
      { '@type': 'empty_cell' },
      { error: 'unknown: boc is too small, size 16' },
      { error: 'unknown: no parser succeeded' },
    ],
  };

  const query = [...opcodes.map((o) => `opcodes=${encodeURIComponent(o)}`), ...bodies.map((b) => `bodies=${encodeURIComponent(b)}`)].join(
    '&',
  );
  const got = await server.get(`/api/v3/decode?${query}`);
  assert.equal(got.status, 200, JSON.stringify(got.body));
  assert.deepEqual(got.body, expected);
  checkAgainstSpecs(ours, '/api/v3/decode', got.body);

  // Bracketed keys, as axios and PHP write arrays (toncenter's fiber reads `opcodes[]` as `opcodes`).
  const bracketed = await server.get(`/api/v3/decode?opcodes[]=0x0f8a7ea5&bodies[]=${encodeURIComponent(bodies[3])}`);
  assert.deepEqual(bracketed.body, { opcodes: ['jetton_transfer'], bodies: [{ '@type': 'text_comment', text: 'hello' }] });

  const posted = await server.post('/api/v3/decode', { opcodes, bodies });
  assert.equal(posted.status, 200, JSON.stringify(posted.body));
  assert.deepEqual(posted.body, expected);
  checkAgainstSpecs(ours, '/api/v3/decode', posted.body, 'post');

  for (const empty of [await server.get('/api/v3/decode'), await server.post('/api/v3/decode', {})]) {
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { opcodes: [], bodies: [] }, 'both keys, always');
    checkAgainstSpecs(ours, '/api/v3/decode', empty.body);
  }
});

test('/api/v3/decode: bad input is a 422 that names it', async (t) => {
  const server = await serveIndex(t, undefined);
  const fails = async (reply: Promise<{ status: number; body: any }>, pattern: RegExp) => {
    const { status, body } = await reply;
    assert.equal(status, 422, JSON.stringify(body));
    assert.deepEqual(Object.keys(body), ['error']);
    assert.match(body.error, pattern);
  };
  await fails(server.get('/api/v3/decode?opcodes=0x0f8a7ea5&opcodes=xyz'), /^invalid opcode format at index 1: xyz$/);
  await fails(server.get('/api/v3/decode?opcodes=0x1ffffffff'), /index 0: 0x1ffffffff/);
  await fails(server.get('/api/v3/decode?opcodes=99999999999'), /index 0/);
  await fails(
    server.get('/api/v3/decode?bodies=te6cckEBAQEAAgAAAEysuc0%3D&bodies=not-a-boc!'),
    /parameter bodies\[1\]: 'not-a-boc!' is not a BoC/,
  );
  await fails(server.post('/api/v3/decode', { bodies: ['b5ee9c72ff'] }), /parameter bodies\[0\]: 'b5ee9c72ff' is not a BoC/);
  await fails(server.post('/api/v3/decode', { opcodes: [1, 2] }), /parameter opcodes/);
  await fails(server.post('/api/v3/decode', [1]), /request body must be a JSON object/);
  const many = Array.from({ length: 1001 }, () => '0x0f8a7ea5');
  await fails(server.post('/api/v3/decode', { opcodes: many }), /^opcodes list exceeds maximum length of 1000$/);
  const manyBodies = Array.from({ length: 1001 }, () => base64(comment('x')));
  await fails(server.post('/api/v3/decode', { bodies: manyBodies }), /^bodies list exceeds maximum length of 1000$/);
  // The bodies of one request hold at most 8,192 cells in all: nine bags of 1,000 distinct cells do not fit.
  const bag = (seed: number) => {
    let level = Array.from({ length: 768 }, (_, i) => beginCell().storeUint(seed, 32).storeUint(i, 32).endCell());
    const cells = [...level];
    while (level.length > 1) {
      const up: Cell[] = [];
      for (let i = 0; i < level.length; i += 4) {
        const node = beginCell().storeUint(seed, 32);
        for (const child of level.slice(i, i + 4)) node.storeRef(child);
        up.push(node.endCell());
      }
      cells.push(...up);
      level = up;
    }
    return { boc: base64(level[0]), cells: cells.length };
  };
  const bags = Array.from({ length: 9 }, (_, i) => bag(i));
  assert.equal(bags[0].cells, 1024);
  assert.equal(
    (await server.post('/api/v3/decode', { bodies: bags.slice(0, 8).map((b) => b.boc) })).status,
    200,
    'eight bags: 8,192 cells',
  );
  await fails(server.post('/api/v3/decode', { bodies: bags.map((b) => b.boc) }), /parameter bodies\[8\]: .*more than 8192 cells in all/);
  // A thousand of each is within toncenter's caps.
  const thousand = await server.post('/api/v3/decode', { opcodes: many.slice(1), bodies: manyBodies.slice(1) });
  assert.equal(thousand.status, 200);
  assert.equal(thousand.body.bodies.length, 1000);
});
