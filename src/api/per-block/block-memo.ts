/**
 * Answers that change once a block, built once a block. A memo per network (keyed by its chain object) holds the
 * answers of one head block: the first request after a new block builds an answer (its JSON text), every other
 * request until the next block gets the same text; concurrent first requests share one build (the promise is
 * kept). A new head block (another `last` object from the chain, or another index position: see `headToken`)
 * drops them all. A build that fails is not kept: the next request tries again.
 *
 * Bounded: at most `maxEntries` keys per block (distinct addresses asked within one block), and with `weigh`, at
 * most `maxWeight` (say, bytes of text) kept per block; past either, answers are built and not kept, so a flood of
 * distinct questions costs what it cost before and no memory.
 */
export class BlockMemo<V> {
  private readonly slots = new WeakMap<object, { head: unknown; values: Map<string, V | Promise<V>>; weight: number }>();

  constructor(
    private readonly maxEntries = 4096,
    private readonly weigh?: (value: V) => number,
    private readonly maxWeight = Infinity,
  ) {}

  /** The answer of `key` at `head` on `owner`'s chain: kept, or built by `build` (and kept). */
  get(owner: object, head: unknown, key: string, build: () => V | Promise<V>): V | Promise<V> {
    let slot = this.slots.get(owner);
    if (slot === undefined || slot.head !== head) {
      slot = { head, values: new Map(), weight: 0 };
      this.slots.set(owner, slot);
    }
    const kept = slot.values.get(key);
    if (kept !== undefined) return kept;
    const built = build();
    if (slot.values.size >= this.maxEntries) return built;
    const held = slot;
    const values = slot.values;
    // Kept while the block's weight allows; a value past it is answered once and let go.
    const keep = (value: V) => {
      const weight = this.weigh ? this.weigh(value) : 0;
      if (held.weight + weight > this.maxWeight) values.delete(key);
      else {
        held.weight += weight;
        values.set(key, value);
      }
    };
    values.set(key, built);
    if (!(built instanceof Promise)) keep(built);
    else {
      built.then(
        (value) => {
          if (values.get(key) === built) keep(value);
        },
        () => {
          if (values.get(key) === built) values.delete(key);
        },
      );
    }
    return built;
  }
}
