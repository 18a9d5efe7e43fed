/**
 * An account's transactions on a lite network, read from the liteservers as a chain of hashes (README, "Trust"):
 * pages of up to 16 from a known (lt, hash) back, kept; the newest at or below an lt found through the block
 * holding it; a block's transactions; a transaction by its hash alone or by its message, located by the live
 * index (TransactionLocator) and then read here like any other.
 */
import { Address, Cell } from '@ton/core';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { lazyTransaction } from '../../ton/transaction-cell.js';
import { MASTERCHAIN } from '../../ton/workchain.js';
import { ChainInputError, NotFound } from '../errors.js';
import type { TransactionLocator } from '../transaction-locator.js';
import type {
  AccountState,
  BlockRef,
  BlockTransactionQuery,
  BlockTransactions,
  ChainMessage,
  ChainTransaction,
  TransactionQuery,
} from '../types.js';
import { fromTlBlockId, toTlBlockId, type LiteBlocks } from './blocks.js';
import { LiteDataError, LiteServerError } from './errors.js';
import type { LitePool } from './pool.js';
import { proveAccount } from './proofs.js';
import { ReadCache } from './read-cache.js';

/** liteServer.getTransactions answers at most this many per query (the validator's cap). */
const TX_PAGE = 16;
/** lt without hash, when the liteservers no longer keep the block or state that finds it: how far back we walk. */
const MAX_LT_WALK = 256;

export class LiteTransactions {
  private readonly txPages: ReadCache<ChainTransaction[]>;
  private index: TransactionLocator | undefined;

  constructor(
    private readonly pool: LitePool,
    private readonly blocks: LiteBlocks,
    /** The account's state at the head (its last transaction starts a walk). */
    private readonly account: (address: Address) => Promise<AccountState>,
    /** Bound of the kept pages, in bytes. */
    cacheBytes: number,
  ) {
    this.txPages = new ReadCache(cacheBytes, (page) => 256 + page.length * 1024);
  }

  async getTransactions(address: Address, q: TransactionQuery): Promise<ChainTransaction[]> {
    if (!Number.isSafeInteger(q.limit) || q.limit < 1) throw new ChainInputError('limit: must be a positive integer');
    let next: { lt: bigint; hash: Buffer } | undefined;
    let skipAbove: bigint | undefined;
    if (q.lt !== undefined && q.hash !== undefined) {
      next = { lt: q.lt, hash: q.hash };
    } else {
      const account = await this.account(address);
      if (account.lastTxLt === 0n) return [];
      next = { lt: account.lastTxLt, hash: account.lastTxHash };
      // lt alone: the page starts at the newest transaction at or below it, found through the block holding lt.
      if (q.lt !== undefined && q.lt < account.lastTxLt) {
        const found = await this.transactionAtOrBefore(address, q.lt);
        if (found === null) return [];
        if (found) next = found;
        else skipAbove = q.lt; // the liteservers no longer keep what finding it needs: walk back (bounded)
      }
    }
    const out: ChainTransaction[] = [];
    let walked = 0;
    while (next && out.length < q.limit) {
      const page = await this.transactionPage(address, next.lt, next.hash);
      for (const tx of page) {
        if (skipAbove !== undefined && tx.lt > skipAbove) {
          if (++walked > MAX_LT_WALK) {
            throw new ChainInputError(`lt: more than ${MAX_LT_WALK} newer transactions to skip on a lite network; give hash with lt`);
          }
          continue;
        }
        if (q.toLt !== undefined && tx.lt <= q.toLt) return out;
        out.push(tx);
        if (out.length === q.limit) return out;
      }
      const last = page[page.length - 1];
      const prevLt = last.tx.prevTransactionLt;
      next = prevLt === 0n ? undefined : { lt: prevLt, hash: bigintHash(last.tx.prevTransactionHash) };
    }
    return out;
  }

