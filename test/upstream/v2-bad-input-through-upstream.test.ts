/** test/api/v2/bad-input.test.ts, unchanged, through a tongate in upstream mode (test/support/through-upstream.ts). */
process.env.TONGATE_TEST_THROUGH_UPSTREAM = '1';
await import('../api/v2/bad-input.test.js');
