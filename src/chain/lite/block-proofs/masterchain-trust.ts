/**
 * Which masterchain blocks tongate believes: the config's init block (a key block, or the zero state), and every
 * block a liteserver proves from it (liteServer.getBlockProof) as tonlib proves them: forward links from key block
 * to key block, each signed by more than two thirds of the validators its source key block's config names, then
 * one last link to the block asked about. The newest key block proven so far is kept, so a new head costs one
 * query and one link (its header and its signatures; the validator set of that key block is read once).
 * Forward links are checked by a ForwardLinkChecker (link-checker.ts: on a thread of its own in LiteChain), so the
 * thousand key blocks of a first start on mainnet do not hold up the thread that serves HTTP; while such a long
 * chain is proven, a ProgressReporter logs n of N links, the rate and the time left, and `proving()` says it.
 */
import { performance } from 'node:perf_hooks';
import type { BlockId } from '../../types.js';
import type { Clock } from '../../../util/clock.js';
import { ProgressReporter, terminalBar, type ProgressLogger, type ProgressSnapshot } from '../../../util/progress.js';
import { fromTlBlockId, toTlBlockId } from '../blocks.js';
import { LiteDataError } from '../errors.js';
import type { LitePool } from '../pool.js';
import type { KeyBlockStore } from './key-block-store.js';
import { inlineLinkChecker, type ForwardLinkChecker } from './link-checker.js';
import { checkBackLink, describeBlock, sameBlock, ValidatorSetCache, type CheckedLink } from './links.js';
import { getBlockProof, type PartialBlockProof } from './proof-tl.js';

/** A liteserver answers at most 16 links per query; past this many pages the chain is given up (a guard). */
const MAX_PAGES = 4096;
/** getBlockProof mode: bit 0, target_block is given. */
const WITH_TARGET = 1;
/** ...and read from the bigger block's own state (0x1000), not the server's newest. */
export const TARGET_FROM_DB = 0x1001;

export interface TrustStats {
  /** getBlockProof queries answered and checked. */
  queries: number;
  /** Links checked (forward and backward). */
  links: number;
  /** Signatures verified. */
  signatures: number;
  /** Time from an answer to its verdict (its forward links checked on the checker's thread), in ms. */
  checkMs: number;
  /** Proofs refused. */
  refused: number;
}

export interface TrustOptions {
  /** Where forward links are checked (default: on this thread, one per turn of the event loop). */
  linkChecker?: ForwardLinkChecker;
  /** Where a long proof's progress is logged (none: not logged). */
  logger?: ProgressLogger;
  clock?: Clock;
}

/** A chain of links being proven that takes more than one answer (a first start far behind). */
export interface ProvingState {
  from: number;
  target: number;
  progress: ProgressSnapshot;
}

export class MasterchainTrust {
  private key: BlockId;
  private readonly keyBlocks = new Map<number, BlockId>();
  private readonly proven = new Map<string, BlockId>();
  private readonly provenBySeqno = new Map<number, BlockId>();
  private readonly checker: ForwardLinkChecker;
  private long?: { from: number; target: number; reporter: ProgressReporter };
  private queue: Promise<unknown> = Promise.resolve();
  readonly stats: TrustStats = { queries: 0, links: 0, signatures: 0, checkMs: 0, refused: 0 };

  constructor(
    private readonly pool: LitePool,
    /** The trusted starting point: the global config's init block (or its zero state). */
    readonly init: BlockId,
    /** Where the newest proven key block is kept across restarts (key-block-store.ts); none: proven from init each start. */
    private readonly store?: KeyBlockStore,
    private readonly options: TrustOptions = {},
  ) {
    this.checker = options.linkChecker ?? inlineLinkChecker(new ValidatorSetCache());
    this.key = init;
    this.keyBlocks.set(init.seqno, init);
    const kept = store?.load(init);
    if (kept) {
      this.key = kept;
      this.keyBlocks.set(kept.seqno, kept);
    }
  }

  /** The newest key block proven so far (the init block before any proof). */
  lastKeyBlock(): BlockId {
    return this.key;
  }

