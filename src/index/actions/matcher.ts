/**
 * How a typed action is recognised (ton-indexer's `basic_matchers.py`): a matcher tests one block, then asks its
 * child matcher of each block after it (or its parent matcher of the block before it); when every part it needs
 * matched it builds the typed block from all of them. Excesses and bounces right after the matched block are
 * taken along, so they are part of the action rather than actions of their own.
 *
 * A matcher whose build throws (a body that does not parse, blocks that do not hang together) does not match:
 * the blocks stay as they were, and later matchers or the basic actions describe them.
 */
import { Block, isCallContract } from './blocks.js';
import { OP } from './bodies.js';

export interface MatcherOptions {
  child?: Matcher;
  parent?: Matcher;
  /** Matchers that must each match a different block after this one (in order of the list). */
  children?: Matcher[];
  optional?: boolean;
  /** Take excesses (0xd53276db) right after the block along (default true). */
  includeExcess?: boolean;
  /** Take bounces (0xffffffff) right after the block along (default true). */
  includeBounces?: boolean;
}

export class Matcher {
  readonly optional: boolean;

  constructor(readonly options: MatcherOptions = {}) {
    this.optional = options.optional ?? false;
  }

  test(_block: Block): boolean {
    return true;
  }

  /** The blocks of the match (the built block first), or null: no match. */
  build(block: Block, others: Block[]): Block[] {
    return [block, ...others];
  }

  tryBuild(block: Block | null): Block[] | null {
    if (block === null || !this.test(block)) return null;
    const found: Block[] = [];
    if (!this.matchChildren(block, found) || !this.matchParent(block, found)) return null;
    let built: Block[];
    try {
      built = this.build(block, found);
    } catch {
      return null;
    }
    const { includeExcess = true, includeBounces = true } = this.options;
    for (const next of block.nextBlocks) {
      if (!isCallContract(next) || next.opcode === null) continue;
      if ((includeExcess && next.opcode === OP.excess) || (includeBounces && next.opcode === OP.bounced)) built.push(next);
    }
    return built;
  }

  private matchChildren(block: Block, found: Block[]): boolean {
    const { child, children } = this.options;
    let matched = true;
    if (child) {
      for (const next of block.nextBlocks) {
        const result = child.tryBuild(next);
        if (result) found.push(...result);
      }
      matched = child.optional || found.length > 0;
    }
    if (children) {
      const result = matchEach(children, block.nextBlocks);
      if (result) found.push(...result);
      else matched = false;
    }
    return matched;
  }

  private matchParent(block: Block, found: Block[]): boolean {
    const { parent } = this.options;
    if (!parent) return true;
    const result = parent.tryBuild(block.previousBlock);
    if (result) found.push(...result);
    return result !== null || parent.optional;
  }
}

/** Each matcher takes the first still unclaimed block it matches; a required one that matches none fails them all. */
function matchEach(matchers: Matcher[], blocks: Block[]): Block[] | null {
  const free = [...blocks];
  const found: Block[] = [];
  for (const matcher of matchers) {
    const i = free.findIndex((b) => {
      const result = matcher.tryBuild(b);
      if (result) found.push(...result);
      return result !== null;
    });
    if (i >= 0) free.splice(i, 1);
    else if (!matcher.optional) return null;
  }
  return found;
}

/** A contract call with this opcode. */
export class ContractMatcher extends Matcher {
  constructor(
    readonly opcode: number,
    options: MatcherOptions = {},
  ) {
    super(options);
  }

  override test(block: Block): boolean {
    return isCallContract(block, this.opcode);
  }
}

/** The first of `matchers` that matches. */
export class OrMatcher extends Matcher {
  constructor(
    readonly matchers: Matcher[],
    options: MatcherOptions = {},
  ) {
    super(options);
  }

  override test(block: Block): boolean {
    return this.matchers.some((m) => m.test(block));
  }

  override tryBuild(block: Block | null): Block[] | null {
    for (const matcher of this.matchers) {
      const result = matcher.tryBuild(block);
      if (result) return result;
    }
    return null;
  }
}

/** A block of this type (a typed block an earlier matcher built). */
export class BlockTypeMatcher extends Matcher {
  constructor(
    readonly type: string,
    options: MatcherOptions = {},
  ) {
    super(options);
  }

  override test(block: Block): boolean {
    return block.type === this.type;
  }
}

/** A block `test` accepts (toncenter's GenericMatcher). */
export class GenericMatcher extends Matcher {
  constructor(
    private readonly accepts: (block: Block) => boolean,
    options: MatcherOptions = {},
  ) {
    super(options);
  }

  override test(block: Block): boolean {
    return this.accepts(block);
  }
}

/**
 * A marker put before a labelled matcher's blocks in a match (toncenter's LabelBlock): a build tells which of its
 * parts matched which step (`labelled`); the marker itself is never merged (`unlabelled`).
 */
export class LabelBlock extends Block {
  constructor(
    readonly label: string,
    readonly block: Block,
  ) {
    super('label', []);
  }
}

/** `matcher`, its match marked with `label` (toncenter's `labeled`). */
export class LabeledMatcher extends Matcher {
  constructor(
    readonly label: string,
    private readonly matcher: Matcher,
  ) {
    super({ optional: matcher.optional });
  }

  override test(block: Block): boolean {
    return this.matcher.test(block);
  }

  override tryBuild(block: Block | null): Block[] | null {
    const result = this.matcher.tryBuild(block);
    return result === null ? null : [new LabelBlock(this.label, block!), ...result];
  }
}

export const labeled = (label: string, matcher: Matcher): Matcher => new LabeledMatcher(label, matcher);

/** The block a match marked with `label` (the first one), if any. */
export function labelled(blocks: Block[], label: string): Block | undefined {
  for (const b of blocks) if (b instanceof LabelBlock && b.label === label) return b.block;
  return undefined;
}

/** A match's blocks without the label markers, each once: what a typed block merges. */
export const unlabelled = (blocks: Block[]): Block[] => [...new Set(blocks.filter((b) => !(b instanceof LabelBlock)))];

/**
 * A chain of `repeating` matches, each on a block after the previous one's, until `exit` matches (toncenter's
 * RecursiveMatcher): JVault's referral updates, passed from wallet to wallet.
 */
export class RecursiveMatcher extends Matcher {
  constructor(
    private readonly repeating: Matcher,
    private readonly exit: Matcher | null,
    options: MatcherOptions = {},
  ) {
    super(options);
  }

  override test(block: Block): boolean {
    return this.repeating.test(block);
  }

  override tryBuild(block: Block | null): Block[] | null {
    if (block === null || !this.test(block)) return null;
    const found: Block[] = [];
    let current: Block[] = [block];
    for (let finished = false; !finished && current.length > 0;) {
      const checked = current;
      current = [];
      for (const candidate of checked) {
        const exited = this.exit?.tryBuild(candidate);
        if (exited) {
          found.push(...exited);
          finished = true;
          break;
        }
        const repeated = this.repeating.tryBuild(candidate);
        if (repeated) {
          found.push(...repeated);
          for (const b of repeated) current.push(...b.nextBlocks);
          break;
        }
      }
    }
    if (found.length === 0) return null;
    const built = [block, ...new Set(found)];
    const { includeExcess = true, includeBounces = true } = this.options;
    for (const next of block.nextBlocks) {
      if (!isCallContract(next) || next.opcode === null) continue;
      if ((includeExcess && next.opcode === OP.excess) || (includeBounces && next.opcode === OP.bounced)) built.push(next);
    }
    return built;
  }
}
