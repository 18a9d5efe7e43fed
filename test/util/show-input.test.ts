/**
 * showInput / describeJson: the one place a client's value is rendered into an error message. It must
 * be bounded in time and output whatever the value holds, and never recurse (10,000 levels of nesting
 * overflowed the call stack of JSON.stringify and String() and answered 500).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeJson, showInput } from '../../src/util/show-input.js';

test('plain values are shown as JSON, strings as they are', () => {
  assert.equal(showInput('abc'), 'abc');
  assert.equal(showInput({ a: [1, 'x', null, true] }), '{"a":[1,"x",null,true]}');
  assert.equal(showInput(12n), '12');
  assert.equal(describeJson('abc'), '"abc"');
  assert.equal(describeJson([]), '[]');
  assert.equal(describeJson({}), '{}');
});

test('10,000 levels of nesting, arrays or objects, are shown cut short, not a stack overflow', () => {
  let array: unknown = 1;
  let object: unknown = 1;
  for (let i = 0; i < 10_000; i++) {
    array = [array];
    object = { a: object };
  }
  // Built from text too: what a JSON body really holds.
  const parsed = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000));
  for (const value of [array, object, parsed]) {
    const shown = showInput(value);
    assert.equal(shown.length, 103);
    assert.ok(shown.endsWith('...'));
    assert.ok(describeJson(value, 50).length <= 60);
  }
});

test('a huge array or object costs as much as a short one: only what is shown is visited', () => {
  const wide = Array.from({ length: 100_000 }, () => ['num', 1]);
  assert.equal(showInput(wide), `[${'["num",1],'.repeat(10).slice(0, 99)}...`);
  const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
  assert.ok(showInput(keys).startsWith('{"k0":0,"k1":1,'));
  assert.equal(showInput('x'.repeat(1_000_000)).length, 103);
});

test("keys named like Object.prototype's members are shown as keys", () => {
  assert.equal(showInput(JSON.parse('{"__proto__":{"constructor":1},"toString":2}')), '{"__proto__":{"constructor":1},"toString":2}');
});
