/**
 * A followed transaction's `confirmed` made ahead of the seal (src/stream/confirmed-ahead.ts) is byte for byte the
 * notification the seal would cut from its pending text; it is used only for the block it was made for, and only
 * for a client that gets that transaction alone without address book or metadata.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, external } from '@ton/core';
import { PendingTrace, type PendingTx } from '../../src/pending/pending-traces.js';
import { sealedTransactionText } from '../../src/pending/render.js';
import { aloneToEach, confirmedAhead, prepareConfirmed, tellAlone } from '../../src/stream/confirmed-ahead.js';
import { StreamConnection, type Transport } from '../../src/stream/connection.js';
import { transactionsText, type TraceEvent } from '../../src/stream/notifications.js';
import { emptySubscription } from '../../src/stream/subscription.js';
import { FramedText } from '../../src/stream/ws-frame.js';
import { normalizedExternalHash } from '../../src/ton/normalized-external-hash.js';

const wallet = Address.parse(`0:${'ab'.repeat(32)}`);
const dest = `0:${'CD'.repeat(32)}`;
const body = beginCell().storeUint(7, 32).storeStringTail('tongate é').endCell();
const message = external({ to: wallet, body });
const root = beginCell().endCell();
const trace = new PendingTrace('dHJhY2U=', 'ZXh0', { cell: root, hash: root.hash(), message }, 41);

/** A pending text laid out as render.ts writes one (its seqnos 0, emulated, pending), with a non-ASCII comment. */
const pendingText = (account: string, lt: number) =>
  `{"account":"${account}","hash":"h${lt}","lt":"${lt}","now":1,"mc_block_seqno":0,"trace_id":"dHJhY2U=",` +
  `"block_ref":{"workchain":0,"shard":"8000000000000000","seqno":0},"in_msg":{"message_content":{"decoded":{"comment":"é"}}},` +
  `"account_state_before":{"hash":"a"},"account_state_after":{"hash":"b"},"emulated":true,"finality":"pending"}`;

const pendingTx = (account: string, lt: number): PendingTx =>
  ({ hash: `h${lt}`, account, lt: BigInt(lt), now: 1, openBlock: 42, inMsg: null, outMsgs: [] }) as unknown as PendingTx;

const client = (addresses: string[], extras: { includeAddressBook?: boolean } = {}) => {
  const transport: Transport = { buffered: () => 0, write: () => undefined, close: () => undefined };
  const c = new StreamConnection('c', transport, 1 << 20, 0, undefined, () => undefined);
  c.subscription = { ...emptySubscription(), addresses: new Set(addresses), types: new Set(['transactions']), ...extras };
  return c;
};

/** The event the seal cuts at `confirmed` of block `seqno`, from the pending texts alone (nothing made ahead). */
const cutAtSeal = (txs: PendingTx[], seqno: number): TraceEvent => ({
  finality: 'confirmed',
  norm: trace.externalHashNorm,
  transactions: txs.map((tx) => ({
    hash: tx.hash,
    account: tx.account,
    lt: tx.lt,
    text: sealedTransactionText(pendingText(tx.account, Number(tx.lt)), seqno),
    mentioned: [tx.account],
  })),
  tree: 'null',
  actions: [],
  addressBook: { [dest]: { user_friendly: 'x', domain: null } },
  metadata: {},
});

test("a confirmed notification made ahead is the seal's own text, as UTF-8 bytes, for the block it was made for", () => {
  const account = formatRaw(wallet);
  const tx = pendingTx(account, 1000);
  prepareConfirmed(trace, tx, pendingText(account, 1000));
  assert.equal(confirmedAhead(tx, 43), undefined, 'another block sealed it: made again at the seal');
  const ahead = confirmedAhead(tx, 42);
  assert.ok(ahead);
  assert.equal(trace.externalHashNorm, normalizedExternalHash(wallet, body).toString('base64'));
  const expected = transactionsText(client([account]), cutAtSeal([tx], 42));
  assert.equal(typeof expected, 'string');
  assert.equal(ahead.alone.bytes.toString('utf8'), expected, 'byte for byte what the seal cuts');
  assert.equal(Buffer.byteLength(expected as string), ahead.alone.bytes.length, 'its UTF-8 length (a non-ASCII comment in it)');
  assert.equal(ahead.text, sealedTransactionText(pendingText(account, 1000), 42));
});

