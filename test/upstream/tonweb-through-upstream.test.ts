/**
 * test/api/v2/tonweb.test.ts, unchanged, through a tongate in upstream mode (see test/api/v2/support/keyed-tongate.ts):
 * the client's flows (deploy, transfer, get-methods, paging) pass through the proxy as they do locally.
 */
process.env.TONGATE_TEST_THROUGH_UPSTREAM = '1';
await import('../api/v2/tonweb.test.js');
