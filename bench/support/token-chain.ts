/**
 * A local chain with token traffic to produce at full speed, shared by bench:tokens (detection on vs off) and
 * bench:token-relay (what each detection get-method costs the chain's main thread):
 *
 * - one jetton master and `wallets` owner wallets (v4), each with its jetton wallet minted 1000
 *   (test/api/v2/support/contracts.ts's fixtures): every round, every owner sends a jetton `transfer` body to its
 *   own jetton wallet, to the next owner;
 * - with `mints` > 0, an NFT collection (tongate's own TEP-62 collection and item, src/contracts/nft, whose
 *   owner really mints: the collection deploys each item and counts next_item_index) owned by a minter wallet,
 *   which mints `mints` new items every round in one `batch_deploy_items` (the way collections mint in bulk),
 *   owned by the jetton owners in turn, with offchain content (`<index>.json` under the collection's prefix).
 *
 * A round's external messages can be signed apart from sending them (`signRound`): signing is the client's
 * work (tweetnacl, ~7 ms per message on this machine) and a bench that times the chain signs every round
 * first. That is possible because each wallet's seqno is known in advance (0 for its deploy, round + 1 after),
 * and the messages' valid_until is the caller's, on the chain's clock (@ton/ton would take Date.now(), but the
 * chain runs on a ManualClock).
 */
import { beginCell, contractAddress, external, internal, SendMode, storeMessage, toNano, type Address, type StateInit } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { LocalChain } from '../../src/chain/local/index.js';
import { offchainContent } from '../../src/contracts/content.js';
import { batchDeployItemsBody, nftCollectionInit, nftItemAddress } from '../../src/contracts/nft/nft.js';
import { ManualClock } from '../../src/util/clock.js';
import { nftCode } from '../../test/contracts/support/code.js';
import { addressOf, compileContracts } from '../../test/api/v2/support/contracts.js';

export const FAUCET_MNEMONIC =
  'region sniff brass cake cave thank still hero chronic father maze leader eagle need surface orchard earn excite gravity forest seed auto polar hurt'.split(
    ' ',
  );

/** TON each minted item is deployed with (the collection forwards it to the item). */
const ITEM_AMOUNT = toNano('0.05');

export interface TokenChainOptions {
  /** Owner wallets, each with a jetton wallet: that many jetton transfers per round. */
  wallets: number;
  /** NFT items minted per round (0: no collection is deployed). */
  mints?: number;
}

export interface TokenChain {
  chain: LocalChain;
  clock: ManualClock;
  master: Address;
  /** The owners' wallet addresses, in order. */
  owners: Address[];
  /** Each owner's jetton wallet, in order. */
  jettonWallets: Address[];
  /** The NFT collection, when `mints` > 0. */
  collection: Address | null;
  /** The items minted by round `round`, in order (their addresses are known before they exist). */
  mintedItems(round: number): Address[];
  /**
   * Round `round`'s external messages, signed, in sending order: every owner's jetton transfer (query id
   * `round`) to the next owner, then the minter's batch of `mints` items. `validUntil`: unix seconds of the
   * chain's clock the wallets accept them until. Rounds are numbered from 0; each is sent once, in order.
   */
  signRound(round: number, validUntil: number): Buffer[];
  /** Sends signed messages to the chain one after the other (each executed into the open block; not sealed). */
  send(messages: Buffer[]): Promise<void>;
  /** signRound + send, valid for 60 s of the chain's time from now (what @ton/ton does by default). */
  sendRound(round: number): Promise<void>;
}

export interface Signer {
  wallet: WalletContractV4;
  keys: KeyPair;
}

export function signer(seedByte: number): Signer {
  const keys = keyPairFromSeed(Buffer.alloc(32, seedByte));
  return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys };
}

/** The wallet's external message carrying `messages`, signed, as a BoC (with the wallet's StateInit at seqno 0). */
export function signedExternal(s: Signer, seqno: number, validUntil: number, messages: ReturnType<typeof internal>[]): Buffer {
  const body = s.wallet.createTransfer({
    seqno,
    secretKey: s.keys.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: validUntil,
    messages,
  });
  return beginCell()
    .store(storeMessage(external({ to: s.wallet.address, body, init: seqno === 0 ? s.wallet.init : undefined })))
    .endCell()
    .toBoc();
}

function transferBody(queryId: number, to: Address) {
  return beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(queryId, 64)
    .storeCoins(1n)
    .storeAddress(to)
    .storeAddress(to)
    .storeBit(false)
    .storeCoins(0n)
    .storeBit(false)
    .endCell();
}

