/**
 * The transaction budget of a /traces page (format/traces.ts): traces get their transactions in page order
 * while the page's total stays within the budget; the first that does not fit and every trace after it are
 * listed without them (is_incomplete, with a warning saying why), so the full traces are a prefix of the
 * page. A trace over MAX_TRACE_TRANSACTIONS is "too large" wherever it stands. Checked on the choice made
 * by the page query (IndexReader.tracePage) and on a real page rendered from it, on both stores.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_PAGE_TRANSACTIONS,
  MAX_TRACE_TRANSACTIONS,
  PAGE_FULL_WARNING,
  TRACE_PAGE_LIMITS,
  tracesText,
  TOO_LARGE_WARNING,
} from '../../../src/api/v3/format/traces.js';
import type { TracePageLimits } from '../../../src/index/traces/reader.js';
import { eachStore } from '../../index/support/stores.js';
import { story } from '../../index/support/sandbox-blocks.js';

test('page budget: the largest listed trace always fits a page alone', () => {
  assert.ok(MAX_PAGE_TRANSACTIONS >= MAX_TRACE_TRANSACTIONS);
});

eachStore('page budget: traces carried in order until one does not fit; it and all after it are withheld', async (t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const traces = await index.reader.traces({}, 'desc', { limit: 100, offset: 0 });
  assert.ok(traces.length >= 4, 'the story has several traces');
  const counts = traces.map((trace) => trace.transactions);
  const total = counts.reduce((a, b) => a + b, 0);
  const largest = Math.max(...counts);
  assert.ok(
    counts.some((c) => c < largest),
    'traces of different sizes',
  );
  /** What the page query withholds, as [index, reason] for each trace left without its transactions. */
  const withheld = async (limits: TracePageLimits) => {
    const page = await index.reader.tracePage({}, 'desc', { limit: 100, offset: 0 }, limits);
    assert.deepEqual(
      page.traces.map((trace) => trace.traceId),
      traces.map((trace) => trace.traceId),
      'every trace is listed, in order',
    );
    const carried = page.traces.filter((trace) => trace.withheld === null);
    assert.equal(
      page.transactions.length,
      carried.reduce((n, trace) => n + trace.transactions, 0),
      'the carried traces bring all their transactions, no others',
    );
    assert.deepEqual(
      [...new Set(page.transactions.map((tx) => tx.traceId!.toString('base64')))],
      carried.map((trace) => trace.traceId),
      'grouped by trace in page order',
    );
    return page.traces.flatMap((trace, i) => (trace.withheld === null ? [] : [[i, trace.withheld]]));
  };
  const rest = (from: number, reason: string) => counts.slice(from).map((_, k) => [from + k, reason]);
  assert.deepEqual(await withheld({ perTrace: largest, perPage: total }), [], 'exactly the budget fits');
  assert.deepEqual(
    await withheld({ perTrace: largest, perPage: total - 1 }),
    [[counts.length - 1, 'page full']],
    'one short: the last is withheld',
  );
  assert.deepEqual(await withheld({ perTrace: largest, perPage: counts[0] + counts[1] }), rest(2, 'page full'), 'the first two fit');
  // A budget the second trace does not fit but a later, smaller one would: withheld too (the carried ones stay a prefix).
  const second = counts[0] + counts[1] - 1;
  const small = counts.findIndex((c, i) => i >= 2 && counts[0] + c <= second);
  assert.ok(small >= 0, 'the story has a later trace small enough');
  assert.deepEqual(await withheld({ perTrace: largest, perPage: second }), rest(1, 'page full'), 'a later small trace is withheld too');
  // Too large: withheld wherever it stands, spending nothing (the others fit in what is left).
  const big = counts.indexOf(largest);
  const tooLarge = await withheld({ perTrace: largest - 1, perPage: total - counts.filter((c) => c === largest).length * largest });
  assert.deepEqual(
    tooLarge,
    counts.flatMap((c, i) => (c === largest ? [[i, 'too large']] : [])),
    'too large spends nothing',
  );
  assert.ok(tooLarge.some(([i]) => i === big));
  // Too large says so even past a spent budget.
  const past = await withheld({ perTrace: largest - 1, perPage: 0 });
  assert.deepEqual(
    past,
    counts.map((c, i) => [i, c === largest ? 'too large' : 'page full']),
  );
});

