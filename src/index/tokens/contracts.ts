/**
 * The detectors: what a candidate account is, read from its get-methods at one masterchain seqno
 * (ton-indexer's smc-interfaces/Tokens.cpp), each answer checked for shape:
 *   jetton master   get_jetton_data -> (int total_supply, int mintable, slice admin, cell content, cell wallet_code);
 *                   content must be TEP-64
 *   jetton wallet   get_wallet_data -> (int balance, slice owner, slice jetton, cell wallet_code); the master's
 *                   get_wallet_address(slice owner) -> (slice) must be this wallet
 *   NFT collection  get_collection_data -> (int next_item_index, cell content, slice owner); content TEP-64
 *   NFT item        get_nft_data -> (int init, int index, slice collection, slice owner, cell individual_content);
 *                   with a collection: its get_nft_address_by_index(int index) -> (slice) must be this item and
 *                   the content is its get_nft_content(int index, cell individual_content) -> (cell); without
 *                   one (addr_none): the individual content. An item not initialized yet (init = 0) may
 *                   answer null owner and content: kept with neither.
 * "Not that interface" answers are cached by code hash (bounded: code is attacker-chosen); what a master or
 * collection vouched for is remembered (Vouched), so a wallet's next change costs one get-method, not two.
 */
import { beginCell, type Address, type Cell, type TupleItem } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import { Tep64Error } from '../../ton/tep64.js';
import type { VmValue } from '../../ton/vm-stack.js';
import type { TokenAccountCandidate } from './block-tokens.js';
import { v3TokenContent } from './content.js';
import type { GetMethodRunner } from './get-methods.js';
import type { JettonMasterRow, JettonWalletRow, NftCollectionRow, NftItemRow } from './token-rows.js';
import { readSaleContract, type NftSaleRow } from './sales.js';
import type { NftAuctionRow } from './auctions.js';
import { readMultisig, readMultisigOrder, VouchedOrders } from '../multisig/detect.js';
import type { MultisigOrderRow, MultisigRow } from '../multisig/rows.js';
import { readVesting } from '../vesting/detect.js';
import type { VestingRow } from '../vesting/rows.js';
import { DEDUST_MAINNET, readDedustPool, type DedustFacts } from '../dex/dedust-pools.js';
import type { DexPoolRow } from '../dex/rows.js';

export interface Detected {
  master?: JettonMasterRow;
  wallet?: JettonWalletRow;
  collection?: NftCollectionRow;
  item?: NftItemRow;
  /** An NFT fixed-price sale (sales.ts). */
  sale?: NftSaleRow;
  /** An NFT auction (auctions.ts; detected with sales, one get_sale_data read by its magic). */
  auction?: NftAuctionRow;
  /** A multisig v2 wallet or order (src/index/multisig). */
  multisig?: MultisigRow;
  order?: MultisigOrderRow;
  /** A vesting wallet (src/index/vesting). */
  vesting?: VestingRow;
  /** A DeDust pool (src/index/dex). */
  dexPool?: DexPoolRow;
}

type Interface = keyof Detected;

/** "code hash X is not interface Y" entries kept. */
const MAX_MISSES = 50_000;
/** Wallets and items whose master / collection vouched for them, kept (the oldest forgotten first). */
const MAX_VOUCHED = 100_000;

/**
 * What a master or collection said about a contract, by the facts it was asked about: a wallet's owner and
 * master never change, so a wallet that changes again (every transfer) is not cross-checked again; an item
 * is asked again only when its index, collection or individual content changed.
 */
class Vouched<T> {
  private readonly entries = new Map<string, { facts: string; value: T }>();

  get(account: string, facts: string): T | undefined {
    const entry = this.entries.get(account);
    return entry?.facts === facts ? entry.value : undefined;
  }

  set(account: string, facts: string, value: T): void {
    this.entries.delete(account);
    if (this.entries.size >= MAX_VOUCHED) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(account, { facts, value });
  }
}

const raw = (address: Address | null) => (address ? formatRawUpper(address) : null);

/** An address slot that may hold a TVM null (an item not initialized yet) as well as a MsgAddress. */
function optionalAddress(values: VmValue[], s: StackReader, index: number): Address | null {
  return values[index]?.type === 'null' ? null : s.address(index);
}