  /**
   * The account's newest transaction at or below `lt` (null: none), found in three reads instead of a walk: the
   * shard block whose lt range holds `lt` (lookupBlock by lt, checked against its hashes); the account's
   * transactions in it at or below `lt`; else its last transaction as of the block before (the account's proven
   * state at that shard block). undefined when the liteservers no longer have that block or state.
   */
  async transactionAtOrBefore(address: Address, lt: bigint): Promise<{ lt: bigint; hash: Buffer } | null | undefined> {
    const prefix = BigInt.asUintN(64, BigInt(`0x${address.hash.subarray(0, 8).toString('hex')}`) | 1n);
    const block = await this.blocks.lookup({ workchain: address.workChain, shard: prefix, lt });
    // The block whose lt range holds lt, or the first after it; one that ends before lt could miss later ones.
    if (!block || block.block.endLt < lt) return undefined;
    const mine = block.parsed.transactions.filter((t) => t.account.equals(address.hash) && t.lt <= lt);
    if (mine.length > 0) {
      const newest = mine.reduce((a, b) => (b.lt > a.lt ? b : a));
      return { lt: newest.lt, hash: newest.cell.hash() };
    }
    const prev = block.block.prevBlocks.find((p) => shardContains(p.shard, prefix)) ?? block.block.prevBlocks[0];
    if (!prev || prev.seqno === 0) return null;
    let state: { lastTxLt: bigint; lastTxHash: Buffer } | undefined;
    try {
      await this.pool.query(
        Functions.liteServer_getAccountState,
        {
          kind: 'liteServer.getAccountState',
          id: toTlBlockId(prev),
          account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
        },
        {
          check: (answer) => {
            const a = answer as { shardblk: Parameters<typeof fromTlBlockId>[0]; proof: Buffer; state: Buffer };
            if (!fromTlBlockId(a.shardblk).rootHash.equals(prev.rootHash)) throw new LiteDataError('account state of another shard block');
            state = proveAccount(a.proof, a.state, prev.rootHash, address.hash);
          },
        },
      );
    } catch (err) {
      if (err instanceof LiteServerError) return undefined;
      throw err;
    }
    return state!.lastTxLt === 0n ? null : { lt: state!.lastTxLt, hash: state!.lastTxHash };
  }

  /**
   * Up to 16 transactions of an account from (lt, hash) back, checked as a chain: the first hashes to `hash`,
   * each next one to the previous one's prev_trans_hash, all of this account.
   */
  private transactionPage(address: Address, lt: bigint, hash: Buffer): Promise<ChainTransaction[]> {
    return this.txPages.get(`${address.toRawString()}:${lt}:${hash.toString('hex')}`, async () => {
      let page: ChainTransaction[] = [];
      try {
        await this.pool.query(
          Functions.liteServer_getTransactions,
          {
            kind: 'liteServer.getTransactions',
            count: TX_PAGE,
            account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
            lt: lt.toString(),
            hash,
          },
          {
            check: (answer) =>
              (page = checkTransactionChain(
                answer as { ids: Parameters<typeof fromTlBlockId>[0][]; transactions: Buffer },
                address,
                lt,
                hash,
              )),
          },
        );
      } catch (err) {
        if (
          err instanceof LiteServerError &&
          /cannot locate|not found|no transactions|hash mismatch|lt mismatch|not in db/i.test(err.text)
        ) {
          throw new NotFound(`transaction lt ${lt} hash ${hash.toString('hex')} not found on ${address.toRawString()}`);
        }
        throw err;
      }
      if (page.length === 0) throw new NotFound(`transaction lt ${lt} hash ${hash.toString('hex')} not found on ${address.toRawString()}`);
      return page;
    });
  }

  /** Where the live index is, once it runs (LiteChain.useIndex). */
  useIndex(index: TransactionLocator): void {
    this.index = index;
  }

  async getTransaction(hash: Buffer): Promise<ChainTransaction | undefined> {
    if (!this.index) throw needsIndex(`transaction ${hash.toString('hex')}`);
    const [record] = await this.index.transactions({ hash }, 'desc', { limit: 1, offset: 0 });
    return record && this.transactionOf(record);
  }

  /** Transactions that received the message, then the one that sent it (from the index, within its range). */
  async getTransactionsByMessage(msgHash: Buffer): Promise<ChainTransaction[]> {
    if (!this.index) throw needsIndex(`transactions of message ${msgHash.toString('hex')}`);
    const page = { limit: 16, offset: 0 };
    const records = [
      ...(await this.index.transactionsByMessage({ msgHash, direction: 'in' }, page)),
      ...(await this.index.transactionsByMessage({ msgHash, direction: 'out' }, page)),
    ];
    return Promise.all(records.map((record) => this.transactionOf(record)));
  }

  /** An indexed transaction, read (and checked) from the liteservers: the index keeps no transaction BoCs. */
  private async transactionOf(record: { account: string; lt: bigint; hash: Buffer }): Promise<ChainTransaction> {
    const [tx] = await this.transactionPage(Address.parse(record.account), record.lt, record.hash);
    return tx;
  }

