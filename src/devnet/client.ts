/**
 * `tongate/devnet`: typed calls to the devnet controls of a running tongate, for test suites (and the CLI).
 * Thin on purpose: one HTTP call per method, the answer as plain values, a refusal as a DevnetError carrying the
 * server's status and words. It imports nothing of tongate, only @ton/core's types.
 *
 *   const devnet = new DevnetClient({ endpoint: 'http://127.0.0.1:8081' });
 *   await devnet.setMining('manual');
 *   await devnet.increaseTime(3600);      // then sign wallet messages with timeout: await devnet.validUntil()
 *   const { seqno } = await devnet.mine();
 *   await devnet.snapshot('clean');        // ... a test case changes the chain ...
 *   await devnet.restoreSnapshot('clean'); // and the next one starts from the same state
 */
import { Address, beginCell, Cell, storeStateInit, type StateInit } from '@ton/core';

export interface DevnetClientOptions {
  /** The network's base URL (`http://127.0.0.1:8081`); a TonClient endpoint (`.../api/v2/jsonRPC`) works too. */
  endpoint: string;
  /** tongate's --admin-token, when it has one. */
  adminToken?: string;
  /** The fetch to call with (default: the global one); e.g. one that reaches tongate another way than its base URL. */
  fetch?: typeof fetch;
}

/**
 * A result as the server's JSON has it (snake_case fields), read field by field into the typed values this client
 * returns; the OpenAPI document at /devnet/openapi.json describes each.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON off the wire, typed where it is read
type WireResult = any;

/** A control the server refused (4xx: what was wrong, in its words) or could not do (5xx). */
export class DevnetError extends Error {
  override name = 'DevnetError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Mined {
  /** The last block sealed. */
  seqno: number;
  genUtime: number;
}
export type Mining = { mode: 'auto'; intervalMs: number } | { mode: 'manual' };
export interface ChainTime {
  /** The chain's time now: what the next block gets as gen_utime (unless pinned). */
  utime: number;
  lastBlockUtime: number;
  /** Only while pinned by setNextBlockTime, until that block opens. */
  nextBlockUtime?: number;
  /** The chain's clock minus the machine's (where tongate runs), seconds: what the time controls moved. */
  aheadSeconds: number;
  /** When the chain is ahead: what that does to wallet messages (see validUntil). */
  walletNote?: string;
}
export type AccountChange = { balance?: bigint; code?: Cell; data?: Cell } | { shardAccount: Cell };
export type InternalMessage =
  { boc: Cell } | { from: Address | string; to: Address | string; value: bigint; body?: Cell; init?: StateInit; bounce?: boolean };
export interface Delivered {
  hash: string;
  blockSeqno: number;
  /** The transaction the message started (absent when the block's cap left it for a later one). */
  transaction?: { hash: string; lt: bigint };
}

export interface JettonMetadata {
  name?: string;
  symbol?: string;
  decimals?: number;
  description?: string;
  image?: string;
  /** Offchain metadata (TEP-64 0x01) instead of the fields above. */
  uri?: string;
}

export interface SnapshotInfo {
  name: string;
  /** The masterchain block it was taken at. */
  seqno: number;
  /** That block's root hash, base64. */
  rootHash: string;
  /** Unix time (the chain's clock), seconds. */
  createdAt: number;
  pendingMessages: number;
}
export interface SnapshotRestored extends SnapshotInfo {
  /** Snapshots taken after it, dropped with the blocks they stood on. */
  droppedSnapshots: string[];
}

const b64 = (cell: Cell) => cell.toBoc().toString('base64');
const addr = (a: Address | string) => (typeof a === 'string' ? a : a.toRawString());

export class DevnetClient {
  private readonly origin: string;

  constructor(private readonly options: DevnetClientOptions) {
    this.origin = new URL(options.endpoint).origin;
  }

  /** Seals `blocks` blocks (the first with everything pending). */
  async mine(blocks = 1): Promise<Mined> {
    const r = await this.call('POST', '/devnet/mine', { blocks });
    return { seqno: r.seqno, genUtime: r.gen_utime };
  }

  async mining(): Promise<Mining> {
    return miningOf(await this.call('GET', '/devnet/mining'));
  }

  /** 'manual': blocks only when asked; 'auto': a block every `intervalMs` (default: the last interval used). */
  async setMining(mode: 'auto' | 'manual', intervalMs?: number): Promise<Mining> {
    return miningOf(await this.call('POST', '/devnet/mining', { mode, ...(intervalMs !== undefined ? { interval_ms: intervalMs } : {}) }));
  }

