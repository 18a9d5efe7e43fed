/**
 * Which masterchain blocks tongate believes: the config's init block (a key block, or the zero state), and every
 * block a liteserver proves from it (liteServer.getBlockProof) as tonlib proves them: forward links from key block
 * to key block, each signed by more than two thirds of the validators its source key block's config names, then
 * one last link to the block asked about. The newest key block proven so far is kept, so a new head costs one
 * query and one link (its header and its signatures; the validator set of that key block is read once).
 */
import { performance } from 'node:perf_hooks';
import type { BlockId } from '../../types.js';
import { fromTlBlockId, toTlBlockId } from '../blocks.js';
import { LiteDataError } from '../errors.js';
import type { LitePool } from '../pool.js';
import type { KeyBlockStore } from './key-block-store.js';
import { checkBackLink, checkForwardLink, describeBlock, sameBlock, ValidatorSetCache, type CheckedLink } from './links.js';
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
  /** CPU (wall time of the synchronous checks, on this thread) spent checking, in ms. */
  checkMs: number;
  /** Proofs refused. */
  refused: number;
}

export class MasterchainTrust {
  private key: BlockId;
  private readonly keyBlocks = new Map<number, BlockId>();
  private readonly proven = new Map<string, BlockId>();
  private readonly provenBySeqno = new Map<number, BlockId>();
  private readonly validatorSets = new ValidatorSetCache();
  private queue: Promise<unknown> = Promise.resolve();
  readonly stats: TrustStats = { queries: 0, links: 0, signatures: 0, checkMs: 0, refused: 0 };

  constructor(
    private readonly pool: LitePool,
    /** The trusted starting point: the global config's init block (or its zero state). */
    readonly init: BlockId,
    /** Where the newest proven key block is kept across restarts (key-block-store.ts); none: proven from init each start. */
    private readonly store?: KeyBlockStore,
  ) {
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
    let from = this.key;
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
          check: (answer) => {
            const checked = this.checkChain(answer as PartialBlockProof, known, target);
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
    }
    throw new LiteDataError(`masterchain block ${target.seqno}: no proof within ${MAX_PAGES} pages`);
  }

  /** One answer of getBlockProof, checked link by link from `known`; the proven key blocks are kept. */
  private checkChain(answer: PartialBlockProof, known: BlockId, target: BlockId): { to: BlockId; complete: boolean } {
    const started = performance.now();
    try {
      if (!sameBlock(fromTlBlockId(answer.from), known)) throw new LiteDataError(`block proof: starts at another block than ${describeBlock(known)}`);
      let cur = known;
      const proven: CheckedLink[] = [];
      for (const step of answer.steps) {
        // Where it starts first: a link from anywhere else is not worth checking.
        if (!sameBlock(fromTlBlockId(step.from), cur)) throw new LiteDataError(`block proof: link ${proven.length + 1} does not start where the previous one ends`);
        const link = step.kind === 'liteServer.blockLinkForward' ? checkForwardLink(step, this.validatorSets) : checkBackLink(step);
        if (step.kind === 'liteServer.blockLinkForward') this.stats.signatures += step.signatures.signatures.length;
        proven.push(link);
        cur = link.to;
      }
      const to = fromTlBlockId(answer.to);
      if (!sameBlock(cur, to)) throw new LiteDataError('block proof: the links end at another block than the proof says');
      if (answer.complete && !sameBlock(to, target)) throw new LiteDataError(`block proof: complete, but ends at ${describeBlock(to)} instead of ${describeBlock(target)}`);
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
        check: (answer) => {
          if (!this.isProven(head)) throw new LiteDataError(`masterchain block ${head.seqno} is not proven`);
          if (!this.checkChain(answer as PartialBlockProof, head, target).complete) throw new LiteDataError('block proof: incomplete for an older block');
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