test('the bytes go to a client that gets that transaction alone and asked for no address book; others get their text cut', () => {
  const account = formatRaw(wallet);
  const [a, b] = [pendingTx(account, 2000), pendingTx(dest, 2001)];
  for (const tx of [a, b]) prepareConfirmed(trace, tx, pendingText(tx.account, Number(tx.lt)));
  const event = cutAtSeal([a, b], 42);
  for (const [i, tx] of [a, b].entries()) event.transactions[i].alone = confirmedAhead(tx, 42)!.alone;

  const alone = transactionsText(client([account]), event);
  assert.ok(alone instanceof FramedText, 'the bytes made ahead');
  assert.equal(alone, confirmedAhead(a, 42)!.alone);

  const withBook = transactionsText(client([dest], { includeAddressBook: true }), event);
  assert.equal(typeof withBook, 'string');
  const plain = confirmedAhead(b, 42)!.alone.bytes.toString('utf8');
  assert.equal(withBook, `${plain.slice(0, -1)},"address_book":{"${dest}":{"user_friendly":"x","domain":null}}}`);

  const both = transactionsText(client([account, dest]), event);
  assert.equal(typeof both, 'string', 'two transactions of the trace: one notification, cut for the client');
  assert.deepEqual(
    JSON.parse(both as string).transactions.map((t: { lt: string }) => t.lt),
    ['2001', '2000'],
    'newest first',
  );
});

test("the seal's usual case: each follower of one transaction gets its bytes, in the event's order; any other follower sends the trace the long way", () => {
  const account = formatRaw(wallet);
  const third = `0:${'EF'.repeat(32)}`;
  const [a, b] = [pendingTx(account, 3000), pendingTx(dest, 3001)];
  for (const tx of [a, b]) prepareConfirmed(trace, tx, pendingText(tx.account, Number(tx.lt)));
  const atConfirmed = (addresses: string[], extras: { includeAddressBook?: boolean } = {}) => {
    const c = client(addresses, extras);
    c.subscription = { ...c.subscription, minFinality: 'confirmed' };
    return c;
  };
  const [x, y, z] = [atConfirmed([account]), atConfirmed([dest, third]), atConfirmed([account])];
  const finalizedOnly = client([dest]);
  assert.equal(finalizedOnly.subscription.minFinality, 'finalized');
  const followers = new Map([
    [account, new Set([x, z])],
    [dest, new Set([finalizedOnly, y])],
  ]);
  const alone = aloneToEach([a, b], 42, (acc) => followers.get(acc));
  assert.deepEqual(
    alone?.map(([c, bytes]) => [c, bytes.bytes.toString('utf8')]),
    [
      [x, confirmedAhead(a, 42)!.alone.bytes.toString('utf8')],
      [z, confirmedAhead(a, 42)!.alone.bytes.toString('utf8')],
      [y, confirmedAhead(b, 42)!.alone.bytes.toString('utf8')],
    ],
    'the transactions in order, each to its followers in theirs; a client of `finalized` gets nothing now',
  );
  assert.equal(alone![0][1], confirmedAhead(a, 42)!.alone, 'the same bytes, not a copy');

  // An account's followers as the hub indexes them: every connection whose subscription holds it.
  const followersOf = (extra: StreamConnection) => (acc: string) =>
    new Set([...(acc === account ? [x] : [y]), ...(extra.subscription.addresses.has(acc) ? [extra] : [])]);
  assert.equal(aloneToEach([a, b], 42, followersOf(atConfirmed([account, dest]))), undefined, 'a client of both: one notification of two');
  assert.equal(aloneToEach([a, b], 42, followersOf(atConfirmed([account], { includeAddressBook: true }))), undefined, 'an address book');
  assert.equal(aloneToEach([a, b], 43, followersOf(z)), undefined, 'made for another block');
  const c = pendingTx(dest, 3002);
  assert.equal(aloneToEach([a, c], 42, followersOf(z)), undefined, 'a transaction not made ahead');
  assert.deepEqual(
    aloneToEach([a, b], 42, () => undefined),
    [],
    'nobody follows them',
  );
});

