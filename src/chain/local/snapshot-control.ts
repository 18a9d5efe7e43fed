/**
 * The snapshot controls of a local chain (snapshot-store.ts says how snapshots are kept, snapshot-file.ts how one
 * travels as a file): save at a sealed point; restore and import on the production lane, which put the store back,
 * then the views of it in memory, the clock and the config, and let the rewind listeners (the index) follow before
 * the next block is produced.
 */
import { Address } from '@ton/core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASECHAIN, MASTERCHAIN } from '../../ton/workchain.js';
import type { SnapshotRestored } from '../devnet-chain.js';
import type { ChainRewind } from '../types.js';
import type { SealedAccounts, WorkingAccounts } from './accounts.js';
import { ChainHead, type BlockIndex } from './blocks.js';
import type { ChainClock } from './chain-clock.js';
import type { ChainConfig } from './chain-config.js';
import { checkSnapshotName } from './control-input.js';
import type { PublicLibraries } from './libraries.js';
import { queuedFromStore } from './message-queue.js';
import type { Mining } from './mining.js';
import type { BlockProducer, Logger } from './producer.js';
import type { SnapshotInfo } from './snapshot-store.js';
import type { ChainStore } from './store.js';
import { storedConfig } from './zero-state.js';

/** The in-memory views of the store a restore or an import resets. */
export interface StoreViews {
  blocks: BlockIndex;
  head: ChainHead;
  sealed: SealedAccounts;
  working: WorkingAccounts;
  libraries: PublicLibraries;
}

export interface SnapshotControlDeps {
  globalId: number;
  store: ChainStore;
  producer: BlockProducer;
  views: StoreViews;
  clock: ChainClock;
  /** The config now and its emulator: a restore to before a config change switches both back. */
  config: ChainConfig;
  /** Restores and imports queue behind the block productions asked before them. */
  mining: Pick<Mining, 'onProductionLane'>;
  logger?: Logger;
}

export class SnapshotControl {
  private readonly rewindListeners = new Set<(rewind: ChainRewind) => unknown>();

  constructor(private readonly d: SnapshotControlDeps) {}

  list(): SnapshotInfo[] {
    return this.d.store.snapshots.list();
  }

  /**
   * Saves the chain as snapshot `name`: the block in progress is sealed first if it holds anything, so the
   * snapshot holds everything accepted before the call; then the last sealed block, the pending internal messages
   * and the clock's offset are recorded.
   */
  save(name: string): Promise<SnapshotInfo> {
    checkSnapshotName(name);
    return this.d.mining.onProductionLane(() =>
      this.d.producer.atSealedPoint(() => {
        const { mc } = this.d.views.head;
        return this.d.store.snapshots.save(name, mc.id.seqno, mc.id.rootHash, this.d.clock.now());
      }),
    );
  }

  delete(name: string): SnapshotInfo {
    checkSnapshotName(name);
    return this.d.store.snapshots.delete(name);
  }

  /**
   * Puts the chain back to snapshot `name`: later blocks are dropped (their seqnos will be produced again), the
   * accounts, the pending messages and the clock are as they were, later snapshots are dropped. Resolves once
   * the rewind listeners (the index) have followed.
   */
  async restore(name: string): Promise<SnapshotRestored> {
    checkSnapshotName(name);
    // The listeners run before the next block is produced: the index never sees a new block before the rewind.
    const rewind = await this.d.mining.onProductionLane(async () => {
      const rewound = await this.d.producer.rewind(async () => {
        const result = this.d.store.snapshots.restore(name, (seqno) => this.d.store.block(MASTERCHAIN, seqno, seqno)?.rootHash);
        this.resetViews();
        await this.resetConfig();
        return { pending: queuedFromStore(this.d.store.pendingMessages()), result };
      });
      await this.notifyRewind({
        seqno: rewound.seqno,
        accounts: rewound.accounts.map((a) => ({ address: new Address(a.workchain, a.account), shardAccount: a.boc })),
      });
      return rewound;
    });
    return { ...this.d.store.snapshots.get(name), droppedSnapshots: rewind.dropped };
  }

  /** Snapshot `name` as a chain file (snapshot-file.ts), read into memory. */
  async export(name: string): Promise<Buffer> {
    checkSnapshotName(name);
    const dir = mkdtempSync(join(tmpdir(), 'tongate-snapshot-'));
    try {
      const file = join(dir, 'chain.sqlite');
      // On the lane: VACUUM INTO must not meet a seal's open SQLite transaction.
      await this.d.producer.exclusive(() => {
        const info = this.d.store.snapshots.get(name);
        this.d.store.exportSnapshot(file, name, info.seqno);
      });
      return readFileSync(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Replaces the chain by the one in `bytes` (a file of exportSnapshot, from this network) and saves it as
   * snapshot `name`; every other snapshot is dropped (they stood on the history replaced). The rewind listeners
   * (the index) start over from nothing.
   */
  async import(name: string, bytes: Buffer): Promise<SnapshotInfo> {
    checkSnapshotName(name);
    const dir = mkdtempSync(join(tmpdir(), 'tongate-snapshot-'));
    try {
      const file = join(dir, 'chain.sqlite');
      writeFileSync(file, bytes);
      this.d.store.checkImport(file);
      return await this.d.mining.onProductionLane(async () => {
        const info = await this.d.producer.rewind(async () => {
          this.d.store.importFile(file);
          this.resetViews();
          await this.resetConfig();
          const { mc } = this.d.views.head;
          return {
            pending: queuedFromStore(this.d.store.pendingMessages()),
            result: this.d.store.snapshots.save(name, mc.id.seqno, mc.id.rootHash, this.d.clock.now()),
          };
        });
        await this.notifyRewind({ seqno: -1, accounts: [] });
        return info;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Called after a restore or an import, before either answers; a returned promise is awaited. */
  onRewind(listener: (rewind: ChainRewind) => unknown): () => void {
    this.rewindListeners.add(listener);
    return () => this.rewindListeners.delete(listener);
  }

  /**
   * The config the store now holds (its config contract's data as of the last block), if it is not the one the
   * chain runs under: the emulator is prepared for it and switched to (a restore to before a /devnet/config change).
   */
  private async resetConfig(): Promise<void> {
    const stored = storedConfig(this.d.store, this.d.globalId);
    if (stored.cell.hash().equals(this.d.config.cell.hash())) return;
    this.d.config.switchTo(await this.d.config.prepare(stored.cell));
  }

  /** The store was put back (restore, import): the views of it in memory follow. */
  private resetViews(): void {
    const { blocks, head, sealed, working, libraries } = this.d.views;
    libraries.reset(this.d.store.publicLibraries());
    blocks.clear();
    sealed.clear();
    working.clear();
    const last = this.d.store.lastMcSeqno()!;
    head.reset(
      blocks.get(MASTERCHAIN, 0, last)!,
      blocks.get(MASTERCHAIN, last, last)!,
      blocks.get(BASECHAIN, last, last)!,
      ChainHead.recentIds(blocks, last),
    );
    this.d.clock.reload();
  }

  private async notifyRewind(rewind: ChainRewind): Promise<void> {
    const results = [...this.rewindListeners].map((listener) => Promise.resolve().then(() => listener(rewind)));
    for (const result of await Promise.allSettled(results)) {
      if (result.status === 'rejected') this.d.logger?.error({ err: result.reason, seqno: rewind.seqno }, 'a rewind listener failed');
    }
  }
}
