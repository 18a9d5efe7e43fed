import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, Dictionary, parseTuple, toNano, type Slice } from '@ton/core';
import { configParseGasLimitsPrices, configParseMsgPrices, parseFullConfig, WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { LocalChain } from '../../../src/chain/local/index.js';
import { answerCode, libraryCell, publisherCode } from '../../support/library-contracts.js';
import { openChain, tempDir, TEST_MNEMONIC, v4Transfer } from './support/local-chain.js';

const CONFIG_ADDRESS = Address.parse(`-1:${'5'.repeat(64)}`);
const ELECTOR_ADDRESS = Address.parse(`-1:${'3'.repeat(64)}`);

/** What blueprint's NetworkProvider.getConfig() does with the config contract's state: data ref 0 is the dictionary. */
function configFromContractData(data: Cell): Map<number, Slice> {
  const dict = data.beginParse().loadRef().beginParse().loadDictDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  return new Map([...dict].map(([id, cell]) => [id, cell.beginParse()]));
}

function walletOn(workchain: number, seed: number) {
  const keys = keyPairFromSeed(Buffer.alloc(32, seed));
  return { wallet: WalletContractV4.create({ workchain, publicKey: keys.publicKey }), keys };
}

/** Funds a fresh wallet, deploys it with a first transfer and returns that transfer's transaction. */
async function deployedWalletTx(chain: LocalChain, from: ReturnType<typeof walletOn>) {
  await chain.fund(from.wallet.address, toNano('10'));
  await chain.sendExternal(v4Transfer(from, 0, Address.parse(`0:${'ab'.repeat(32)}`), toNano('0.1'), { deploy: true }));
  await chain.mine();
  const [tx] = chain.getTransactions(from.wallet.address, { limit: 1 });
  return tx;
}

function gasFees(tx: Awaited<ReturnType<typeof deployedWalletTx>>): bigint {
  const description = tx.tx.description;
  assert.equal(description.type, 'generic');
  if (description.type !== 'generic' || description.computePhase.type !== 'vm') throw new Error('no compute phase');
  assert.ok(description.computePhase.success);
  return description.computePhase.gasFees;
}

/** Param 20/21 with another gas price (nanotons per 65536 gas), the rest as it was. */
function withGasPrice(param: Cell, gasPrice: bigint): Cell {
  const p = configParseGasLimitsPrices(param.beginParse());
  return beginCell()
    .storeUint(0xd1, 8)
    .storeUint(p.flatLimit, 64)
    .storeUint(p.flatGasPrice, 64)
    .storeUint(0xde, 8)
    .storeUint(gasPrice, 64)
    .storeUint(p.other.gasLimit, 64)
    .storeUint(p.other.specialGasLimit ?? p.other.gasLimit, 64)
    .storeUint(p.other.gasCredit, 64)
    .storeUint(p.other.blockGasLimit, 64)
    .storeUint(p.other.freezeDueLimit, 64)
    .storeUint(p.other.deleteDueLimit, 64)
    .endCell();
}

test('zero state: an active config contract whose data holds the config (as blueprint reads it), and an elector', async (t) => {
  const { chain } = await openChain(t, { blockIntervalMs: 0 });
  const config = chain.getAccount(CONFIG_ADDRESS);
  assert.equal(config.state, 'active');
  const params = configFromContractData(config.data!);
  const full = parseFullConfig(params);
  assert.ok(full.configAddress.equals(CONFIG_ADDRESS));
  assert.ok(full.electorAddress.equals(ELECTOR_ADDRESS));
  assert.equal(
    config.data!.refs[0].hash().toString('hex'),
    chain.config().hash().toString('hex'),
    'what the contract holds is what getConfigAll serves',
  );
  const seqno = await chain.runGetMethod(CONFIG_ADDRESS, 'seqno', []);
  assert.equal(seqno.exitCode, 0);
  assert.deepEqual(parseTuple(seqno.stackBoc), [{ type: 'int', value: 0n }]);

  assert.equal(chain.getAccount(ELECTOR_ADDRESS).state, 'active');
  for (const method of ['active_election_id', 'participant_list', 'past_election_ids']) {
    const r = await chain.runGetMethod(ELECTOR_ADDRESS, method, []);
    assert.equal(r.exitCode, 0, `${method} runs`);
  }
  const participates = await chain.runGetMethod(ELECTOR_ADDRESS, 'participates_in', [{ type: 'int', value: 1n }]);
  assert.equal(participates.exitCode, 0);
});

test('masterchain accounts: a wallet deployed on -1 runs in the masterchain block, paying masterchain gas prices', async (t) => {
  const { chain } = await openChain(t, { blockIntervalMs: 0 });
  const base = await deployedWalletTx(chain, walletOn(0, 7));
  const master = await deployedWalletTx(chain, walletOn(-1, 7));
  assert.equal(master.account.workChain, -1);
  assert.equal(master.block.workchain, -1, 'its block is the masterchain block');
  const block = chain.getBlock(master.block)!;
  assert.equal(block.txCount, 1);
  const listed = chain.blockTransactions(master.block, { count: 10 });
  assert.deepEqual(
    listed.transactions.map((x) => x.hash.toString('hex')),
    [master.hash.toString('hex')],
  );
  assert.equal(chain.getAccount(walletOn(-1, 7).wallet.address).state, 'active');
  // Param 20 (masterchain) prices gas 25 times param 21's in this config.
  assert.ok(gasFees(master) > gasFees(base) * 10n, `masterchain gas fees ${gasFees(master)} vs basechain ${gasFees(base)}`);
});

test('setConfig: a higher basechain gas price raises the next transactions fees; the config contract, config() and a restart agree', async (t) => {
  const dataDir = tempDir(t);
  const { chain, clock } = await openChain(t, { blockIntervalMs: 0, dataDir });
  const before = gasFees(await deployedWalletTx(chain, walletOn(0, 1)));
  const param21 = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.config()).get(21)!;
  const price = configParseGasLimitsPrices(param21.beginParse()).other.gasPrice;
  const raised = withGasPrice(param21, price * 10n);
  const head = chain.masterchainInfo().last.id.seqno;
  const { seqno, configSeqno } = await chain.setConfig(new Map([[21, raised]]));
  assert.equal(seqno, head + 1, 'sealed in the next block');
  assert.equal(configSeqno, 1);
  const after = gasFees(await deployedWalletTx(chain, walletOn(0, 2)));
  assert.ok(after > before * 5n, `gas fees ${before} -> ${after}`);

  const served = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.config()).get(21)!;
  assert.ok(served.equals(raised));
  const contract = chain.getAccount(CONFIG_ADDRESS);
  assert.ok(contract.data!.refs[0].equals(chain.config()));
  assert.equal(parseFullConfig(configFromContractData(contract.data!)).gasPrices.workchain.other.gasPrice, price * 10n);

  // Refusals name the param and change nothing.
  await assert.rejects(chain.setConfig(new Map([[21, beginCell().storeUint(0xea, 8).endCell()]])), /params\.21: not a GasLimitsPrices/);
  await assert.rejects(
    chain.setConfig(new Map([[0, beginCell().storeUint(0, 256).endCell()]])),
    /params\.0: the config contract address is fixed/,
  );
  assert.ok(chain.config().equals(contract.data!.refs[0]));

  // Two changes at once: each starts from the config the other left.
  const params = () => Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.config());
  const param20 = withGasPrice(params().get(20)!, 20_000_000n);
  const m = configParseMsgPrices(params().get(25)!.beginParse());
  const param25 = beginCell()
    .storeUint(0xea, 8)
    .storeUint(m.lumpPrice + 1n, 64)
    .storeUint(m.bitPrice, 64)
    .storeUint(m.cellPrice, 64)
    .storeUint(m.ihrPriceFactor, 32)
    .storeUint(m.firstFrac, 16)
    .storeUint(m.nextFrac, 16)
    .endCell();
  const both = await Promise.all([chain.setConfig(new Map([[20, param20]])), chain.setConfig(new Map([[25, param25]]))]);
  assert.deepEqual(
    both.map((b) => b.configSeqno),
    [2, 3],
  );
  assert.ok(params().get(20)!.equals(param20) && params().get(25)!.equals(param25) && params().get(21)!.equals(raised));
  const contract2 = chain.getAccount(CONFIG_ADDRESS);
  assert.ok(contract2.data!.refs[0].equals(chain.config()));

  await chain.stop();
  const reopened = await LocalChain.open({
    network: 'testnet',
    globalId: -3,
    faucetMnemonic: TEST_MNEMONIC,
    clock,
    dataDir,
    blockIntervalMs: 0,
  });
  t.after(() => reopened.stop());
  assert.ok(reopened.config().equals(contract2.data!.refs[0]), 'the config is read back from the config contract');
  const again = gasFees(await deployedWalletTx(reopened, walletOn(0, 3)));
  assert.equal(again, after);
});

