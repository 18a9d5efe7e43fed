/**
 * A trace classified while token detection did not know a contract among its accounts is classified again when a
 * retried detection finds it (src/index/actions/late-finds.ts), on both stores: a jetton mint on a local chain (the
 * faucet mints tongate's own TEP-74 jetton to alice) is indexed while get_wallet_data of alice's new jetton wallet
 * fails as a liteserver that does not answer in time fails; the trace is classified without the wallet (no
 * `jetton_mint`: toncenter's matcher needs the wallet known). The chain answers again, the retry at a later (quiet)
 * block detects the wallet, and in that block's DB transaction the trace's actions become `jetton_mint`, its old
 * actions and their account rows gone.
 */
import assert from 'node:assert/strict';
import { contractAddress, toNano, type Address } from '@ton/core';
import { onchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, jettonWalletAddress, mintBody } from '../../src/contracts/jetton/jetton.js';
import { feedFromChain, indexedFromFeed } from '../../src/index/feed.js';
import type { SqlValue } from '../../src/index/sql/driver.js';
import { directGetMethods, type GetMethodRunner } from '../../src/index/tokens/get-methods.js';
import { RETRY_DELAYS } from '../../src/index/tokens/detection-retry.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain, testWallet } from '../chain/local/support/local-chain.js';
import { eachStore } from './support/stores.js';

const raw = (address: Address) => formatRawUpper(address);