export class ContractReads {
  private readonly misses = new Set<string>();
  private readonly vouchedWallets = new Vouched<true>();
  private readonly vouchedItems = new Vouched<Record<string, string> | null>();
  private readonly vouchedOrders = new VouchedOrders(MAX_VOUCHED);

  /** `dedust`: DeDust's pool code hashes and factory (mainnet's unless given: src/index/dex). */
  constructor(
    private readonly runner: GetMethodRunner,
    private readonly dedust: DedustFacts = DEDUST_MAINNET,
  ) {}

  /**
   * A jetton wallet whose master already vouched for it with this owner and master (the index's detection): its
   * detection then reads its get_wallet_data alone while those facts stay.
   */
  vouchWallet(account: string, owner: string, jetton: string): void {
    this.vouchedWallets.set(account, `${owner}|${jetton}`, true);
  }

  /** Every interface the candidate's methods allow, tried together; null when the chain failed to answer. */
  async detect(c: TokenAccountCandidate, seqno: number): Promise<Detected | null> {
    const has = (method: string) => (c.methods as string[]).includes(method);
    try {
      const [master, wallet, collection, item, sale, multisig, order, vesting, dexPool] = await Promise.all([
        has('get_jetton_data') ? this.unlessMissed(c, 'master', () => this.jettonMaster(c, seqno)) : null,
        has('get_wallet_data') ? this.unlessMissed(c, 'wallet', () => this.jettonWallet(c, seqno)) : null,
        has('get_collection_data') ? this.unlessMissed(c, 'collection', () => this.nftCollection(c, seqno)) : null,
        has('get_nft_data') ? this.unlessMissed(c, 'item', () => this.nftItem(c, seqno)) : null,
        has('get_sale_data') || has('get_auction_data_v4') || has('get_fix_price_data_v4')
          ? this.unlessMissed(c, 'sale', () => readSaleContract(this.runner, c, seqno))
          : null,
        has('get_multisig_data') ? this.unlessMissed(c, 'multisig', () => readMultisig(this.runner, c, seqno)) : null,
        has('get_order_data') ? this.unlessMissed(c, 'order', () => readMultisigOrder(this.runner, c, seqno, this.vouchedOrders)) : null,
        has('get_vesting_data') ? this.unlessMissed(c, 'vesting', () => readVesting(this.runner, c, seqno)) : null,
        has('get_assets') ? this.unlessMissed(c, 'dexPool', () => readDedustPool(this.runner, c, seqno, this.dedust)) : null,
      ]);
      return {
        master: master ?? undefined,
        wallet: wallet ?? undefined,
        collection: collection ?? undefined,
        item: item ?? undefined,
        ...(sale?.sale ? { sale: sale.sale } : {}),
        ...(sale?.auction ? { auction: sale.auction } : {}),
        ...(multisig ? { multisig } : {}),
        ...(order ? { order } : {}),
        ...(vesting ? { vesting } : {}),
        ...(dexPool ? { dexPool } : {}),
      };
    } catch {
      // The chain could not run a get-method (a liteserver down): undetected this time.
      return null;
    }
  }

