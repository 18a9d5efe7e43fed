/**
 * The "Limits" table of docs/api.md states the numbers the code enforces: each row is checked against the
 * constant it documents, so changing one without the other fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EMULATOR_MAX_MESSAGE_DEPTH, GET_METHOD_MAX_STACK_DEPTH } from '../../../src/chain/emulator/emulator-limits.js';
import { BOC_MAX_BYTES, BOC_MAX_CELLS, BOC_MAX_DEPTH } from '../../../src/ton/boc.js';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../../src/http/json-body.js';
import {
  STACK_MAX_ALL_ENTRIES,
  STACK_MAX_CELL_ENTRIES,
  STACK_MAX_CELLS,
  STACK_MAX_ENTRIES,
  STACK_MAX_NESTING,
  TUPLE_MAX_ITEMS,
} from '../../../src/ton/stack-input.js';

test('docs/api.md lists every input limit with the value the code enforces', () => {
  const readme = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const start = readme.indexOf('\n## Limits\n');
  assert.ok(start > 0 && readme.startsWith('# Endpoints\n'), 'a Limits section in the endpoints file');
  const end = readme.indexOf('\n## ', start + 1);
  const rows = readme
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| '));
  const limitOf = (input: string) => {
    const row = rows.find((line) => line.split('|')[1].trim() === input);
    assert.ok(row, `a row for "${input}"`);
    return row.split('|')[2].trim();
  };
  const n = (value: number) => value.toLocaleString('en-US');
  assert.equal(
    limitOf('get-method stack (`runGetMethod`, `runGetMethodStd`, v3 `runGetMethod`): entries at the top'),
    n(STACK_MAX_ENTRIES),
  );
  assert.equal(limitOf('get-method stack: entries in all (tuple items, list items and list pairs count)'), n(STACK_MAX_ALL_ENTRIES));
  assert.equal(limitOf('get-method stack: nesting of tuples and lists'), n(STACK_MAX_NESTING));
  assert.equal(limitOf('get-method stack: items of one tuple'), n(TUPLE_MAX_ITEMS));
  assert.equal(limitOf('get-method stack: cell, slice and builder entries in all'), n(STACK_MAX_CELL_ENTRIES));
  assert.equal(limitOf('get-method stack: depth of the serialized stack (its cells included)'), n(GET_METHOD_MAX_STACK_DEPTH));
  assert.equal(limitOf('get-method stack: cells of all its cell, slice and builder entries'), n(STACK_MAX_CELLS));
  assert.equal(limitOf('BoCs of one request in all (`boc`, `body`, `init_code`, `init_data`, stack cells)'), `${n(BOC_MAX_BYTES)} bytes`);
  assert.equal(limitOf('BoCs of one request in all: cells'), n(BOC_MAX_CELLS));
  assert.equal(limitOf('one BoC: depth'), n(BOC_MAX_DEPTH));
  assert.equal(limitOf('external message (`sendBoc*`, v3 `message`; `estimateFee` body + init) depth'), n(EMULATOR_MAX_MESSAGE_DEPTH));
  assert.match(limitOf('JSON nesting of a body'), new RegExp(`^${n(MAX_JSON_DEPTH)} levels`));
  assert.match(limitOf('JSON values of a body (arrays, objects and members)'), new RegExp(`^${n(MAX_JSON_VALUES)},`));
  assert.match(
    limitOf('legacy cell objects (`{data, refs}`) given as cells'),
    new RegExp(`^${n(BOC_MAX_CELLS)} nodes .*depth ${BOC_MAX_DEPTH}$`),
  );
});