eachStore('page budget: a rendered page carries the transactions of its first traces only', async (t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const traces = await index.reader.traces({}, 'desc', { limit: 100, offset: 0 });
  assert.ok(traces.length >= 3, 'the story has several traces');
  const budget = traces[0].transactions + traces[1].transactions;
  /** The page as /traces writes it: its query, then the transactions' messages, states, address book and metadata. */
  const textOf = async (limits: TracePageLimits) => {
    const page = await index.reader.tracePage({}, 'desc', { limit: 100, offset: 0 }, limits);
    return tracesText(page, await index.reader.transactionPage(page.transactions, true), false, true);
  };
  const page = JSON.parse((await textOf({ perTrace: MAX_TRACE_TRANSACTIONS, perPage: budget })).text);
  assert.equal(page.traces.length, traces.length, 'every trace is listed');
  for (const [i, trace] of page.traces.entries()) {
    const full = i < 2;
    assert.equal(trace.is_incomplete, !full, `trace ${i}`);
    assert.equal(trace.warning, full ? undefined : PAGE_FULL_WARNING, `trace ${i}`);
    assert.equal(Object.keys(trace.transactions ?? {}).length, full ? traces[i].transactions : 0, `trace ${i}`);
    assert.equal(trace.trace_info.transactions, traces[i].transactions, 'the counters stay');
  }
  const tooLarge = JSON.parse((await textOf({ perTrace: 0, perPage: budget })).text);
  assert.ok(tooLarge.traces.every((trace: { warning: string }) => trace.warning === TOO_LARGE_WARNING));
  // A page naming more than 500 accounts (limit=1000): SQLite refuses a compound SELECT of more than 500 terms,
  // which the peer-state lookup once wrote, one per account.
  const [member] = await index.reader.traceTransactions([Buffer.from(traces[0].traceId, 'base64')]);
  const strangers = Array.from({ length: 600 }, (_, i) => `0:${i.toString(16).padStart(64, '0').toUpperCase()}`);
  const states = await index.reader.transactionPeerStates([...strangers, member.account], [], []);
  assert.deepEqual(
    states.states.map((state) => state.account),
    [member.account],
  );
  // With the default limits the same page is whole.
  const whole = JSON.parse((await textOf(TRACE_PAGE_LIMITS)).text);
  assert.ok(whole.traces.every((trace: { is_incomplete: boolean }) => !trace.is_incomplete));
});

eachStore('tracedTransactions: given transactions in /traces page order, each with its trace normalized hash', async (t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const page = await index.reader.tracePage({}, 'asc', { limit: 100, offset: 0 }, TRACE_PAGE_LIMITS);
  const norms = new Map(page.traces.map((trace) => [trace.traceId, trace.externalHashNorm]));
  // Every other transaction of the page, asked in reverse: the answer holds those only, in the page's order.
  const asked = page.transactions.filter((_, i) => i % 2 === 0);
  const traced = await index.reader.tracedTransactions(asked.map((tx) => tx.hash).reverse());
  assert.deepEqual(
    traced.map((tx) => tx.hash.toString('hex')),
    asked.map((tx) => tx.hash.toString('hex')),
  );
  for (const tx of traced) {
    const traceId = tx.traceId!.toString('base64');
    assert.equal(tx.externalHashNorm, norms.get(traceId));
    assert.equal(tx.traceEndLt, page.traces.find((trace) => trace.traceId === traceId)!.endLt);
  }
  assert.ok(
    traced.some((tx) => tx.externalHashNorm !== null),
    'the story has traces started by external messages',
  );
});
