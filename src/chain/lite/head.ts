/**
 * The lite chain's masterchain head: the newest block the pool has seen (proven from the config's init block
 * before the pool reports it: block-proofs/), fetched before reads are pinned to it. Older masterchain blocks
 * are proven back from it; whoever keeps up with the chain (the index) is told of each new head.
 */
import type { liteServer_masterchainInfo } from 'ton-lite-client/dist/schema.js';
import type { Logger } from 'pino';
import type { GlobalConfig } from '../../ton/global-config.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import { NotFound } from '../errors.js';
import type { Block, BlockId, MasterchainInfo } from '../types.js';
import { fromTlBlockId, type LiteBlocks, type LoadedBlock } from './blocks.js';
import type { MasterchainTrust } from './block-proofs/masterchain-trust.js';

interface Head {
  mc: LoadedBlock;
  stateRootHash: Buffer;
}

export class LiteHead {
  /** The zero state, the chain's first "block" (only its id is known). */
  readonly first: Block;
  private head!: Head;
  private advancing: Promise<void> | undefined;
  private readonly listeners = new Set<(seqno: number) => void>();

  constructor(
    private readonly blocks: LiteBlocks,
    private readonly trust: MasterchainTrust,
    globalConfig: GlobalConfig,
    /** Told of a new head when somebody listens (the follower reads its block ahead). */
    private readonly prefetch: (seqno: number) => void,
  ) {
    this.first = zeroStateBlock(globalConfig);
  }

  /** The head's masterchain block. */
  get mc(): LoadedBlock {
    return this.head.mc;
  }

  /** A new head from the pool: its block is fetched (and checked) before reads are pinned to it. */
  async advance(info: liteServer_masterchainInfo): Promise<void> {
    if (this.head && info.last.seqno <= this.head.mc.block.id.seqno) return;
    const mc = await this.blocks.byId(fromTlBlockId(info.last));
    if (this.head && mc.block.id.seqno <= this.head.mc.block.id.seqno) return;
    this.head = { mc, stateRootHash: info.stateRootHash };
    if (this.listeners.size > 0) this.prefetch(mc.block.id.seqno);
    for (const listener of this.listeners) listener(mc.block.id.seqno);
  }

  /** Advances to a head the pool reported after open(); a failure is logged, the next head tries again. */
  follow(info: liteServer_masterchainInfo, logger: Logger | undefined): void {
    this.advancing = this.advance(info).catch((err: Error) =>
      logger?.warn({ reason: err.message }, 'cannot load the new masterchain block'),
    );
  }

  /** Resolves once the advance in progress (if any) is done. */
  settled(): Promise<void> | undefined {
    return this.advancing;
  }

  masterchainInfo(): MasterchainInfo {
    return { last: this.head.mc.block, first: this.first, stateRootHash: this.head.stateRootHash };
  }

  /** Calls `listener` with each new masterchain seqno, once its block is fetched. */
  /** Whether anything follows the heads (an index): only then are a reported head's blocks worth fetching early. */
  get followed(): boolean {
    return this.listeners.size > 0;
  }

  onHead(listener: (seqno: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Masterchain block `seqno` (NotFound when the liteservers do not have it), or the head. */
  async masterchainBlock(seqno?: number, prove = true): Promise<LoadedBlock> {
    const head = this.head.mc;
    if (seqno === undefined || seqno === head.block.id.seqno) return head;
    if (seqno > head.block.id.seqno) throw new NotFound(`masterchain block ${seqno} not found (the newest is ${head.block.id.seqno})`);
    const loaded = await this.blocks.byRef({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno });
    if (!loaded) throw new NotFound(`masterchain block ${seqno} not found`);
    // An older block's id, as the liteserver looked it up, is proven back from the proven head (one backward
    // link, kept), unless it was a proven head itself or the block after it names it.
    return prove ? this.proven(loaded)! : loaded;
  }

  /** A masterchain block is handed out once its id is proven (proveOlder); a shard block as it is. */
  proven(loaded: LoadedBlock | undefined): Promise<LoadedBlock> | undefined {
    if (!loaded) return undefined;
    const id = loaded.block.id;
    const head = this.head.mc.block.id;
    if (id.workchain !== MASTERCHAIN || id.seqno >= head.seqno) return Promise.resolve(loaded);
    return this.proveOlder(id, head).then(() => loaded);
  }

  /** An older masterchain block's id proven back from the head (`head`: the head's id, if already read). */
  proveOlder(id: BlockId, head: BlockId = this.head.mc.block.id): Promise<void> {
    return this.trust.proveOlder(id, head, (next) => this.blocks.cached(next)?.block.prevBlocks[0]);
  }
}

/** The zero state as the first "block": only its id is known from the config (it is a state, not a block). */
function zeroStateBlock(config: GlobalConfig): Block {
  const z = config.zeroState;
  return {
    id: { workchain: z.workchain, shard: z.shard, seqno: z.seqno, rootHash: z.rootHash, fileHash: z.fileHash },
    globalId: 0,
    version: 0,
    genUtime: 0,
    startLt: 0n,
    endLt: 0n,
    prevBlocks: [],
    stateRootHash: z.rootHash,
    randSeed: Buffer.alloc(32),
    txCount: 0,
    isKeyBlock: true,
    prevKeyBlockSeqno: 0,
    minRefMcSeqno: 0,
  };
}
