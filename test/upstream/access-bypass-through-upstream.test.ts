/** test/http/access-bypass.test.ts, unchanged, against a tongate in upstream mode (test/support/through-upstream.ts). */
process.env.TONGATE_TEST_THROUGH_UPSTREAM = '1';
await import('../http/access-bypass.test.js');