  async time(): Promise<ChainTime> {
    return timeOf(await this.call('GET', '/devnet/time'));
  }

  async increaseTime(seconds: number): Promise<ChainTime> {
    return timeOf(await this.call('POST', '/devnet/time/increase', { seconds }));
  }

  /**
   * A wallet message's valid_until by the chain's clock: its time (or the pinned next block's) plus `seconds`.
   * Wallets refuse a message past its valid_until (exit code 36) by the chain's time, while client libraries fill
   * it from the machine's clock (@ton/ton: now + 60 s), so after increaseTime or setTime a transfer needs this:
   *
   *   await wallet.sendTransfer({ seqno, secretKey, messages, timeout: await devnet.validUntil() });
   */
  async validUntil(seconds = 60): Promise<number> {
    const time = await this.time();
    return Math.max(time.utime, time.nextBlockUtime ?? 0) + seconds;
  }

  /** Refused (DevnetError 422) before the last block's gen_utime. */
  async setTime(utime: number): Promise<ChainTime> {
    return timeOf(await this.call('POST', '/devnet/time/set', { utime }));
  }

  async setNextBlockTime(utime: number): Promise<ChainTime> {
    return timeOf(await this.call('POST', '/devnet/time/next-block', { utime }));
  }

  /** Sets balance, code and/or data (or the whole ShardAccount) without a transaction; sealed in a block. */
  async setAccount(address: Address | string, change: AccountChange): Promise<{ blockSeqno: number; status: string; balance: bigint }> {
    const body =
      'shardAccount' in change
        ? { shard_account: b64(change.shardAccount) }
        : {
            ...(change.balance !== undefined ? { balance: change.balance.toString() } : {}),
            ...(change.code ? { code: b64(change.code) } : {}),
            ...(change.data ? { data: b64(change.data) } : {}),
          };
    const r = await this.call('POST', `/devnet/accounts/${encodeURIComponent(addr(address))}`, body);
    return { blockSeqno: r.block_seqno, status: r.status, balance: BigInt(r.balance) };
  }

  /** Delivers an internal message from any address, without a signature, in a block sealed for it. */
  async sendInternal(message: InternalMessage): Promise<Delivered> {
    const body =
      'boc' in message
        ? { boc: b64(message.boc) }
        : {
            from: addr(message.from),
            to: addr(message.to),
            value: message.value.toString(),
            ...(message.body ? { body: b64(message.body) } : {}),
            ...(message.init ? { init: b64(beginCell().store(storeStateInit(message.init)).endCell()) } : {}),
            ...(message.bounce !== undefined ? { bounce: message.bounce } : {}),
          };
    const r = await this.call('POST', '/devnet/messages/internal', body);
    return {
      hash: r.hash,
      blockSeqno: r.block_seqno,
      ...(r.transaction ? { transaction: { hash: r.transaction.hash, lt: BigInt(r.transaction.lt) } } : {}),
    };
  }

  /**
   * Sets config params (param number -> the param's cell, e.g. 21: basechain gas prices); sealed in a block, then
   * every later transaction and get-method runs under the new config.
   */
  async setConfig(params: Record<number, Cell> | Map<number, Cell>): Promise<{ blockSeqno: number; configSeqno: number }> {
    const entries = params instanceof Map ? [...params] : Object.entries(params);
    const r = await this.call('POST', '/devnet/config', {
      params: Object.fromEntries(entries.map(([id, cell]) => [String(id), b64(cell)])),
    });
    return { blockSeqno: r.block_seqno, configSeqno: r.config_seqno };
  }

  /** A transfer from the faucet wallet; resolves once it is in a block. */
  async fund(address: Address | string, amount: bigint): Promise<{ hash: string; lt: bigint; blockSeqno: number }> {
    const r = await this.call('POST', '/devnet/fund', { address: addr(address), amount: amount.toString() });
    return { hash: r.hash, lt: BigInt(r.lt), blockSeqno: r.block_seqno };
  }

  /**
   * Deploys a jetton master whose admin is the faucet wallet (`uri` for offchain metadata, else onchain name,
   * symbol, decimals (9), description, image); the same metadata gives the same master.
   */
  async deployJetton(
    metadata: JettonMetadata,
  ): Promise<{ master: Address; admin: Address; alreadyDeployed: boolean; hash: string | null; blockSeqno: number }> {
    const r = await this.call('POST', '/devnet/deploy-jetton', metadata);
    return {
      master: Address.parse(r.master),
      admin: Address.parse(r.admin),
      alreadyDeployed: r.already_deployed,
      hash: r.hash,
      blockSeqno: r.block_seqno,
    };
  }