eachStore('a jetton mint classified while its wallet was not detected becomes jetton_mint when the retry detects it', async (t, { index }) => {
  const { chain } = await openChain(t);
  const faucet = chain.faucets().find((f) => f.kind === 'v4r2')!.address;
  const alice = testWallet(61).wallet.address;
  const init = jettonMasterInit({ admin: faucet, content: onchainContent({ name: 'Late', symbol: 'LATE', decimals: '9' }) });
  const master = contractAddress(0, init);
  const wallet = raw(jettonWalletAddress(alice, master));

  // The chain's get-methods, but alice's jetton wallet gets no answer while `down` (a liteserver past its budget).
  const direct = directGetMethods((a, method, stack, seqno) => chain.runGetMethod(a, method, stack, seqno));
  let down = true;
  const asked: number[] = [];
  const runner: GetMethodRunner = {
    async run(account, method, stack, mcSeqno) {
      if (account === wallet && method === 'get_wallet_data') {
        asked.push(mcSeqno);
        if (down) throw new Error(`${method} on ${account}: no answer from the chain within 10000 ms`);
      }
      return direct.run(account, method, stack, mcSeqno);
    },
  };
  index.writer.useGetMethods(runner);
  let written = -1;
  const writeUpTo = async (last: number) => {
    for (; written < last; ) await index.writer.write(indexedFromFeed(await feedFromChain(chain, ++written)));
  };

  const sent = chain.sendFromFaucet({
    to: master,
    value: toNano('0.3'),
    init,
    body: mintBody({ to: alice, amount: 1000n, tonAmount: toNano('0.05'), response: faucet }),
  });
  await chain.produceBlock();
  await sent;
  for (let i = 0; i < 10 && (chain.stats().pendingMessages > 0 || chain.stats().openTransactions > 0); i++) await chain.produceBlock();
  await writeUpTo(chain.masterchainInfo().last.id.seqno);

  const [minted] = await index.reads.all('SELECT trace_id, mc_seqno FROM transactions WHERE account = ?', [wallet]);
  assert.ok(minted, "the mint reached alice's jetton wallet");
  const traceId = minted.trace_id as SqlValue;
  const failedAt = Number(minted.mc_seqno);
  // Asked at the block that deployed the wallet, and again at that block's state by the retries the blocks written
  // since made due (the mint's messages take a few blocks): every one failed.
  const failures = asked.length;
  assert.ok(failures >= 1 && failures <= RETRY_DELAYS.length, `asked ${asked}`);
  assert.deepEqual(new Set(asked), new Set([failedAt]), 'always at the failed block');
  assert.equal(
    (await index.reads.all('SELECT address FROM jetton_wallets WHERE address = ?', [wallet])).length,
    0,
    'the wallet is unknown',
  );
  const [classified] = await index.reads.all('SELECT state FROM trace_classifications WHERE trace_id = ?', [traceId]);
  assert.equal(classified?.state, 'ok', 'the mint trace completed and was classified');
  const typesOf = async () =>
    (await index.reads.all('SELECT type FROM actions WHERE trace_id = ? ORDER BY type', [traceId])).map((r) => String(r.type));
  const before = await typesOf();
  assert.ok(!before.includes('jetton_mint'), `without the wallet: ${before}`);
  assert.ok(before.includes('call_contract'), `the mint is contract calls: ${before}`);
  const staleAccounts = await index.reads.all(
    "SELECT a.action_id FROM action_accounts a JOIN actions x ON x.trace_id = a.trace_id AND x.action_id = a.action_id WHERE a.trace_id = ? AND x.type = 'call_contract'",
    [traceId],
  );
  assert.ok(staleAccounts.length > 0);

  // The chain answers again; the next blocks are quiet (no token account changes): the retry still runs at one.
  down = false;
  for (let i = 0; i < 8 && asked.length === failures; i++) {
    await chain.produceBlock();
    await writeUpTo(chain.masterchainInfo().last.id.seqno);
  }
  assert.deepEqual(asked.slice(failures), [failedAt], 'retried at a later quiet block, at the failed block');
  assert.equal((await index.reads.all('SELECT owner FROM jetton_wallets WHERE address = ?', [wallet]))[0]?.owner, raw(alice));

  const after = await typesOf();
  assert.ok(after.includes('jetton_mint'), `classified again: ${after}`);
  assert.ok(!after.includes('call_contract'), `the contract calls are gone: ${after}`);
  const [mint] = await index.reads.all("SELECT doc, accounts FROM actions WHERE trace_id = ? AND type = 'jetton_mint'", [traceId]);
  const doc = JSON.parse(String(mint.doc));
  assert.deepEqual(doc.details, {
    asset: raw(master),
    receiver: raw(alice),
    receiver_jetton_wallet: wallet,
    amount: '1000',
    ton_amount: '50000000',
  });
  assert.equal(doc.success, true);
  // action_accounts: the mint under alice, nothing left of the replaced actions.
  const ofAlice = await index.reads.all('SELECT action_id FROM action_accounts WHERE account = ? AND trace_id = ?', [raw(alice), traceId]);
  const mintId = (await index.reads.all("SELECT action_id FROM actions WHERE trace_id = ? AND type = 'jetton_mint'", [traceId]))[0].action_id;
  assert.ok(
    ofAlice.some((r) => Buffer.compare(r.action_id as Buffer, mintId as Buffer) === 0),
    "the mint is among alice's actions",
  );
  const orphans = await index.reads.all(
    'SELECT a.account FROM action_accounts a LEFT JOIN actions x ON x.trace_id = a.trace_id AND x.action_id = a.action_id WHERE a.trace_id = ? AND x.trace_id IS NULL',
    [traceId],
  );
  assert.deepEqual(orphans, [], 'no account row of a deleted action');
  const accountsOfActions = new Set(
    (await index.reads.all('SELECT accounts FROM actions WHERE trace_id = ?', [traceId])).flatMap((r) => JSON.parse(String(r.accounts))),
  );
  const accountRows = await index.reads.all('SELECT DISTINCT account FROM action_accounts WHERE trace_id = ?', [traceId]);
  assert.deepEqual(new Set(accountRows.map((r) => String(r.account))), accountsOfActions, "the trace's account rows are its actions'");
  assert.equal(
    (await index.reads.all('SELECT state FROM trace_classifications WHERE trace_id = ?', [traceId]))[0].state,
    'ok',
  );
});
