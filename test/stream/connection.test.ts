/**
 * A client that stops reading: what it leaves unread grows in its socket's buffer; past the bound the connection is
 * closed with the reason, its slot released, and nothing more is written to it. The transport here is a socket
 * whose reader never reads (every byte written stays buffered).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StreamConnection, type Transport } from '../../src/stream/connection.js';

test('a slow consumer is closed with a reason once its unread bytes pass the bound, and only it', () => {
  const unread = (): Transport & { written: string[]; closed?: string; bytes: number } => {
    const t = {
      written: [] as string[],
      bytes: 0,
      closed: undefined as string | undefined,
      buffered: () => t.bytes,
      write: (text: string) => {
        t.written.push(text);
        t.bytes += text.length;
      },
      close: (reason: string) => {
        t.closed = reason;
      },
    };
    return t;
  };
  const slowSocket = unread();
  const released: string[] = [];
  const slow = new StreamConnection('slow', slowSocket, 1000, 0, 'key_1', (c) => released.push(c.id));
  const notification = 'x'.repeat(300);
  for (let i = 0; i < 10; i++) slow.send(notification);
  assert.equal(slowSocket.written.length, 3, 'three fit under 1,000 bytes; the fourth would not');
  assert.equal(slowSocket.closed, 'slow consumer: more than 1000 bytes waiting to be read');
  assert.equal(slow.closed, true);
  assert.deepEqual(released, ['slow'], 'its place is given back once');

  const fastSocket = unread();
  const fast = new StreamConnection('fast', fastSocket, 1000, 0, 'key_1', () => undefined);
  for (let i = 0; i < 10; i++) {
    fast.send(notification);
    fastSocket.bytes = 0; // this one reads everything
  }
  assert.equal(fastSocket.written.length, 10);
  assert.equal(fast.closed, false);
});

test('a client keeps a trace for trace_invalidated only while it was told it at `pending`: a trace told at `confirmed` or `finalized` has landed, and only one that never landed is invalidated', () => {
  const transport: Transport = { buffered: () => 0, write: () => undefined, close: () => undefined };
  const c = new StreamConnection('c', transport, 1000, 0, undefined, () => undefined);
  c.told('A', 'pending');
  assert.deepEqual([...c.unsettled], ['A']);
  c.told('B', 'confirmed');
  c.told('C', 'finalized');
  assert.deepEqual([...c.unsettled], ['A'], 'nothing kept of a trace first told at `confirmed` or `finalized`');
  c.told('A', 'confirmed');
  assert.equal(c.unsettled.size, 0, 'told `pending`, then `confirmed`: it landed, forgotten');
});
