// The chain of trust over real mainnet key-block links (the captures), its forward links checked on the checking
// thread, served one link per answer as a liteserver far behind would page them: progress is reported.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { ForwardLink, PartialBlockProof } from '../../../src/chain/lite/block-proofs/proof-tl.js';
import { estimateLinks, MasterchainTrust } from '../../../src/chain/lite/block-proofs/masterchain-trust.js';
import { inlineLinkChecker, ThreadLinkChecker } from '../../../src/chain/lite/block-proofs/link-checker.js';
import { fromTlBlockId } from '../../../src/chain/lite/blocks.js';
import { LiteDataError } from '../../../src/chain/lite/errors.js';
import type { LitePool } from '../../../src/chain/lite/pool.js';
import { ManualClock } from '../../../src/util/clock.js';
import { CAPTURES_DIR, captureProof } from '../../support/mainnet-captures.js';

const chain = captureProof('chain.hex');
const skip = chain ? false : `no mainnet captures at ${CAPTURES_DIR}`;
const links = (chain?.steps ?? []) as ForwardLink[];

/** A stand-in for the pool: answers getBlockProof with the captured links, `perAnswer` at a time, and runs the check as the pool does. */
function pagedPool(perAnswer: number, tamper?: (link: ForwardLink, i: number) => ForwardLink) {
  const asked: number[] = [];
  const pool = {
    async query(_f: unknown, request: { knownBlock: { seqno: number } }, options: { check?: (answer: unknown) => unknown }) {
      asked.push(request.knownBlock.seqno);
      const first = links.findIndex((l) => l.from.seqno === request.knownBlock.seqno);
      const steps = links.slice(first, first + perAnswer).map((l, i) => (tamper ? tamper(l, first + i) : l));
      const answer: PartialBlockProof = {
        kind: 'liteServer.partialBlockProof',
        complete: first + perAnswer >= links.length,
        from: links[first].from,
        to: steps[steps.length - 1].to,
        steps,
      };
      await options.check?.(answer);
      return answer;
    },
  };
  return { pool: pool as unknown as LitePool, asked };
}

const checkers: ThreadLinkChecker[] = [];
after(async () => Promise.all(checkers.map((c) => c.close())));

test('real key-block links proven on the checking thread, one answer each: progress logged n of N, then done', { skip }, async () => {
  const checker = new ThreadLinkChecker();
  checkers.push(checker);
  const records: { fields: { progress?: { done: number; total: number | null } }; message: string }[] = [];
  const clock = new ManualClock(0);
  const { pool, asked } = pagedPool(1);
  const init = fromTlBlockId(links[0].from);
  const trust = new MasterchainTrust(pool, init, undefined, {
    linkChecker: checker,
    clock,
    logger: { info: (fields, message) => records.push({ fields: fields as never, message }) },
  });
  const target = fromTlBlockId(links[links.length - 1].to);
  let seen: ReturnType<MasterchainTrust['proving']>;
  const proving = trust.verify(target);
  // Each answer's check waits on the thread: the state is visible while it runs.
  while (!seen) {
    await new Promise((r) => setImmediate(r));
    seen = trust.proving();
    clock.advance(10_000);
    if (trust.isProven(target)) break;
  }
  await proving;
  assert.deepEqual(
    asked,
    links.map((l) => l.from.seqno),
  );
  assert.ok(trust.isProven(target));
  assert.equal(trust.lastKeyBlock().seqno, links[links.length - 1].to.seqno);
  assert.equal(trust.stats.links, 3);
  assert.ok(seen, 'the long proof was visible while it ran');
  assert.equal(seen!.from, init.seqno);
  assert.equal(seen!.target, target.seqno);
  assert.equal(trust.proving(), undefined, 'nothing is being proven any more');
  const done = records.at(-1)!;
  assert.match(done.message, /^key-block proofs: done, 3 of \d+ links/);
  assert.equal(done.fields.progress!.done, 3);
});

test('a real link altered on its way is refused by the checking thread as bad data', { skip }, async () => {
  const checker = new ThreadLinkChecker();
  checkers.push(checker);
  const { pool } = pagedPool(3, (l, i) =>
    i === 1 ? { ...l, signatures: { ...l.signatures, signatures: l.signatures.signatures.slice(0, 10) } } : l,
  );
  const trust = new MasterchainTrust(pool, fromTlBlockId(links[0].from), undefined, { linkChecker: checker });
  await assert.rejects(
    trust.verify(fromTlBlockId(links[2].to)),
    (err: Error) => err instanceof LiteDataError && /not more than two thirds/.test(err.message),
  );
  // Nothing past the refused answer is believed.
  assert.equal(trust.lastKeyBlock().seqno, links[0].from.seqno);
});

test('the checking thread and this thread agree link by link', { skip }, async () => {
  const checker = new ThreadLinkChecker();
  checkers.push(checker);
  const inline = inlineLinkChecker();
  for (const link of links) {
    const [a, b] = await Promise.all([checker.check(link), inline.check(link)]);
    assert.equal(a.signedWeight, b.signedWeight);
    assert.ok(Buffer.isBuffer(a.to.rootHash) && a.to.rootHash.equals(b.to.rootHash));
    assert.equal(a.to.shard, b.to.shard);
  }
});

test('estimateLinks: the share of seqnos crossed is the share of links', () => {
  assert.equal(estimateLinks(0, 100, 100, 1100), null);
  assert.equal(estimateLinks(10, 100, 200, 1100), 100);
  assert.equal(estimateLinks(10, 100, 1100, 1100), 10);
  assert.equal(estimateLinks(10, 100, 2000, 1100), 10, 'never fewer than done');
});

test("links sent at once are checked side by side on two threads, each verdict its own link's", { skip }, async () => {
  const checker = new ThreadLinkChecker(undefined, 2);
  checkers.push(checker);
  const results = await Promise.all([...links, ...links].map((l) => checker.check(l)));
  assert.deepEqual(
    results.map((r) => r.to.seqno),
    [...links, ...links].map((l) => l.to.seqno),
  );
  assert.equal((checker as unknown as { workers: unknown[] }).workers.length, 2);
});

test('a checking thread that dies: the links it held and later ones are checked on this thread', { skip }, async () => {
  const reasons: string[] = [];
  const checker = new ThreadLinkChecker((reason) => reasons.push(reason), 1);
  checkers.push(checker);
  await checker.check(links[0]); // the thread is up
  const held = links.map((l) => checker.check(l));
  await (checker as unknown as { workers: { terminate(): Promise<number> }[] }).workers[0].terminate();
  const results = await Promise.all(held);
  assert.deepEqual(
    results.map((r) => r.to.seqno),
    links.map((l) => l.to.seqno),
  );
  assert.equal((await checker.check(links[1])).to.seqno, links[1].to.seqno);
  assert.equal(reasons.length, 1);
  assert.match(reasons[0], /the link-checking thread exited/);
});