  /** While a chain of key blocks longer than one answer is proven: from where, to where, n of N links, ETA. */
  proving(): ProvingState | undefined {
    return this.long && { from: this.long.from, target: this.long.target, progress: this.long.reporter.snapshot() };
  }

  /** A key block on the proven chain by seqno, if the chain passed it. */
  provenKeyBlock(seqno: number): BlockId | undefined {
    return this.keyBlocks.get(seqno);
  }

  /**
   * Resolves once masterchain block `target` is proven from the trusted key block, asking `server` when given
   * (the one that reported it: a proof that fails counts against that server's breaker). Throws LiteDataError
   * (not proven), or what the pool throws.
   */
  verify(target: BlockId, server?: string): Promise<void> {
    const run = this.queue.then(() => this.prove(target, server));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async prove(target: BlockId, server?: string): Promise<void> {
    const hex = target.rootHash.toString('hex');
    if (this.proven.has(hex) || sameBlock(target, this.key)) return;
    const from = this.key;
    const start = from.seqno;
    let linksDone = 0;
    // Counted per link; once the first answer is incomplete the chain is long, and its progress is reported.
    const onLink = (link: CheckedLink) => {
      linksDone++;
      if (!this.long) return;
      this.long.reporter.setTotal(estimateLinks(linksDone, start, link.to.seqno, target.seqno));
      this.long.reporter.advance();
    };
    try {
      await this.provePages(target, server, from, start, onLink, () => linksDone);
      this.long?.reporter.finish(); // "done" only when proven; a refused proof is the pool's error to report
    } finally {
      this.long = undefined;
    }
  }

  private async provePages(
    target: BlockId,
    server: string | undefined,
    from: BlockId,
    start: number,
    onLink: (link: CheckedLink) => void,
    linksDone: () => number,
  ): Promise<void> {
    for (let page = 0; page < MAX_PAGES; page++) {
      let reached: BlockId | undefined;
      let complete = false;
      const known = from;
      const keyBefore = this.key;
      await this.pool.query(
        getBlockProof,
        { kind: 'liteServer.getBlockProof', mode: WITH_TARGET, knownBlock: toTlBlockId(known), targetBlock: toTlBlockId(target) },
        {
          server,
          check: async (answer) => {
            const checked = await this.checkChain(answer as PartialBlockProof, known, target, onLink);
            reached = checked.to;
            complete = checked.complete;
          },
        },
      );
      if (this.key !== keyBefore && this.store) {
        try {
          this.store.save(this.init, this.key);
        } catch {
          // Not kept: the next start proves from further back; nothing is believed that was not proven.
        }
      }
      if (complete) {
        this.remember(target);
        return;
      }
      from = reached!;
      if (!this.long && this.options.logger) {
        const reporter = new ProgressReporter({
          job: 'key-block proofs',
          unit: 'links',
          log: this.options.logger,
          clock: this.options.clock,
          bar: terminalBar(),
        });
        reporter.setTotal(estimateLinks(linksDone(), start, from.seqno, target.seqno));
        reporter.advance(linksDone());
        this.long = { from: start, target: target.seqno, reporter };
      }
    }
    throw new LiteDataError(`masterchain block ${target.seqno}: no proof within ${MAX_PAGES} pages`);
  }

  /** One answer of getBlockProof, checked link by link from `known`; the proven key blocks are kept. */
  private async checkChain(
    answer: PartialBlockProof,
    known: BlockId,
    target: BlockId,
    onLink?: (link: CheckedLink) => void,
  ): Promise<{ to: BlockId; complete: boolean }> {
    const started = performance.now();
    try {
      if (!sameBlock(fromTlBlockId(answer.from), known))
        throw new LiteDataError(`block proof: starts at another block than ${describeBlock(known)}`);
      // Where each link starts first (a link from anywhere else is not worth checking); then every forward link
      // goes to the checker at once, so its thread works through them while this one waits, and the verdicts are
      // taken in order: the first link refused refuses the answer.
      let cur = known;
      for (const [i, step] of answer.steps.entries()) {
        if (!sameBlock(fromTlBlockId(step.from), cur))
          throw new LiteDataError(`block proof: link ${i + 1} does not start where the previous one ends`);
        cur = fromTlBlockId(step.to);
      }
      const checks = answer.steps.map((step) => (step.kind === 'liteServer.blockLinkForward' ? this.checker.check(step) : undefined));
      for (const check of checks) check?.catch(() => undefined); // those after a refused one are not awaited
      const proven: CheckedLink[] = [];
      for (const [i, step] of answer.steps.entries()) {
        const link = step.kind === 'liteServer.blockLinkForward' ? await checks[i]! : checkBackLink(step);
        if (step.kind === 'liteServer.blockLinkForward') this.stats.signatures += step.signatures.signatures.length;
        proven.push(link);
        onLink?.(link);
      }
      const to = fromTlBlockId(answer.to);
      if (!sameBlock(cur, to)) throw new LiteDataError('block proof: the links end at another block than the proof says');
      if (answer.complete && !sameBlock(to, target))
        throw new LiteDataError(`block proof: complete, but ends at ${describeBlock(to)} instead of ${describeBlock(target)}`);
      if (!answer.complete && proven.length === 0) throw new LiteDataError('block proof: incomplete and empty');
      // Forward links move the trusted key block on; a backward link proves an older block, not a newer key block.
      for (const link of proven) {
        if (link.toKeyBlock && link.to.seqno > link.from.seqno && link.to.seqno > this.key.seqno) {
          this.key = link.to;
          this.keyBlocks.set(link.to.seqno, link.to);
        }
      }
      this.stats.queries++;
      this.stats.links += proven.length;
      return { to, complete: answer.complete };
    } catch (err) {
      this.stats.refused++;
      throw err;
    } finally {
      this.stats.checkMs += performance.now() - started;
    }
  }

  /**
   * Proves masterchain block `target`, older than the proven `head`: proven already (a head, a key block on the
   * chain), or named as previous block by the proven block after it (`prevOf`, when that block is at hand), or by
   * one backward link from `head` (getBlockProof: the head's state lists it). Throws LiteDataError otherwise.
   */
  async proveOlder(target: BlockId, head: BlockId, prevOf: (id: BlockId) => BlockId | undefined): Promise<void> {
    if (this.isProven(target)) return;
    const next = this.provenBySeqno.get(target.seqno + 1);
    const named = next && prevOf(next);
    if (named && sameBlock(named, target)) {
      this.remember(target);
      return;
    }
    await this.pool.query(
      getBlockProof,
      { kind: 'liteServer.getBlockProof', mode: TARGET_FROM_DB, knownBlock: toTlBlockId(head), targetBlock: toTlBlockId(target) },
      {
        minSeqno: head.seqno,
        check: async (answer) => {
          if (!this.isProven(head)) throw new LiteDataError(`masterchain block ${head.seqno} is not proven`);
          if (!(await this.checkChain(answer as PartialBlockProof, head, target)).complete)
            throw new LiteDataError('block proof: incomplete for an older block');
        },
      },
    );
    this.remember(target);
  }

  private remember(id: BlockId): void {
    if (this.proven.size >= 4096) {
      const oldest = this.proven.values().next().value as BlockId;
      this.proven.delete(oldest.rootHash.toString('hex'));
      if (this.provenBySeqno.get(oldest.seqno) === oldest) this.provenBySeqno.delete(oldest.seqno);
    }
    this.proven.set(id.rootHash.toString('hex'), id);
    this.provenBySeqno.set(id.seqno, id);
  }

  /** Whether `id` is a masterchain block proven here (a head, or a key block on the chain). */
  isProven(id: BlockId): boolean {
    return this.proven.has(id.rootHash.toString('hex')) || sameBlock(this.keyBlocks.get(id.seqno) ?? this.init, id);
  }
}

/**
 * Links a chain from `start` to `target` takes, estimated from those done so far: key blocks come at a roughly
 * even pace in seqnos (one per validator rotation at least), so the share of seqnos crossed is the share of links.
 */
export function estimateLinks(done: number, start: number, reached: number, target: number): number | null {
  if (reached <= start || done === 0) return null;
  return Math.max(done, Math.round((done * (target - start)) / (reached - start)));
}
