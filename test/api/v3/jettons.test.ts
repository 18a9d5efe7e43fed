/**
 * /api/v3/jetton/* on the local chain, through a real server, on both stores. A wallet deploys the
 * fixture jetton contracts (test/api/v2/support/contracts.ts: a master with onchain content, one with an
 * offchain uri, two wallets its master vouches for, one it does not, a contract whose get_jetton_data
 * content is not TEP-64), mints, then sends jetton `transfer` and `burn` bodies to its jetton wallet,
 * once with too little value for the wallet to run (an aborted transaction). The index detects the
 * contracts by their get-methods and keeps the transfers and burns; answers are checked against
 * toncenter's v3 spec and ours, and v2 getTokenData and tonweb's JettonWallet/JettonMinter read the same
 * values. Bad input is a 422.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, internal, toNano, type Cell } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { openStore } from '../../index/support/stores.js';
import { addressOf, compileContracts, offchainContent, onchainContent } from '../v2/support/contracts.js';
import { sealBlocks, sendFromWallet, serveIndex } from './support/server.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';

const TonWeb = ((await import('tonweb')) as any).default;
/** Raw uppercase form of an address (an @ton/core Address or tonweb's `0:abc...` text). */
const raw = (address: Address | string) => formatRawUpper(typeof address === 'string' ? Address.parse(address) : address);
const b64 = (cell: Cell) => cell.hash().toString('base64');

const check = checkAgainstSpecs;

function jettonTransferBody(queryId: bigint, amount: bigint, destination: Address, response: Address, comment: string): Cell {
  // forward_payload inline (Either bit 0): a text comment.
  return beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(queryId, 64)
    .storeCoins(amount)
    .storeAddress(destination)
    .storeAddress(response)
    .storeBit(false)
    .storeCoins(1n)
    .storeBit(false)
    .storeUint(0, 32)
    .storeStringTail(comment)
    .endCell();
}