  /** Mints `amount` jetton units to `to` through a master the faucet administers; resolves once they arrived. */
  async fundJetton(
    master: Address | string,
    to: Address | string,
    amount: bigint,
  ): Promise<{ wallet: Address; balance: bigint; hash: string; lt: bigint; blockSeqno: number }> {
    const r = await this.call('POST', '/devnet/fund-jetton', { master: addr(master), to: addr(to), amount: amount.toString() });
    return { wallet: Address.parse(r.wallet), balance: BigInt(r.balance), hash: r.hash, lt: BigInt(r.lt), blockSeqno: r.block_seqno };
  }

  /** Saves the network (chain, pending messages, clock; the index follows) as snapshot `name` (409 if taken). */
  async snapshot(name: string): Promise<SnapshotInfo> {
    return snapshotOf(await this.call('POST', '/devnet/snapshots', { name }));
  }

  /** Puts the network back to snapshot `name` (later blocks and later snapshots dropped; the snapshot stays). */
  async restoreSnapshot(name: string): Promise<SnapshotRestored> {
    const r = await this.call('POST', `/devnet/snapshots/${encodeURIComponent(name)}/restore`, {});
    return { ...snapshotOf(r), droppedSnapshots: r.dropped_snapshots };
  }

  async snapshots(): Promise<SnapshotInfo[]> {
    return (await this.call('GET', '/devnet/snapshots')).snapshots.map(snapshotOf);
  }

  async deleteSnapshot(name: string): Promise<SnapshotInfo> {
    return snapshotOf(await this.call('DELETE', `/devnet/snapshots/${encodeURIComponent(name)}`));
  }

  /** Snapshot `name` as a file's bytes (for importSnapshot, here or on another tongate of the same network). */
  async exportSnapshot(name: string): Promise<Uint8Array> {
    const response = await this.fetch('GET', `/devnet/snapshots/${encodeURIComponent(name)}/export`);
    if (!response.ok) await this.refused(response, 'GET', `/devnet/snapshots/${encodeURIComponent(name)}/export`);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** Replaces the network by an exported file and saves it as snapshot `name` (other snapshots are dropped). */
  async importSnapshot(name: string, file: Uint8Array): Promise<SnapshotInfo> {
    const path = `/devnet/snapshots/${encodeURIComponent(name)}/import`;
    return snapshotOf(await this.parse(await this.fetch('POST', path, { type: 'application/octet-stream', bytes: file }), 'POST', path));
  }

  private async call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<WireResult> {
    const sent = body !== undefined ? { type: 'application/json', bytes: JSON.stringify(body) } : undefined;
    return this.parse(await this.fetch(method, path, sent), method, path);
  }

  private fetch(method: string, path: string, body?: { type: string; bytes: string | Uint8Array }): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = body.type;
    if (this.options.adminToken !== undefined) headers.authorization = `Bearer ${this.options.adminToken}`;
    // A Uint8Array is a valid fetch body; the DOM typings of some TypeScript versions say otherwise.
    return (this.options.fetch ?? fetch)(this.origin + path, {
      method,
      headers,
      ...(body !== undefined ? { body: body.bytes as string } : {}),
    });
  }

  /** A refused download: the server's error (JSON) as a DevnetError. */
  private async refused(response: Response, method: string, path: string): Promise<never> {
    await this.parse(response, method, path);
    throw new DevnetError(response.status, `${method} ${path} failed (${response.status})`);
  }

  private async parse(response: Response, method: string, path: string): Promise<WireResult> {
    const text = await response.text();
    let parsed: WireResult;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new DevnetError(response.status, `${method} ${path}: not a JSON answer (${response.status}): ${text.slice(0, 200)}`);
    }
    if (!response.ok || parsed?.ok !== true)
      throw new DevnetError(response.status, parsed?.error ?? `${method} ${path} failed (${response.status})`);
    return parsed.result;
  }
}

function snapshotOf(r: WireResult): SnapshotInfo {
  return { name: r.name, seqno: r.seqno, rootHash: r.root_hash, createdAt: r.created_at, pendingMessages: r.pending_messages };
}

function miningOf(r: WireResult): Mining {
  return r.mode === 'auto' ? { mode: 'auto', intervalMs: r.interval_ms } : { mode: 'manual' };
}

function timeOf(r: WireResult): ChainTime {
  return {
    utime: r.utime,
    lastBlockUtime: r.last_block_utime,
    ...(r.next_block_utime !== undefined ? { nextBlockUtime: r.next_block_utime } : {}),
    aheadSeconds: r.ahead_seconds,
    ...(r.wallet_note !== undefined ? { walletNote: r.wallet_note } : {}),
  };
}
