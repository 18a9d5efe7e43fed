/**
 * One populated local chain for the v2 method tests, built through the real chain (faucet, signed
 * wallet transfers, deploys by internal messages with StateInit): a v4 wallet with history, a jetton
 * master and wallet, an NFT collection and item, a two-level DNS (zone "ton" -> resolver of "alice"),
 * a comment transfer to a fresh address, and the masterchain seqnos around it for "as of seqno" reads.
 */
import { createHash } from 'node:crypto';
import { beginCell, Dictionary, external, internal, storeMessage, toNano, type Address, type Cell, type MessageRelaxed } from '@ton/core';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import type { LocalChain } from '../../../../src/chain/local/index.js';
import { startTestTongate, type TestTongate } from '../../../support/tongate.js';
import { THROUGH_UPSTREAM, frontFor } from '../../../support/through-upstream.js';
import { addressOf, compileContracts, offchainContent, onchainContent, type StateInit } from './contracts.js';

export const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();
export const categoryHash = (name: string): bigint => BigInt(`0x${sha256(name).toString('hex')}`);

export interface Wallet {
  contract: WalletContractV4;
  keys: KeyPair;
  address: Address;
}

export function seedWallet(seed: number): Wallet {
  const keys = keyPairFromSeed(Buffer.alloc(32, seed));
  const contract = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  return { contract, keys, address: contract.address };
}

/** A signed external message of a v4 transfer (with the StateInit when `deploy`). */
export function transferBoc(wallet: Wallet, seqno: number, messages: MessageRelaxed[], deploy = false): Buffer {
  const body = wallet.contract.createTransfer({ seqno, secretKey: wallet.keys.secretKey, messages });
  const init = deploy ? wallet.contract.init : undefined;
  return beginCell()
    .store(storeMessage(external({ to: wallet.address, body, init })))
    .endCell()
    .toBoc();
}

/** Seals blocks until every queued internal message has been delivered. */
export async function settle(chain: LocalChain): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await chain.produceBlock();
    const { pendingMessages, openTransactions } = chain.stats();
    if (pendingMessages === 0 && openTransactions === 0) return;
  }
  throw new Error('the chain did not settle in 20 blocks');
}

/** Funds `to` from the faucet and seals the block that holds the transfer. */
export async function fund(chain: LocalChain, to: Address, amount: bigint): Promise<void> {
  const funded = chain.fund(to, amount);
  await chain.produceBlock();
  await funded;
  await settle(chain);
}

const deployTo = (init: StateInit, body?: Cell): MessageRelaxed =>
  internal({ to: addressOf(init), value: toNano('0.5'), bounce: false, init, body });

export interface Scenario {
  tongate: TestTongate;
  network: string;
  base: string;
  chain: LocalChain;
  wallet: Wallet;
  /** A fresh address that received "hello" from the wallet (uninitialized, with a balance). */
  receiver: Address;
  /** The comment transfer: its message's created_lt, and the masterchain seqnos just before and after it. */
  comment: { createdLt: bigint; seqnoBefore: number; seqnoAfter: number };
  jetton: { master: Address; wallet: Address; owner: Address; supply: bigint; balance: bigint };
  nft: { collection: Address; item: Address; owner: Address; index: bigint };
  dns: { zone: Address; resolver: Address; walletRecord: Address };
  /** A contract whose token content and DNS records do not parse. */
  broken: Address;
  /** An address with no state at all. */
  nobody: Address;
}