  /** Runs a detector unless the code is known not to be that interface; remembers a code that is not. */
  private async unlessMissed<T>(c: TokenAccountCandidate, kind: Interface, read: () => Promise<T | null>): Promise<T | null> {
    const key = `${kind}:${c.codeHash.toString('base64')}`;
    if (this.misses.has(key)) return null;
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof NotThatContract) && !(error instanceof Tep64Error)) throw error;
      if (this.misses.size >= MAX_MISSES) this.misses.clear();
      this.misses.add(key);
      return null;
    }
  }

  private async call(
    address: string,
    method: string,
    seqno: number,
    args: TupleItem[] = [],
  ): Promise<{ s: StackReader; values: VmValue[] }> {
    const values = await this.runner.run(address, method, args, seqno);
    if (values === null) throw new NotThatContract(`${method} failed`);
    return { s: new StackReader(values, method), values };
  }

  /** Another contract's answer about this one (a master, a collection): null when it does not answer as asked. */
  private async vouchedAddress(at: string, method: string, args: TupleItem[], seqno: number): Promise<string | null> {
    const values = await this.runner.run(at, method, args, seqno);
    if (!values || values.length === 0) return null;
    try {
      return raw(new StackReader(values, method).address(0));
    } catch {
      return null;
    }
  }

  private async jettonMaster(c: TokenAccountCandidate, seqno: number): Promise<JettonMasterRow> {
    const { s } = await this.call(c.account, 'get_jetton_data', seqno);
    return {
      address: c.account,
      totalSupply: s.int(0),
      mintable: s.int(1) !== 0n,
      admin: raw(s.address(2)),
      content: v3TokenContent(s.cell(3)),
      walletCodeHash: s.cell(4).hash(),
      lastTxLt: c.lastTxLt,
      codeHash: c.codeHash,
      dataHash: c.dataHash,
    };
  }

  private async jettonWallet(c: TokenAccountCandidate, seqno: number): Promise<JettonWalletRow | null> {
    const { s } = await this.call(c.account, 'get_wallet_data', seqno);
    const balance = s.int(0);
    const owner = s.address(1);
    const master = s.address(2);
    s.cell(3);
    if (!owner || !master) throw new NotThatContract('get_wallet_data: no owner or jetton');
    const facts = `${formatRawUpper(owner)}|${formatRawUpper(master)}`;
    if (!this.vouchedWallets.get(c.account, facts)) {
      const vouched = await this.vouchedAddress(
        formatRawUpper(master),
        'get_wallet_address',
        [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }],
        seqno,
      );
      if (vouched !== c.account) return null;
      this.vouchedWallets.set(c.account, facts, true);
    }
    return {
      address: c.account,
      balance,
      owner: formatRawUpper(owner),
      jetton: formatRawUpper(master),
      lastTxLt: c.lastTxLt,
      codeHash: c.codeHash,
      dataHash: c.dataHash,
      mintlessIsClaimed: null,
    };
  }

  private async nftCollection(c: TokenAccountCandidate, seqno: number): Promise<NftCollectionRow> {
    const { s } = await this.call(c.account, 'get_collection_data', seqno);
    return {
      address: c.account,
      nextItemIndex: s.int(0),
      content: v3TokenContent(s.cell(1)),
      owner: raw(s.address(2)),
      lastTxLt: c.lastTxLt,
      codeHash: c.codeHash,
      dataHash: c.dataHash,
    };
  }

  private async nftItem(c: TokenAccountCandidate, seqno: number): Promise<NftItemRow | null> {
    const { s, values } = await this.call(c.account, 'get_nft_data', seqno);
    const init = s.int(0) !== 0n;
    const index = s.int(1);
    const collection = raw(s.address(2));
    const owner = raw(optionalAddress(values, s, 3));
    const individual = values[4]?.type === 'null' ? null : s.cell(4);
    let content: Record<string, string> | null = null;
    if (collection) {
      const facts = `${index}|${collection}|${individual?.hash().toString('base64') ?? ''}`;
      const known = this.vouchedItems.get(c.account, facts);
      if (known !== undefined) {
        content = known;
      } else {
        // Asked together: the collection's two answers then share one emulator call, not two in a row (each call
        // sets a whole VM up again: src/chain/emulator/get-method-batch.ts). The content of an item its collection
        // does not vouch for is asked for nothing: rare, and cheaper than one more emulator call per block.
        const [vouched, composed] = await Promise.all([
          this.vouchedAddress(collection, 'get_nft_address_by_index', [{ type: 'int', value: index }], seqno),
          individual ? this.collectionContent(collection, index, individual, seqno) : null,
        ]);
        if (vouched !== c.account) return null;
        content = composed;
        this.vouchedItems.set(c.account, facts, content);
      }
    } else if (individual) {
      content = v3TokenContent(individual);
    }
    return {
      address: c.account,
      init,
      index,
      collection,
      owner,
      content,
      lastTxLt: c.lastTxLt,
      codeHash: c.codeHash,
      dataHash: c.dataHash,
    };
  }

  /** The item's full content as its collection composes it; null when the collection's answer is not TEP-64 (the collection's doing, not the item code's). */
  private async collectionContent(
    collection: string,
    index: bigint,
    individual: Cell,
    seqno: number,
  ): Promise<Record<string, string> | null> {
    const values = await this.runner.run(
      collection,
      'get_nft_content',
      [
        { type: 'int', value: index },
        { type: 'cell', cell: individual },
      ],
      seqno,
    );
    if (!values || values.length === 0) return null;
    try {
      return v3TokenContent(new StackReader(values, 'get_nft_content').cell(0));
    } catch {
      return null;
    }
  }
}