/** The chain with the master, every jetton wallet and the collection deployed and sealed (two blocks after the deploys). */
export async function openTokenChain({ wallets, mints = 0 }: TokenChainOptions): Promise<TokenChain> {
  const code = await compileContracts();
  const clock = new ManualClock();
  const chain = await LocalChain.open({ network: 'testnet', globalId: -3, faucetMnemonic: FAUCET_MNEMONIC, clock });
  const nowValid = () => Math.floor(clock.now() / 1000) + 60;
  const send = async (messages: Buffer[]) => {
    for (const boc of messages) await chain.sendExternal(boc);
  };

  const owners = Array.from({ length: wallets }, (_, i) => signer(100 + i));
  const masterInit = {
    code: code.jettonMaster,
    data: beginCell()
      .storeCoins(1_000_000n)
      .storeAddress(owners[0].wallet.address)
      .storeRef(beginCell().storeUint(1, 8).storeStringTail('https://x/j.json').endCell())
      .storeRef(code.jettonWallet)
      .endCell(),
  };
  const master = addressOf(masterInit);
  const jettonWallets = owners.map((o) => {
    const init = { code: code.jettonWallet, data: beginCell().storeCoins(0).storeAddress(o.wallet.address).storeAddress(master).endCell() };
    return { init, address: addressOf(init) };
  });

  const minter = mints > 0 ? signer(99) : null;
  let collectionInit: StateInit | null = null;
  let itemCode = null;
  if (minter !== null) {
    const nft = await nftCode();
    itemCode = nft.item;
    collectionInit = nftCollectionInit(nft.collection, {
      owner: minter.wallet.address,
      content: offchainContent('https://x/c.json'),
      commonContent: beginCell().storeStringTail('https://x/c/').endCell(),
      itemCode: nft.item,
      royalty: { numerator: 1, denominator: 20, destination: minter.wallet.address },
    });
  }
  const collection = collectionInit !== null ? contractAddress(0, collectionInit) : null;

  await Promise.all([
    ...owners.map((o) => chain.fund(o.wallet.address, toNano('100'))),
    ...(minter !== null ? [chain.fund(minter.wallet.address, toNano('1000'))] : []),
    chain.produceBlock(),
  ]);
  // Deploys (each wallet's seqno 0): the master (by the first owner), each owner's jetton wallet minted 1000,
  // the collection (by the minter, an empty body: it answers nothing).
  const deploys = owners.map((o, i) => {
    const messages = [
      internal({
        to: jettonWallets[i].address,
        value: toNano('0.5'),
        bounce: false,
        init: jettonWallets[i].init,
        body: beginCell().storeCoins(1000n).endCell(),
      }),
    ];
    if (i === 0) messages.push(internal({ to: master, value: toNano('0.5'), bounce: false, init: masterInit }));
    return signedExternal(o, 0, nowValid(), messages);
  });
  if (minter !== null)
    deploys.push(
      signedExternal(minter, 0, nowValid(), [internal({ to: collection!, value: toNano('1'), bounce: false, init: collectionInit! })]),
    );
  await send(deploys);
  await chain.produceBlock();
  await chain.produceBlock();

  const itemIndexes = (round: number) => Array.from({ length: mints }, (_, k) => round * mints + k);
  const signRound = (round: number, validUntil: number): Buffer[] => {
    const seqno = round + 1;
    const messages = owners.map((o, i) =>
      signedExternal(o, seqno, validUntil, [
        internal({
          to: jettonWallets[i].address,
          value: toNano('0.05'),
          body: transferBody(round, owners[(i + 1) % wallets].wallet.address),
        }),
      ]),
    );
    if (minter !== null) {
      const items = itemIndexes(round).map((index) => ({
        index,
        amount: ITEM_AMOUNT,
        owner: owners[index % wallets].wallet.address,
        content: beginCell().storeStringTail(`${index}.json`).endCell(),
      }));
      const value = ITEM_AMOUNT * BigInt(mints) + toNano('0.5');
      messages.push(
        signedExternal(minter, seqno, validUntil, [internal({ to: collection!, value, body: batchDeployItemsBody(items, BigInt(round)) })]),
      );
    }
    return messages;
  };

  return {
    chain,
    clock,
    master,
    owners: owners.map((o) => o.wallet.address),
    jettonWallets: jettonWallets.map((w) => w.address),
    collection,
    mintedItems: (round) => (collection === null ? [] : itemIndexes(round).map((index) => nftItemAddress(collection, itemCode!, index))),
    signRound,
    send,
    async sendRound(round) {
      await send(signRound(round, nowValid()));
    },
  };
}
