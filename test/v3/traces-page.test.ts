/**
 * The transaction budget of a /traces page (format/traces.ts): traces get their transactions in page order
 * while the page's total stays within the budget; the first that does not fit and every trace after it are
 * listed without them (is_incomplete, with a warning saying why), so the full traces are a prefix of the
 * page. A trace over MAX_TRACE_TRANSACTIONS is "too large" wherever it stands. Checked on the pure choice
 * and on a real page rendered from both stores.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PAGE_TRANSACTIONS, MAX_TRACE_TRANSACTIONS, PAGE_FULL_WARNING, pageShares, tracesText, TOO_LARGE_WARNING } from '../../src/api/v3/format/traces.js';
import { eachStore } from '../index/support/stores.js';
import { story } from '../index/support/sandbox-blocks.js';

const rows = (...counts: number[]) => counts.map((transactions) => ({ transactions }));

test('page budget: traces filled in order until one does not fit; it and all after it are withheld', () => {
  assert.deepEqual(pageShares(rows(3, 4, 2), 9), [null, null, null], 'exactly the budget fits');
  assert.deepEqual(pageShares(rows(3, 4, 3, 1), 9), [null, null, PAGE_FULL_WARNING, PAGE_FULL_WARNING], 'a later small trace is withheld too');
  assert.deepEqual(pageShares(rows(MAX_TRACE_TRANSACTIONS + 1, 2, 3), 5), [TOO_LARGE_WARNING, null, null], 'a too large trace spends nothing');
  assert.deepEqual(pageShares(rows(2, 3, MAX_TRACE_TRANSACTIONS + 1), 4), [null, PAGE_FULL_WARNING, TOO_LARGE_WARNING], 'too large says so even past the budget');
  assert.deepEqual(pageShares(rows(MAX_TRACE_TRANSACTIONS, 1)), [null, PAGE_FULL_WARNING], 'the largest listed trace always fits first, alone');
  assert.ok(MAX_PAGE_TRANSACTIONS >= MAX_TRACE_TRANSACTIONS);
  // 1,000 traces of 4,000 transactions (the worst page limit=1000 allows): one carried, not four million.
  const worst = pageShares(Array.from({ length: 1000 }, () => ({ transactions: MAX_TRACE_TRANSACTIONS })));
  assert.equal(worst.filter((w) => w === null).length, 1);
});

eachStore('page budget: a rendered page carries the transactions of its first traces only', async (t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const traces = await index.reader.traces({}, 'desc', { limit: 100, offset: 0 });
  assert.ok(traces.length >= 3, 'the story has several traces');
  const budget = traces[0].transactions + traces[1].transactions;
  const page = JSON.parse((await tracesText(index.reader, traces, false, true, budget)).text);
  assert.equal(page.traces.length, traces.length, 'every trace is listed');
  for (const [i, trace] of page.traces.entries()) {
    const full = i < 2;
    assert.equal(trace.is_incomplete, !full, `trace ${i}`);
    assert.equal(trace.warning, full ? undefined : PAGE_FULL_WARNING, `trace ${i}`);
    assert.equal(Object.keys(trace.transactions ?? {}).length, full ? traces[i].transactions : 0, `trace ${i}`);
    assert.equal(trace.trace_info.transactions, traces[i].transactions, 'the counters stay');
  }
  // A page naming more than 500 accounts (limit=1000): SQLite refuses a compound SELECT of more than 500 terms,
  // which the peer-state lookup once wrote, one per account.
  const [member] = await index.reader.traceTransactions([Buffer.from(traces[0].traceId, 'base64')]);
  const strangers = Array.from({ length: 600 }, (_, i) => `0:${i.toString(16).padStart(64, '0').toUpperCase()}`);
  const states = await index.reader.transactionPeerStates([...strangers, member.account], [], []);
  assert.deepEqual(states.map((state) => state.account), [member.account]);
  // With the default budget the same page is whole.
  const whole = JSON.parse((await tracesText(index.reader, traces, false, true)).text);
  assert.ok(whole.traces.every((trace: { is_incomplete: boolean }) => !trace.is_incomplete));
});