  getMessage(hash: Buffer): ChainMessage | undefined {
    throw needsIndex(`message ${hash.toString('hex')}`);
  }

  async blockTransactions(ref: BlockRef, q: BlockTransactionQuery): Promise<BlockTransactions> {
    const loaded = await this.blocks.byRef(ref);
    if (!loaded) throw new NotFound(`block (${ref.workchain}, ${BigInt.asIntN(64, ref.shard)}, ${ref.seqno}) not found`);
    const all = loaded.parsed.transactions;
    let start = 0;
    if (q.afterAccount !== undefined) {
      const afterLt = q.afterLt ?? -1n;
      start = all.findIndex((t) => {
        const c = Buffer.compare(t.account, q.afterAccount!);
        return c > 0 || (c === 0 && t.lt > afterLt);
      });
      if (start < 0) start = all.length;
    }
    const slice = all.slice(start, start + q.count);
    const id = loaded.block.id;
    const mcSeqno = id.workchain === MASTERCHAIN ? id.seqno : (loaded.block.masterRef?.seqno ?? 0);
    const transactions = slice.map((t) =>
      chainTransaction(
        t.cell,
        new Address(id.workchain, t.account),
        { workchain: id.workchain, shard: id.shard, seqno: id.seqno },
        mcSeqno,
      ),
    );
    return { transactions, incomplete: start + q.count < all.length };
  }
}

/** Whether `shard` (a prefix with its end bit) contains the 64-bit account prefix `prefix`. */
function shardContains(shard: bigint, prefix: bigint): boolean {
  const low = shard & -shard;
  const mask = BigInt.asUintN(64, ~((low << 1n) - 1n));
  return (shard & mask) === (prefix & mask);
}

function needsIndex(what: string): NotFound {
  return new NotFound(`${what}: finding it needs tongate's live index, which is not running`);
}

function bigintHash(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

function chainTransaction(cell: Cell, account: Address, block: BlockRef, mcSeqno: number): ChainTransaction {
  const parse = lazyTransaction(cell);
  const s = cell.beginParse();
  s.skip(4 + 256); // transaction$0111 account_addr
  const lt = s.loadUintBig(64);
  s.skip(256 + 64); // prev_trans_hash, prev_trans_lt
  const now = s.loadUint(32);
  return {
    get tx() {
      return parse();
    },
    cell,
    hash: cell.hash(),
    account,
    lt,
    now,
    block,
    mcSeqno,
  };
}

function checkTransactionChain(
  answer: { ids: Parameters<typeof fromTlBlockId>[0][]; transactions: Buffer },
  address: Address,
  lt: bigint,
  hash: Buffer,
): ChainTransaction[] {
  let roots: Cell[];
  try {
    roots = answer.transactions.length === 0 ? [] : Cell.fromBoc(answer.transactions);
  } catch (err) {
    throw new LiteDataError(`transactions: not a bag of cells (${(err as Error).message})`);
  }
  if (roots.length !== answer.ids.length) throw new LiteDataError('transactions: as many block ids as transactions expected');
  const out: ChainTransaction[] = [];
  let expected = { lt, hash };
  for (let i = 0; i < roots.length; i++) {
    const cell = roots[i];
    if (!cell.hash().equals(expected.hash))
      throw new LiteDataError(`transactions: the transaction at position ${i} is not the one the chain of hashes names`);
    const s = cell.beginParse();
    if (s.loadUint(4) !== 0b0111) throw new LiteDataError('transactions: not a transaction');
    if (!s.loadBuffer(32).equals(address.hash)) throw new LiteDataError('transactions: a transaction of another account');
    if (s.loadUintBig(64) !== expected.lt) throw new LiteDataError('transactions: lt does not match');
    const prevHash = s.loadBuffer(32);
    const prevLt = s.loadUintBig(64);
    const id = fromTlBlockId(answer.ids[i]);
    if (id.workchain !== address.workChain) throw new LiteDataError('transactions: a block of another workchain');
    out.push(
      chainTransaction(
        cell,
        address,
        { workchain: id.workchain, shard: id.shard, seqno: id.seqno },
        id.workchain === MASTERCHAIN ? id.seqno : 0,
      ),
    );
    expected = { lt: prevLt, hash: prevHash };
    if (prevLt === 0n) break;
  }
  return out;
}