test("the seal's usual case written at once: the same frames to the same clients in the same order as aloneToEach, each told client forgetting the trace's `pending`; nothing written when it does not hold", () => {
  const account = formatRaw(wallet);
  const third = `0:${'12'.repeat(32)}`;
  const [a, b] = [pendingTx(account, 4000), pendingTx(dest, 4001)];
  for (const tx of [a, b]) prepareConfirmed(trace, tx, pendingText(tx.account, Number(tx.lt)));
  const writes: [string, Buffer][] = [];
  const recording = (name: string, addresses: string[], extras: { includeAddressBook?: boolean } = {}) => {
    const transport: Transport = {
      buffered: () => 0,
      write: () => assert.fail('a frame made ahead goes out as it is'),
      writeFrame: (frame) => (writes.push([name, frame]), true),
      close: () => undefined,
    };
    const c = new StreamConnection(name, transport, 1 << 20, 0, undefined, () => undefined);
    c.subscription = {
      ...emptySubscription(),
      addresses: new Set(addresses),
      types: new Set(['transactions']),
      minFinality: 'confirmed',
      ...extras,
    };
    return c;
  };
  const [x, y, z] = [recording('x', [account]), recording('y', [dest, third]), recording('z', [account])];
  const finalizedOnly = client([dest]);
  const followers = new Map([
    [account, new Set([x, z])],
    [dest, new Set([finalizedOnly, y])],
  ]);
  const expected = aloneToEach([a, b], 42, (acc) => followers.get(acc))!;
  // x was told the trace at `pending`: until `confirmed` it may be invalidated (trace_invalidated), not after.
  x.told(trace.externalHashNorm, 'pending');
  assert.ok(x.unsettled.has(trace.externalHashNorm));
  assert.equal(
    tellAlone([a, b], 42, (acc) => followers.get(acc), trace.externalHashNorm),
    true,
  );
  assert.deepEqual(
    writes.map(([name, frame]) => [name, frame]),
    expected.map(([c, bytes]) => [c.id, bytes.frame]),
    'x and z the first transaction, y the second; the client of `finalized` nothing',
  );
  assert.equal(writes[0][1], confirmedAhead(a, 42)!.alone.frame, 'the frame made ahead, not a copy');
  // A trace told at `confirmed` has landed, and the pending layer invalidates only a trace that never did: nothing is
  // kept of it for trace_invalidated (a Set entry per client and notification until `finalized` before).
  for (const c of [x, y, z]) assert.ok(!c.unsettled.has(trace.externalHashNorm), `${c.id} keeps nothing of the trace`);
  assert.equal(finalizedOnly.unsettled.size, 0);

  writes.length = 0;
  const withBook = recording('w', [dest], { includeAddressBook: true });
  const both = recording('v', [account, dest]);
  const cases: [string, Map<string, Set<StreamConnection>>, number][] = [
    [
      'an address book',
      new Map([
        [account, new Set([x])],
        [dest, new Set([withBook])],
      ]),
      42,
    ],
    [
      'a client of both transactions',
      new Map([
        [account, new Set([x, both])],
        [dest, new Set([y, both])],
      ]),
      42,
    ],
    ['made for another block', new Map([[account, new Set([x])]]), 43],
  ];
  x.told('other', 'pending');
  for (const [why, map, seqno] of cases) {
    assert.equal(
      aloneToEach([a, b], seqno, (acc) => map.get(acc)),
      undefined,
      why,
    );
    assert.equal(
      tellAlone([a, b], seqno, (acc) => map.get(acc), 'other'),
      false,
      why,
    );
  }
  assert.deepEqual(writes, [], 'nothing written when the trace takes the long way');
  assert.ok(x.unsettled.has('other'), 'x was written nothing: what it was told at `pending` stays');
  assert.ok(![y, z, withBook, both].some((c) => c.unsettled.has('other')), 'nobody noted as told');
});

function formatRaw(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}
