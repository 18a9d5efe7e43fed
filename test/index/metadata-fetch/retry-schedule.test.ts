/** The retry schedule (pure): which failures wait and how long, Retry-After, the bound on attempts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetadataFetchError } from '../../../src/index/metadata-fetch/errors.js';
import {
  backoffMs,
  DEFAULT_RETRY_POLICY as policy,
  nextAttemptAt,
  retryAfterMs,
} from '../../../src/index/metadata-fetch/retry-schedule.js';

const now = 1_700_000_000_000;
const transient = (retryAfter?: string) => new MetadataFetchError('http-status', 'HTTP 503', true, retryAfter);

test('the wait doubles from 1 min and stops growing at a day', () => {
  assert.deepEqual(
    [1, 2, 3, 11, 12, 13].map((n) => backoffMs(policy, n) / 60_000),
    [1, 2, 4, 1024, 1440, 1440],
  );
  assert.equal(nextAttemptAt(policy, 1, transient(), now), now + 60_000);
});

test('permanent failures are never tried again; transient ones until the attempts are used up', () => {
  assert.equal(nextAttemptAt(policy, 1, new MetadataFetchError('http-status', 'HTTP 404'), now), undefined);
  assert.equal(nextAttemptAt(policy, 1, new MetadataFetchError('not-json', 'the body is not UTF-8 JSON'), now), undefined);
  assert.equal(nextAttemptAt(policy, policy.maxAttempts - 1, transient(), now), now + 86_400_000);
  assert.equal(nextAttemptAt(policy, policy.maxAttempts, transient(), now), undefined);
  // 13 waits before the 14th attempt: 1..1024 min, then two days: ~3.4 days in all.
  const total = Array.from({ length: policy.maxAttempts - 1 }, (_, i) => backoffMs(policy, i + 1)).reduce((a, b) => a + b);
  assert.equal(total / 60_000, 2047 + 2 * 1440);
});

test('Retry-After: seconds or an HTTP date; honored when longer than the backoff, bounded by the longest wait', () => {
  assert.equal(retryAfterMs('120', now), 120_000);
  assert.equal(retryAfterMs(new Date(now + 300_000).toUTCString(), now), 300_000);
  assert.equal(retryAfterMs(new Date(now - 300_000).toUTCString(), now), 0);
  assert.equal(retryAfterMs('soon', now), undefined);
  assert.equal(nextAttemptAt(policy, 1, transient('600'), now), now + 600_000);
  assert.equal(nextAttemptAt(policy, 3, transient('5'), now), now + 4 * 60_000, 'shorter than the backoff: the backoff');
  assert.equal(nextAttemptAt(policy, 1, transient(String(7 * 86_400)), now), now + 86_400_000, 'a week asked: a day');
});
