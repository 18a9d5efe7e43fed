/**
 * The devnet controls that change a chain's state from outside: its clock (time controls), an account's state
 * (surgery, without a transaction), an internal message no transaction sent, and config params. Each that changes
 * state seals the block it is made in, whatever the mining mode, and resolves with that block's seqno.
 */
import type { Address, Cell } from '@ton/core';
import type { ChainTime, InjectedMessage } from '../devnet-chain.js';
import { AccountView } from '../account-view.js';
import { patchedShardAccount, replacedShardAccount, type AccountPatch } from './account-surgery.js';
import type { ChainClock } from './chain-clock.js';
import type { ChainConfig } from './chain-config.js';
import { changedConfig } from './config-change.js';
import { checkUtime, parseInternal } from './control-input.js';
import { ChainInputError } from '../errors.js';
import { ChainStopped } from './errors.js';
import { holdsAccounts } from '../messages.js';
import type { Mining } from './mining.js';
import type { BlockProducer } from './producer.js';
import type { ChainReader } from './reader.js';
import { configContractAddress, configContractData, readConfigContractData } from './system-accounts.js';

export interface StateControlDeps {
  /** The network's name, for ChainStopped. */
  name: string;
  producer: BlockProducer;
  reader: Pick<ChainReader, 'masterchainInfo' | 'getTransactionsByMessage'>;
  /** The chain's clock, which the time controls move. */
  clock: ChainClock;
  /** The config now and its emulator: setConfig switches both. */
  config: ChainConfig;
  /** Each change asks for the block that seals it. */
  mining: Pick<Mining, 'produceBlock'>;
  /** Whether the chain is stopping: nothing changes then. */
  stopping(): boolean;
}

export class StateControl {
  private configChanges: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: StateControlDeps) {}

  // ---- time ----

  /** The chain's clock: its time now, the last block's gen_utime, the next block's if pinned. */
  time(): ChainTime {
    const nowMs = this.d.clock.now();
    return {
      utime: Math.floor(nowMs / 1000),
      nowMs,
      lastBlockUtime: this.d.reader.masterchainInfo().last.genUtime,
      nextBlockUtime: this.d.clock.nextBlockUtime,
      aheadSeconds: Math.round(this.d.clock.aheadMs / 1000),
    };
  }

  /** Moves the chain's time forward: the next block opened, its transactions and get-methods see it. */
  async increaseTime(seconds: number): Promise<ChainTime> {
    if (!Number.isInteger(seconds) || seconds < 0) throw new ChainInputError(`seconds: expected a non-negative integer, got ${seconds}`);
    await this.d.producer.retime(() => this.d.clock.increase(seconds));
    return this.time();
  }

  /** Sets the chain's time (refused before the last block's gen_utime: time never goes back). */
  async setTime(utime: number): Promise<ChainTime> {
    checkUtime(utime, 'utime');
    await this.d.producer.retime((notBefore) => this.d.clock.set(utime, notBefore));
    return this.time();
  }

  /** The next block's gen_utime, exactly; the chain's time runs on from there. */
  async setNextBlockTime(utime: number): Promise<ChainTime> {
    checkUtime(utime, 'utime');
    await this.d.producer.retime((notBefore) => this.d.clock.pinNextBlock(utime, notBefore));
    return this.time();
  }

  // ---- state surgery and config ----

  /**
   * Sets an account's balance, code and/or data, or its whole ShardAccount, without a transaction, and seals
   * the change in a block (whatever the mining mode) so every reader sees it. Resolves with that block's seqno.
   */
  async setAccount(address: Address, change: AccountPatch | { shardAccount: Cell }): Promise<{ seqno: number }> {
    if (this.d.stopping()) throw new ChainStopped(this.d.name);
    if (!holdsAccounts(address.workChain)) {
      throw new ChainInputError(`address: workchains 0 and -1 hold accounts on this chain, not ${address.workChain}`);
    }
    if (address.equals(configContractAddress(this.d.config.cell))) {
      throw new ChainInputError('address: the config contract holds the config; change it with POST /devnet/config');
    }
    const { sealed } = await this.d.producer.replaceAccount(address, (current, genUtime) =>
      'shardAccount' in change
        ? replacedShardAccount(address, change.shardAccount)
        : patchedShardAccount(address, current, change, genUtime),
    );
    this.d.mining.produceBlock().catch(() => undefined);
    return { seqno: await sealed };
  }

  /**
   * Delivers an internal message that no transaction sent (any source, no signature): recorded in a block and
   * delivered in it (unless the block's cap is reached: then in a later one). Seals that block whatever the
   * mining mode. Resolves with the block the message is recorded in and, if delivered there, its transaction.
   */
  async sendInternal(boc: Buffer): Promise<InjectedMessage> {
    if (this.d.stopping()) throw new ChainStopped(this.d.name);
    const { cell, message } = parseInternal(boc, this.d.reader.masterchainInfo().last.endLt);
    if (message.info.type !== 'internal') throw new Error('unreachable');
    const hash = cell.hash();
    const { sealed } = await this.d.producer.injectInternal({
      cell,
      boc: cell.toBoc(),
      hash,
      dest: message.info.dest,
      createdLt: message.info.createdLt,
      message,
    });
    this.d.mining.produceBlock().catch(() => undefined);
    const seqno = await sealed;
    const tx = this.d.reader.getTransactionsByMessage(hash)[0];
    return { hash, seqno, ...(tx ? { transaction: { hash: tx.hash, lt: tx.lt } } : {}) };
  }

  /**
   * Sets config params (fee experiments: gas prices, limits): checked (config-change.ts), loaded by the emulator
   * workers, then written into the config contract's data in a block sealed now (whatever the mining mode).
   * Transactions after the change, get-methods and v2 getConfigParam/getConfigAll use the new config. Resolves
   * with that block's seqno and the config contract's new seqno.
   */
  setConfig(params: ReadonlyMap<number, Cell>): Promise<{ seqno: number; configSeqno: number }> {
    // One change at a time: each starts from the config the previous one left (none is lost to a race).
    const change = this.configChanges.then(() => this.changeConfig(params));
    this.configChanges = change.catch(() => undefined);
    return change;
  }

  private async changeConfig(params: ReadonlyMap<number, Cell>): Promise<{ seqno: number; configSeqno: number }> {
    if (this.d.stopping()) throw new ChainStopped(this.d.name);
    const current = this.d.config.cell;
    const next = await this.d.config.prepare(changedConfig(current, params).cell);
    const address = configContractAddress(current);
    let configSeqno = 0;
    let switched = false;
    try {
      const { sealed } = await this.d.producer.replaceAccount(address, (shardAccount, genUtime) => {
        const view = new AccountView(address, Buffer.from(shardAccount, 'base64'));
        configSeqno = (view.data ? readConfigContractData(view.data).seqno : 0) + 1;
        const change = patchedShardAccount(address, shardAccount, { data: configContractData(next.config.cell, configSeqno) }, genUtime);
        // On the producer's lane, nothing in flight: every transaction sent from here on runs under the new config.
        this.d.config.switchTo(next);
        switched = true;
        return change;
      });
      this.d.mining.produceBlock().catch(() => undefined);
      return { seqno: await sealed, configSeqno };
    } finally {
      if (!switched) next.emulator.close();
    }
  }
}
