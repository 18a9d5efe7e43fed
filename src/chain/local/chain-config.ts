/**
 * The config a chain runs under now, and the emulator bound to it (the emulator takes its config when it is
 * created: a new config is a new emulator in the pool's workers). `POST /devnet/config` prepares the next one
 * (the workers load it, refusing a config the emulator cannot read) before switching, so a refused config
 * changes nothing. The config's home is the config contract's data (system-accounts.ts).
 */
import type { Cell } from '@ton/core';
import { networkConfigOf, type NetworkConfig } from './config.js';
import type { EmulatorPool, PooledEmulator } from '../emulator/emulator-pool.js';
import { ChainInputError } from '../errors.js';

export interface PreparedConfig {
  config: NetworkConfig;
  emulator: PooledEmulator;
}

export class ChainConfig {
  constructor(
    private readonly pool: EmulatorPool,
    private current: PreparedConfig,
  ) {}

  get cell(): Cell {
    return this.current.config.cell;
  }

  get network(): NetworkConfig {
    return this.current.config;
  }

  get emulator(): PooledEmulator {
    return this.current.emulator;
  }

  /** An emulator for `cell`, loaded by the workers; ChainInputError when the emulator refuses that config. */
  async prepare(cell: Cell): Promise<PreparedConfig> {
    const config = networkConfigOf(cell);
    const emulator = this.pool.emulator(config.base64);
    try {
      await emulator.ready();
    } catch (err) {
      emulator.close();
      throw new ChainInputError(`params: the TON emulator refused the resulting config (${(err as Error).message})`);
    }
    return { config, emulator };
  }

  /** From now on calls use `next`; the previous emulator is released (calls already sent still answer). */
  switchTo(next: PreparedConfig): void {
    const previous = this.current;
    this.current = next;
    if (previous.emulator !== next.emulator) previous.emulator.close();
  }

  close(): void {
    this.current.emulator.close();
  }
}
