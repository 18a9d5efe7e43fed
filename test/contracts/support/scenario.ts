/**
 * One story with every contract family on a local chain, for tests that read the result through an API (the v3
 * index's token endpoints, v2's getTokenData): a jetton with a mint, a transfer with notification, a burn and a
 * bounced transfer; an NFT collection with three items, one transferred; a DNS root with a domain and a wallet
 * record. Returns the addresses and the values each getter should now answer.
 */
import { Address, beginCell, contractAddress, toNano } from '@ton/core';
import { offchainContent, onchainContent } from '../../../src/contracts/content.js';
import {
  changeDnsRecordBody,
  deployDomainBody,
  DNS_CATEGORY,
  dnsItemAddress,
  dnsRootInit,
  walletRecord,
} from '../../../src/contracts/dns/dns.js';
import {
  jettonBurnBody,
  jettonMasterInit,
  jettonTransferBody,
  jettonWalletAddress,
  mintBody,
} from '../../../src/contracts/jetton/jetton.js';
import { batchDeployItemsBody, nftCollectionInit, nftItemAddress, nftTransferBody } from '../../../src/contracts/nft/nft.js';
import { dnsCode, nftCode } from './code.js';
import { REFUSING_CODE, type Actor, type ContractsChain } from './contracts-chain.js';
import { testWallet } from '../../chain/local/support/local-chain.js';

export interface TokenScenario {
  actors: { admin: Actor; alice: Actor; bob: Actor };
  jetton: {
    master: Address;
    totalSupply: bigint;
    /** owner -> its jetton wallet and balance */
    wallets: { owner: Address; wallet: Address; balance: bigint }[];
    /** carol's jetton wallet: code that refuses everything (the transfer to it bounced) */
    failingWallet: Address;
  };
  nft: { collection: Address; items: { index: number; address: Address; owner: Address }[] };
  dns: { root: Address; domain: string; item: Address; owner: Address; wallet: Address };
}

/** The scenario's DNS root StateInit: its owner is the admin actor (testWallet(seed)). */
async function scenarioDnsRootInit(seed: number) {
  const dns = await dnsCode();
  return {
    dns,
    init: dnsRootInit(dns.root, {
      owner: testWallet(seed).wallet.address,
      content: offchainContent('https://dns.example/scenario.json'),
      itemCode: dns.item,
    }),
  };
}

/** Where the scenario deploys its DNS root, known before the chain starts (for `--dns-root`). */
export async function scenarioDnsRoot(seed = 201): Promise<Address> {
  return contractAddress(0, (await scenarioDnsRootInit(seed)).init);
}

export async function deployTokenScenario(env: ContractsChain, seed = 201): Promise<TokenScenario> {
  const [admin, alice, bob] = [await env.actor(seed), await env.actor(seed + 1), await env.actor(seed + 2)];

  const jettonInit = jettonMasterInit({
    admin: admin.address,
    content: onchainContent({ name: 'Scenario Jetton', symbol: 'SCN', decimals: '9' }),
  });
  const master = contractAddress(0, jettonInit);
  const aliceWallet = jettonWalletAddress(alice.address, master);
  const bobWallet = jettonWalletAddress(bob.address, master);
  await admin.send(
    master,
    toNano('0.2'),
    mintBody({ to: alice.address, amount: 1000n, tonAmount: toNano('0.05'), response: admin.address }),
    jettonInit,
  );
  await alice.send(
    aliceWallet,
    toNano('0.1'),
    jettonTransferBody({ to: bob.address, amount: 300n, response: alice.address, forwardTonAmount: toNano('0.01') }),
  );
  await bob.send(bobWallet, toNano('0.1'), jettonBurnBody({ amount: 100n, response: bob.address }));
  const carol = Address.parse(`0:${'ca'.repeat(32)}`);
  const failingWallet = jettonWalletAddress(carol, master);
  await env.devnet.setAccount(failingWallet, { balance: toNano(1), code: REFUSING_CODE, data: beginCell().endCell() });
  await alice.send(aliceWallet, toNano('0.1'), jettonTransferBody({ to: carol, amount: 50n, response: alice.address }));

  const nft = await nftCode();
  const collectionInit = nftCollectionInit(nft.collection, {
    owner: admin.address,
    content: offchainContent('https://nft.example/scenario.json'),
    commonContent: beginCell().storeStringTail('https://nft.example/scenario/').endCell(),
    itemCode: nft.item,
    royalty: { numerator: 1, denominator: 20, destination: admin.address },
  });
  const collection = contractAddress(0, collectionInit);
  const owners = [alice.address, bob.address, bob.address];
  await admin.send(
    collection,
    toNano('0.5'),
    batchDeployItemsBody(
      owners.map((owner, index) => ({
        index,
        amount: toNano('0.1'),
        owner,
        content: beginCell().storeStringTail(`${index}.json`).endCell(),
      })),
    ),
    collectionInit,
  );
  const item0 = nftItemAddress(collection, nft.item, 0);
  await alice.send(item0, toNano('0.1'), nftTransferBody({ newOwner: bob.address, response: alice.address }));

  const { dns, init: rootInit } = await scenarioDnsRootInit(seed);
  const root = contractAddress(0, rootInit);
  const domainItem = dnsItemAddress(root, dns.item, 'alice');
  await admin.send(root, toNano('0.3'), deployDomainBody({ domain: 'alice', owner: alice.address, amount: toNano('0.1') }), rootInit);
  await alice.send(domainItem, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(alice.address)));

  return {
    actors: { admin, alice, bob },
    jetton: {
      master,
      totalSupply: 900n,
      wallets: [
        { owner: alice.address, wallet: aliceWallet, balance: 700n },
        { owner: bob.address, wallet: bobWallet, balance: 200n },
      ],
      failingWallet,
    },
    // item 0 went from alice to bob
    nft: {
      collection,
      items: owners.map((owner, index) => ({
        index,
        address: nftItemAddress(collection, nft.item, index),
        owner: index === 0 ? bob.address : owner,
      })),
    },
    dns: { root, domain: 'alice', item: domainItem, owner: alice.address, wallet: alice.address },
  };
}