export async function buildScenario(network = 'mainnet'): Promise<Scenario> {
  const [tongate, code] = await Promise.all([startTestTongate(), compileContracts()]);
  const chain = tongate.chain(network);
  const wallet = seedWallet(41);
  const owner = seedWallet(42).address;
  await fund(chain, wallet.address, toNano('100'));

  // Tokens: master + one of its wallets, collection + one of its items.
  const jettonWalletCode = code.jettonWallet;
  const masterInit: StateInit = {
    code: code.jettonMaster,
    data: beginCell()
      .storeCoins(1_000_000n)
      .storeAddress(wallet.address)
      .storeRef(onchainContent({ name: 'Test Jetton', symbol: 'TJ', decimals: '9', description: 'a fixture' }))
      .storeRef(jettonWalletCode)
      .endCell(),
  };
  const master = addressOf(masterInit);
  const jettonWalletInit: StateInit = {
    code: jettonWalletCode,
    data: beginCell().storeCoins(0).storeAddress(owner).storeAddress(master).endCell(),
  };
  const itemCode = code.nftItem;
  const collectionInit: StateInit = {
    code: code.nftCollection,
    data: beginCell()
      .storeUint(1, 64)
      .storeAddress(wallet.address)
      .storeRef(offchainContent('https://nft.example/collection.json'))
      .storeRef(itemCode)
      .storeRef(beginCell().storeStringTail('https://nft.example/items/').endCell())
      .endCell(),
  };
  const collection = addressOf(collectionInit);
  const itemInit: StateInit = { code: itemCode, data: beginCell().storeUint(0, 64).storeAddress(collection).endCell() };
  await chain.sendExternal(
    transferBoc(
      wallet,
      0,
      [
        deployTo(masterInit),
        deployTo(jettonWalletInit, beginCell().storeCoins(777n).endCell()),
        deployTo(collectionInit),
        deployTo(itemInit, beginCell().storeAddress(owner).storeRef(beginCell().storeStringTail('0.json').endCell()).endCell()),
      ],
      true,
    ),
  );
  await settle(chain);

  // DNS: the zone resolves "ton" to the resolver, which keeps the records of "alice".
  const walletRecord = seedWallet(43).address;
  const records = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  records.set(categoryHash('wallet'), beginCell().storeUint(0x9fd3, 16).storeAddress(walletRecord).storeUint(0, 8).endCell());
  records.set(categoryHash('site'), beginCell().storeUint(0xad01, 16).storeBuffer(Buffer.alloc(32, 7)).storeUint(0, 8).endCell());
  records.set(categoryHash('storage'), beginCell().storeUint(0x7473, 16).storeBuffer(Buffer.alloc(32, 9)).endCell());
  const resolverInit: StateInit = { code: code.dnsResolver, data: beginCell().storeDict(records).endCell() };
  const resolver = addressOf(resolverInit);
  const zoneInit: StateInit = {
    code: code.dnsZone,
    data: beginCell().storeRef(beginCell().storeUint(0xba93, 16).storeAddress(resolver).endCell()).endCell(),
  };
  const receiver = seedWallet(44).address;
  const brokenInit: StateInit = { code: code.broken, data: beginCell().endCell() };
  await chain.sendExternal(transferBoc(wallet, 1, [deployTo(zoneInit), deployTo(resolverInit), deployTo(brokenInit)]));
  await settle(chain);

  const seqnoBefore = chain.masterchainInfo().last.id.seqno;
  await chain.sendExternal(transferBoc(wallet, 2, [internal({ to: receiver, value: toNano('2'), bounce: false, body: 'hello' })]));
  await settle(chain);
  const seqnoAfter = chain.masterchainInfo().last.id.seqno;
  const [commentTx] = chain.getTransactions(wallet.address, { limit: 1 });
  const out = commentTx.tx.outMessages.get(0)!;
  if (out.info.type !== 'internal') throw new Error('the comment transfer sent no internal message');

  // Through a tongate in upstream mode (test/support/through-upstream.ts): the same calls, forwarded.
  const front = THROUGH_UPSTREAM ? await frontFor({ mainnet: tongate.url('mainnet'), testnet: tongate.url('testnet') }) : undefined;
  return {
    tongate: front
      ? {
          ...tongate,
          stop: async () => {
            await front.stop();
            await tongate.stop();
          },
        }
      : tongate,
    network,
    base: front ? front.url(network) : tongate.url(network),
    chain,
    wallet,
    receiver,
    comment: { createdLt: out.info.createdLt, seqnoBefore, seqnoAfter },
    jetton: { master, wallet: addressOf(jettonWalletInit), owner, supply: 1_000_000n, balance: 777n },
    nft: { collection, item: addressOf(itemInit), owner, index: 0n },
    dns: { zone: addressOf(zoneInit), resolver, walletRecord },
    nobody: seedWallet(45).address,
    broken: addressOf(brokenInit),
  };
}