function jettonBurnBody(queryId: bigint, amount: bigint, response: Address): Cell {
  return beginCell().storeUint(0x595f07bc, 32).storeUint(queryId, 64).storeCoins(amount).storeAddress(response).storeBit(false).endCell();
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/jetton/*: detected by get-methods, transfers and burns with their traces, metadata, interfaces [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const { chain } = server;
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const get = async (path: string) => {
      const reply = await server.get(path);
      assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
      check(ours, path.split('?')[0], reply.body);
      return reply.body;
    };
    const owner = testWallet(91);
    const recipient = testWallet(92).wallet.address;
    const c = await compileContracts();

    const walletData = (balance: bigint, holder: Address, master: Address) =>
      beginCell().storeCoins(balance).storeAddress(holder).storeAddress(master).endCell();
    const masterInit = (content: Cell, supply: bigint) => ({
      code: c.jettonMaster,
      data: beginCell().storeCoins(supply).storeAddress(owner.wallet.address).storeRef(content).storeRef(c.jettonWallet).endCell(),
    });
    const master = masterInit(onchainContent({ name: 'Tongate Coin', symbol: 'TGC', decimals: '6', description: 'a test jetton' }), 1000n);
    const offchain = masterInit(offchainContent('https://example.org/jetton.json'), 5n);
    const M = addressOf(master);
    const M2 = addressOf(offchain);
    const ownerWallet = { code: c.jettonWallet, data: walletData(0n, owner.wallet.address, M) };
    const recipientWallet = { code: c.jettonWallet, data: walletData(0n, recipient, M) };
    // The same code, but data its master would not compute: not vouched for, so not a jetton wallet.
    const fake = { code: c.jettonWallet, data: walletData(7n, owner.wallet.address, M) };
    const broken = { code: c.broken, data: beginCell().endCell() };
    const [A, B, F] = [ownerWallet, recipientWallet, fake].map(addressOf);

    const seal = (blocks = 1) => sealBlocks(server, blocks);
    const send = (seqno: number, messages: ReturnType<typeof internal>[], deploy = false) =>
      sendFromWallet(server, owner, seqno, messages, deploy);
    const deploy = (init: { code: Cell; data: Cell }, body?: Cell) =>
      internal({ to: addressOf(init), value: toNano('0.2'), bounce: false, init, body });

    await Promise.all([chain.fund(owner.wallet.address, toNano('20')), seal()]);
    await seal(2);
    await send(
      0,
      [deploy(master), deploy(offchain), deploy(ownerWallet, beginCell().storeCoins(1000n).endCell()), deploy(recipientWallet)],
      true,
    );
    await seal(3);
    await send(1, [deploy(fake), deploy(broken)]);
    await seal(3);
    await send(2, [
      internal({ to: A, value: toNano('0.1'), body: jettonTransferBody(7n, 100n, recipient, owner.wallet.address, 'hi') }),
      internal({ to: A, value: toNano('0.1'), body: jettonBurnBody(8n, 5n, owner.wallet.address) }),
    ]);
    await seal(3);
    // Too little value for the wallet to run: both transactions aborted (compute phase skipped).
    await send(3, [
      internal({ to: A, value: 1n, bounce: false, body: jettonTransferBody(9n, 1n, recipient, owner.wallet.address, 'nope') }),
      internal({ to: A, value: 1n, bounce: false, body: jettonBurnBody(10n, 1n, owner.wallet.address) }),
    ]);
    await seal(3);

    // Masters: both, in the order first seen; content parsed; the broken one is not a master.
    const masters = await get('/api/v3/jetton/masters');
    assert.deepEqual(masters.jetton_masters.map((m: any) => m.address).sort(), [raw(M), raw(M2)].sort());
    const m = masters.jetton_masters.find((x: any) => x.address === raw(M));
    assert.deepEqual(
      { ...m, last_transaction_lt: typeof m.last_transaction_lt, data_hash: typeof m.data_hash },
      {
        address: raw(M),
        total_supply: '1000',
        mintable: true,
        admin_address: raw(owner.wallet.address),
        jetton_content: { name: 'Tongate Coin', symbol: 'TGC', decimals: '6', description: 'a test jetton' },
        jetton_wallet_code_hash: b64(c.jettonWallet),
        code_hash: b64(c.jettonMaster),
        data_hash: 'string',
        last_transaction_lt: 'string',
      },
    );
    assert.deepEqual(masters.jetton_masters.find((x: any) => x.address === raw(M2)).jetton_content, {
      uri: 'https://example.org/jetton.json',
    });
    assert.deepEqual(masters.address_book[raw(M)].interfaces, ['jetton_master']);
    assert.equal(masters.metadata[raw(M)].is_indexed, true);
    assert.deepEqual(masters.metadata[raw(M)].token_info, [
      {
        valid: true,
        type: 'jetton_masters',
        name: 'Tongate Coin',
        symbol: 'TGC',
        description: 'a test jetton',
        is_nsfw: false,
        is_scam: false,
        extra: { decimals: '6' },
      },
    ]);
    assert.deepEqual(
      masters.metadata[raw(M2)],
      { is_indexed: false, token_info: [{ type: 'jetton_masters' }] },
      'offchain content is not fetched',
    );
    assert.deepEqual(
      (await get(`/api/v3/jetton/masters?address=${M.toString()}`)).jetton_masters.map((x: any) => x.address),
      [raw(M)],
    );
    assert.equal(
      (await get(`/api/v3/jetton/masters?admin_address=${raw(owner.wallet.address)}&limit=1&offset=1`)).jetton_masters.length,
      1,
    );
    assert.deepEqual((await get(`/api/v3/jetton/masters?address=${raw(addressOf(broken))}`)).jetton_masters, []);

    // Wallets: the two its master vouches for; the fake is not one. Balances as the contract says.
    const wallets = await get(`/api/v3/jetton/wallets?jetton_address=${raw(M)}`);
    assert.deepEqual(wallets.jetton_wallets.map((w: any) => w.address).sort(), [raw(A), raw(B)].sort());
    const a = wallets.jetton_wallets.find((w: any) => w.address === raw(A));
    assert.equal(a.owner, raw(owner.wallet.address));
    assert.equal(a.jetton, raw(M));
    assert.equal(a.code_hash, b64(c.jettonWallet));
    const v2 = await server.get(`/api/v2/getTokenData?address=${A.toString()}`);
    assert.equal(v2.body.result.balance, a.balance, 'v2 getTokenData and the index agree');
    // tonweb's own jetton classes, through our v2 jsonRPC, read what the index shows.
    const tonweb = new TonWeb(new TonWeb.HttpProvider(`${server.base}/api/v2/jsonRPC`));
    const tonwebWallet = await new TonWeb.token.jetton.JettonWallet(tonweb.provider, { address: A.toString() }).getData();
    assert.equal(tonwebWallet.balance.toString(), a.balance);
    assert.equal(raw(tonwebWallet.jettonMinterAddress.toString(false)), raw(M));
    const tonwebMaster = await new TonWeb.token.jetton.JettonMinter(tonweb.provider, { address: M.toString() }).getJettonData();
    assert.equal(tonwebMaster.totalSupply.toString(), m.total_supply);
    assert.equal(raw(tonwebMaster.adminAddress.toString(false)), m.admin_address);
    assert.deepEqual(wallets.address_book[raw(A)].interfaces, ['jetton_wallet']);
    assert.deepEqual(wallets.metadata[raw(A)], {
      is_indexed: true,
      token_info: [
        { valid: true, type: 'jetton_wallets', extra: { owner: raw(owner.wallet.address), jetton: raw(M), balance: a.balance } },
      ],
    });
    assert.ok(wallets.metadata[raw(M)], "a wallet brings its master's metadata");
    assert.deepEqual((await get(`/api/v3/jetton/wallets?address=${raw(F)}`)).jetton_wallets, [], 'a wallet its master does not vouch for');
    assert.deepEqual(
      (await get(`/api/v3/jetton/wallets?owner_address=${owner.wallet.address.toString()}`)).jetton_wallets.map((w: any) => w.address),
      [raw(A)],
    );
    assert.deepEqual(
      (await get(`/api/v3/jetton/wallets?jetton_address=${raw(M)}&exclude_zero_balance=true`)).jetton_wallets.map((w: any) => w.address),
      [raw(A)],
    );
    assert.deepEqual(
      (await get(`/api/v3/jetton/wallets?jetton_address=${raw(M)}&sort=asc`)).jetton_wallets.map((w: any) => w.address),
      [raw(B), raw(A)],
      'by balance',
    );
    assert.deepEqual(
      (await get(`/api/v3/jetton/wallets?jetton_address=${raw(M)}&sort=desc&limit=1`)).jetton_wallets.map((w: any) => w.address),
      [raw(A)],
    );
    assert.equal(
      (await get(`/api/v3/jetton/wallets?jetton_address=${raw(M)},${raw(M2)}&owner_address=${raw(recipient)}`)).jetton_wallets.length,
      1,
      'a comma list',
    );

    // Transfers: the one that ran (the aborted one is left out, as toncenter does), with its trace.
    const out = await get(`/api/v3/jetton/transfers?owner_address=${raw(owner.wallet.address)}&direction=out`);
    assert.equal(out.jetton_transfers.length, 1);
    const tr = out.jetton_transfers[0];
    const tx = (await get(`/api/v3/transactions?hash=${encodeURIComponent(tr.transaction_hash)}`)).transactions[0];
    assert.deepEqual(tr, {
      query_id: '7',
      source: raw(owner.wallet.address),
      destination: raw(recipient),
      amount: '100',
      source_wallet: raw(A),
      jetton_master: raw(M),
      transaction_hash: tx.hash,
      transaction_lt: tx.lt,
      transaction_now: tx.now,
      transaction_aborted: false,
      response_destination: raw(owner.wallet.address),
      custom_payload: null,
      decoded_custom_payload: null,
      forward_ton_amount: '1',
      forward_payload: tr.forward_payload,
      decoded_forward_payload: { '@type': 'text_comment', comment: 'hi', type: 'text_comment' },
      trace_id: tx.trace_id,
    });
    assert.equal(tx.account, raw(A));
    assert.ok(tx.trace_id, 'the transfer carries its trace');
    assert.deepEqual(Object.keys(out.address_book).sort(), [raw(owner.wallet.address), raw(recipient), raw(A), raw(M)].sort());
    assert.equal((await get(`/api/v3/jetton/transfers?owner_address=${raw(recipient)}&direction=in`)).jetton_transfers.length, 1);
    assert.equal(
      (await get(`/api/v3/jetton/transfers?owner_address=${raw(owner.wallet.address)}&direction=in`)).jetton_transfers.length,
      0,
    );
    assert.equal(
      (await get(`/api/v3/jetton/transfers?address=${raw(recipient)}&direction=both`)).jetton_transfers.length,
      1,
      'address is an alias of owner_address',
    );
    assert.equal((await get(`/api/v3/jetton/transfers?jetton_wallet=${raw(A)}&jetton_master=${raw(M)}`)).jetton_transfers.length, 1);
    assert.equal((await get(`/api/v3/jetton/transfers?jetton_master=${raw(M2)}`)).jetton_transfers.length, 0);
    assert.equal((await get(`/api/v3/jetton/transfers?start_lt=${BigInt(tx.lt) + 1n}`)).jetton_transfers.length, 0);
    assert.equal((await get(`/api/v3/jetton/transfers?start_utime=${tx.now}&end_utime=${tx.now}`)).jetton_transfers.length, 1);

    // Burns: both, the aborted one included (toncenter's own difference), newest first by default.
    const burns = await get(`/api/v3/jetton/burns?address=${raw(owner.wallet.address)}`);
    assert.deepEqual(
      burns.jetton_burns.map((b: any) => [b.query_id, b.amount, b.transaction_aborted]),
      [
        ['10', '1', true],
        ['8', '5', false],
      ],
    );
    assert.deepEqual(Object.keys(burns.jetton_burns[1]), [
      'query_id',
      'owner',
      'jetton_wallet',
      'jetton_master',
      'transaction_hash',
      'transaction_lt',
      'transaction_now',
      'transaction_aborted',
      'amount',
      'response_destination',
      'custom_payload',
      'decoded_custom_payload',
      'trace_id',
    ]);
    assert.deepEqual(
      (await get(`/api/v3/jetton/burns?owner_address=${raw(owner.wallet.address)}&sort=asc&limit=1`)).jetton_burns.map(
        (b: any) => b.query_id,
      ),
      ['8'],
    );
    assert.equal((await get(`/api/v3/jetton/burns?jetton_wallet=${raw(A)}&offset=1`)).jetton_burns.length, 1);

    // The metadata of other list endpoints names the token contracts among their addresses.
    const trace = await get(`/api/v3/traces?tx_hash=${encodeURIComponent(tr.transaction_hash)}`);
    assert.equal(trace.metadata[raw(A)].token_info[0].type, 'jetton_wallets');
    assert.equal(trace.metadata[raw(M)].token_info[0].symbol, 'TGC');
    assert.equal((await get(`/api/v3/messages?destination=${raw(A)}&limit=1`)).metadata[raw(A)].is_indexed, true);
    assert.deepEqual(Object.keys((await get(`/api/v3/accountStates?address=${raw(M2)}`)).metadata), [raw(M2)]);

    // /metadata: token contracts only, keyed raw.
    const metadata = await get(`/api/v3/metadata?address=${A.toString()}&address=${raw(owner.wallet.address)}`);
    assert.deepEqual(Object.keys(metadata).sort(), [raw(A), raw(M)].sort());

    // Bad input: 422 naming what was wrong, never a 500.
    const bad: [string, RegExp][] = [
      [
        `/api/v3/jetton/wallets?jetton_address=${raw(M)}&jetton_address=${raw(M2)}`,
        /^exact one owner_address required for multiple jetton_address$/,
      ],
      ['/api/v3/jetton/wallets?owner_address=0:zz', /owner_address/],
      ['/api/v3/jetton/wallets?exclude_zero_balance=perhaps', /exclude_zero_balance/],
      ['/api/v3/jetton/wallets?sort=up', /sort/],
      ['/api/v3/jetton/masters?limit=1001', /limit is not allowed/],
      ['/api/v3/jetton/masters?address=nope', /address/],
      ['/api/v3/jetton/transfers?direction=sideways', /direction/],
      ['/api/v3/jetton/transfers?jetton_master=xyz', /jetton_master/],
      ['/api/v3/jetton/transfers?start_lt=soon', /start_lt/],
      ['/api/v3/jetton/burns?end_utime=-5', /end_utime/],
      ['/api/v3/jetton/burns?offset=x', /offset/],
    ];
    for (const [path, message] of bad) {
      const reply = await server.get(path);
      assert.equal(reply.status, 422, `${path}: ${JSON.stringify(reply.body)}`);
      assert.match(reply.body.error, message, path);
    }
  });
}