test('public libraries: published on -1 with SETLIBCODE, they run code given as a library cell (transactions and get-methods) and getLibraries finds them', async (t) => {
  const { chain } = await openChain(t, { blockIntervalMs: 0 });
  const libraryCode = await answerCode();
  const publisher = Address.parse(`-1:${'71'.repeat(32)}`);
  await chain.setAccount(publisher, { balance: toNano('100'), code: await publisherCode(), data: Cell.EMPTY });
  assert.deepEqual(chain.libraries([libraryCode.hash()]), []);
  const { transaction } = await chain.sendInternal(internalTo(publisher, beginCell().storeRef(libraryCode).endCell()));
  assert.ok(transaction, 'delivered');
  const [lib] = chain.libraries([libraryCode.hash()]);
  assert.ok(lib?.cell.equals(libraryCode), 'getLibraries returns the published library');

  // A basechain contract whose code is only a library cell (type 2 + the library's hash).
  const user = Address.parse(`0:${'72'.repeat(32)}`);
  await chain.setAccount(user, { balance: toNano('1'), code: libraryCell(libraryCode), data: Cell.EMPTY });
  const answer = await chain.runGetMethod(user, 'answer', []);
  assert.equal(answer.exitCode, 0, 'the get-method runs the library code');
  assert.deepEqual(parseTuple(answer.stackBoc), [{ type: 'int', value: 42n }]);
  const sent = await chain.sendInternal(internalTo(user, Cell.EMPTY));
  const [tx] = chain.getTransactions(user, { limit: 1 });
  assert.ok(tx.hash.equals(sent.transaction!.hash));
  const d = tx.tx.description;
  assert.ok(d.type === 'generic' && d.computePhase.type === 'vm' && d.computePhase.success, 'the transaction runs the library code');
  assert.equal(chain.getAccount(user).data!.beginParse().loadUint(32), 42);
});

function internalTo(to: Address, body: Cell): Buffer {
  return beginCell()
    .storeUint(0b0110, 4) // int_msg_info$0 ihr_disabled bounce=1 bounced=0
    .storeAddress(Address.parse(`0:${'99'.repeat(32)}`))
    .storeAddress(to)
    .storeCoins(toNano('1'))
    .storeBit(false) // no extra currencies
    .storeCoins(0n)
    .storeCoins(0n)
    .storeUint(0, 64)
    .storeUint(0, 32)
    .storeBit(false) // no init
    .storeBit(true) // body as a ref
    .storeRef(body)
    .endCell()
    .toBoc();
}
