import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, Dictionary, internal, toNano, type Slice } from '@ton/core';
import { configParseGasLimitsPrices, parseFullConfig, TonClient, WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { DevnetError } from '../../src/devnet/client.js';
import { getJson, postJson } from '../support/tongate.js';
import { answerCode, libraryCell, publisherCode } from '../support/library-contracts.js';
import { ADMIN_TOKEN, indexedUpTo, startManualTongate, until } from './support/manual-tongate.js';

const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

const CONFIG_ADDRESS = Address.parse(`-1:${'5'.repeat(64)}`);

/**
 * @ton/blueprint's NetworkProvider.getConfig(), step for step with the real client: the config contract's state
 * through TonClient, its data's first reference as the config dictionary, @ton/ton's parseFullConfig on it.
 */
async function blueprintGetConfig(client: TonClient) {
  const state = await client.provider(CONFIG_ADDRESS).getState();
  if (state.state.type !== 'active' || !state.state.data) throw new Error('Configuration contract not active');
  const dict = Cell.fromBoc(state.state.data)[0]
    .beginParse()
    .loadRef()
    .beginParse()
    .loadDictDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  const params = new Map<number, Slice>();
  for (const [key, value] of dict) params.set(key, value.beginParse());
  return { full: parseFullConfig(params), dict };
}

async function configParam(url: string, id: number): Promise<Cell> {
  const r = await getJson(`${url}/api/v2/getConfigParam?config_id=${id}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return Cell.fromBase64(r.body.result.config.bytes);
}

test("blueprint's getConfig() reads each network's config from its config contract, as getConfigParam serves it", async (t) => {
  const { gate } = await startManualTongate(t);
  for (const [network, globalId] of [
    ['mainnet', -239],
    ['testnet', -3],
  ] as const) {
    const url = gate.url(network);
    const client = new TonClient({ endpoint: `${url}/api/v2/jsonRPC` });
    const { full, dict } = await blueprintGetConfig(client);
    assert.ok(full.configAddress.equals(CONFIG_ADDRESS));
    assert.ok(full.electorAddress.equals(Address.parse(`-1:${'3'.repeat(64)}`)));
    assert.equal(dict.get(19)!.beginParse().loadInt(32), globalId, `${network}: its own global id`);
    assert.ok(dict.get(21)!.equals(await configParam(url, 21)), 'the contract and getConfigParam agree');
    const elector = await client.runMethod(full.electorAddress, 'active_election_id');
    assert.equal(elector.stack.readNumber(), 0, 'the elector answers: no election');
  }
});

test('POST /devnet/config: a higher gas price, checked and sealed; fees rise, and the contract and getConfigParam follow', async (t) => {
  const { devnet, client, url, gate } = await startManualTongate(t);
  const faucet = gate.chain('testnet').faucets()[0].address;
  const fundGasFees = async (seed: number) => {
    await devnet.fund(
      WalletContractV4.create({ workchain: 0, publicKey: keyPairFromSeed(Buffer.alloc(32, seed)).publicKey }).address,
      toNano(1),
    );
    const [tx] = await client.getTransactions(faucet, { limit: 1 });
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
    return d.computePhase.gasFees;
  };
  const before = await fundGasFees(1);
  const param21 = await configParam(url, 21);
  const p = configParseGasLimitsPrices(param21.beginParse());
  const raised = beginCell()
    .storeUint(0xd1, 8)
    .storeUint(p.flatLimit, 64)
    .storeUint(p.flatGasPrice, 64)
    .storeUint(0xde, 8)
    .storeUint(p.other.gasPrice * 10n, 64)
    .storeUint(p.other.gasLimit, 64)
    .storeUint(p.other.specialGasLimit ?? p.other.gasLimit, 64)
    .storeUint(p.other.gasCredit, 64)
    .storeUint(p.other.blockGasLimit, 64)
    .storeUint(p.other.freezeDueLimit, 64)
    .storeUint(p.other.deleteDueLimit, 64)
    .endCell();
  const head = (await client.getMasterchainInfo()).latestSeqno;
  // The request and the answer as the OpenAPI document of /devnet describes them.
  const operation = (await getJson(`${url}/devnet/openapi.json`)).body.paths['/devnet/config'].post;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const request = { params: { 21: raised.toBoc().toString('base64') } };
  assert.ok(ajv.validate(operation.requestBody.content['application/json'].schema, request), JSON.stringify(ajv.errors));
  const answer = await postJson(`${url}/devnet/config`, request, { authorization: `Bearer ${ADMIN_TOKEN}` });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.ok(ajv.validate(operation.responses['200'].content['application/json'].schema, answer.body), JSON.stringify(ajv.errors));
  assert.deepEqual(answer.body.result, { '@type': 'devnet.configSet', block_seqno: head + 1, config_seqno: 1, params: [21] });
  // The typed client: the same change again (the config contract's seqno moves on).
  assert.deepEqual(await devnet.setConfig({ 21: raised }), { blockSeqno: head + 2, configSeqno: 2 });
  assert.ok((await configParam(url, 21)).equals(raised));
  const asBefore = await getJson(`${url}/api/v2/getConfigParam?config_id=21&seqno=${head}`);
  assert.ok(Cell.fromBase64(asBefore.body.result.config.bytes).equals(param21), 'as of the block before the change: the old param');
  const { full } = await blueprintGetConfig(client);
  assert.equal(full.gasPrices.workchain.other.gasPrice, p.other.gasPrice * 10n, 'the config contract holds the new config');
  const after = await fundGasFees(2);
  assert.ok(after > before * 5n, `the faucet's gas fees ${before} -> ${after}`);

  // Refusals: 422 naming what is wrong; the config stays.
  const config = `${url}/devnet/config`;
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const msgPrices = (await configParam(url, 25)).toBoc().toString('base64');
  for (const [body, words] of [
    [{}, /params/],
    [{ params: {} }, /params: give at least one param/],
    [{ params: { x1: msgPrices } }, /"x1" is not a config param number/],
    [{ params: { 21: 'not a boc' } }, /params\.21/],
    [{ params: { 21: msgPrices } }, /params\.21: not a GasLimitsPrices/],
    [{ params: { 24: raised.toBoc().toString('base64') } }, /params\.24: not a MsgForwardPrices/],
    [{ params: { 19: msgPrices } }, /params\.19: the network's global id is fixed/],
    [{ params: { 25: msgPrices }, extra: 1 }, /extra/],
  ] as const) {
    const r = await postJson(config, body, auth);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.match(r.body.error, words);
  }
  assert.ok((await configParam(url, 21)).equals(raised));
  await assert.rejects(
    devnet.setConfig({ 0: raised }),
    (e: unknown) => e instanceof DevnetError && e.status === 422 && /config contract address is fixed/.test(e.message),
  );
});

test('workchain -1 holds accounts: a wallet deployed there with @ton/ton runs in the masterchain block; v2 and v3 list it', async (t) => {
  const { devnet, client, url } = await startManualTongate(t);
  const keys = keyPairFromSeed(Buffer.alloc(32, 77));
  const wallet = client.open(WalletContractV4.create({ workchain: -1, publicKey: keys.publicKey }));
  await devnet.fund(wallet.address, toNano(5));
  await wallet.sendTransfer({
    seqno: 0,
    secretKey: keys.secretKey,
    messages: [internal({ to: Address.parse(`0:${'ab'.repeat(32)}`), value: toNano('0.5'), bounce: false })],
  });
  const { seqno } = await devnet.mine();
  assert.equal(await wallet.getSeqno(), 1, 'deployed and ran on the masterchain');
  const [tx] = await client.getTransactions(wallet.address, { limit: 1 });
  const block = await getJson(`${url}/api/v2/getBlockTransactions?workchain=-1&shard=-9223372036854775808&seqno=${seqno}`);
  assert.equal(block.status, 200);
  assert.deepEqual(
    block.body.result.transactions.map((x: { hash: string }) => x.hash),
    [tx.hash().toString('base64')],
    'the masterchain block lists it',
  );
  await indexedUpTo(url, seqno);
  const v3 = await until(
    () => getJson(`${url}/api/v3/transactions?account=${wallet.address.toRawString()}&limit=5`),
    (r) => r.body.transactions?.length >= 2,
  );
  assert.equal(v3.body.transactions[0].block_ref.workchain, -1);
});

test('public libraries over HTTP: published on -1, getLibraries returns them and a contract whose code is a library cell runs', async (t) => {
  const { devnet, client, url } = await startManualTongate(t);
  const code = await answerCode();
  const publisher = Address.parse(`-1:${'61'.repeat(32)}`);
  await devnet.setAccount(publisher, { balance: toNano(10), code: await publisherCode(), data: Cell.EMPTY });
  const hash = encodeURIComponent(code.hash().toString('base64'));
  assert.deepEqual((await getJson(`${url}/api/v2/getLibraries?libraries=${hash}`)).body.result.result, []);
  await devnet.sendInternal({
    from: Address.parse(`0:${'99'.repeat(32)}`),
    to: publisher,
    value: toNano(1),
    body: beginCell().storeRef(code).endCell(),
  });
  const libs = await getJson(`${url}/api/v2/getLibraries?libraries=${hash}`);
  assert.equal(libs.body.result.result.length, 1);
  assert.ok(Cell.fromBase64(libs.body.result.result[0].data).equals(code));

  const user = Address.parse(`0:${'62'.repeat(32)}`);
  await devnet.setAccount(user, { balance: toNano(1), code: libraryCell(code), data: Cell.EMPTY });
  assert.equal((await client.runMethod(user, 'answer')).stack.readNumber(), 42);
});
