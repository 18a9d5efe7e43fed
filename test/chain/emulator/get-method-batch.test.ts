/**
 * Get-methods run together in one emulator call (src/chain/emulator/get-method-batch.ts) answer exactly what each
 * answers alone: exit code, gas used and stack, for token contracts, a contract answering its whole c7
 * parameter tuple (balance, address, code, time, seed, config, PREVBLOCKSINFO...), RETALT, an exception, running
 * out of gas and arguments the program cannot push. And they did run together: one emulator call for all the
 * calls that succeed, one more for each of the others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { getSelectorForMethod } from '@ton/sandbox/dist/utils/selector.js';
import { Emulator, loadExecutor, type GetRunArgs, type GetRunResult } from '../../../src/chain/emulator/emulator.js';
import { networkConfig } from '../../../src/chain/local/config.js';
import {
  BATCH_MAX_ARGUMENT_DEPTH,
  runGetMethodBatch,
  standaloneArgs,
  type BatchCall,
} from '../../../src/chain/emulator/get-method-batch.js';
import { serializePrevBlocksInfo } from '../../../src/chain/emulator/prev-blocks-info.js';
import { nftCollectionInit } from '../../../src/contracts/nft/nft.js';
import { offchainContent } from '../../../src/contracts/content.js';
import { nftCode } from '../../contracts/support/code.js';
import { addressOf, compileContracts } from '../../api/v2/support/contracts.js';

const stackOf = (items: TupleItem[]) => serializeTuple(items).toBoc().toString('base64');
const owner = (n: number) => new Address(0, Buffer.alloc(32, n));
/** A cell nesting `depth` references deep. */
function deepCell(depth: number): Cell {
  let cell = new Cell();
  for (let i = 0; i < depth; i++) cell = beginCell().storeRef(cell).endCell();
  return cell;
}
/** A code cell of raw TVM instructions. */
const asm = (hex: string) => beginCell().storeBuffer(Buffer.from(hex, 'hex')).endCell();

/** Stack items compared by value (cells by hash). */
function comparable(result: GetRunResult): unknown {
  if (!result.success) return result;
  const items = parseTuple(Cell.fromBase64(result.stack));
  return {
    exitCode: result.exitCode,
    gasUsed: result.gasUsed,
    missingLibrary: result.missingLibrary,
    stack: JSON.stringify(items, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Cell ? v.hash().toString('hex') : v)),
  };
}

test('get-methods batched in one run answer as each run alone', async () => {
  const emulator = new Emulator(await loadExecutor(), networkConfig(-239).base64);
  const code = await compileContracts();
  const nft = await nftCode();
  const block = { unixTime: 1_700_000_123, randSeedHex: 'ab'.repeat(32), gasLimit: 200_000n };
  const blockId = (seqno: number) => ({
    workchain: -1,
    shard: 0x8000000000000000n,
    seqno,
    rootHash: Buffer.alloc(32, seqno),
    fileHash: Buffer.alloc(32, seqno + 1),
  });
  const prevBlocksInfo = serializePrevBlocksInfo([blockId(9), blockId(8)], blockId(0));
  const call = (
    init: { code: Cell; data: Cell },
    address: Address,
    balance: bigint,
    method: string | number,
    args: TupleItem[] = [],
  ): BatchCall => ({
    args: {
      code: init.code.toBoc().toString('base64'),
      data: init.data.toBoc().toString('base64'),
      address: address.toRawString(),
      balance,
      methodId: typeof method === 'number' ? method : getSelectorForMethod(method),
      stack: stackOf(args),
      ...block,
    } satisfies GetRunArgs,
    code: init.code,
    data: init.data,
  });

  const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 3) });
  const masterInit = {
    code: code.jettonMaster,
    data: beginCell()
      .storeCoins(1_000_000n)
      .storeAddress(owner(1))
      .storeRef(offchainContent('https://x/j.json'))
      .storeRef(code.jettonWallet)
      .endCell(),
  };
  const master = addressOf(masterInit);
  const jettonWalletInit = {
    code: code.jettonWallet,
    data: beginCell().storeCoins(777n).storeAddress(owner(2)).storeAddress(master).endCell(),
  };
  const collectionInit = nftCollectionInit(nft.collection, {
    owner: owner(4),
    content: offchainContent('https://x/c.json'),
    commonContent: beginCell().storeStringTail('https://x/c/').endCell(),
    itemCode: nft.item,
    royalty: { numerator: 1, denominator: 20, destination: owner(4) },
    nextItemIndex: 3n,
  }) as { code: Cell; data: Cell };
  const collection = addressOf(collectionInit);
  // PUSHCTR c7, INDEX 0: the whole parameter tuple, as this account's run sees it.
  const c7Probe = { code: asm('ed476f10'), data: beginCell().storeUint(1, 8).endCell() };
  const c7ProbeOther = { code: asm('ed476f1071'), data: new Cell() };
  const retAlt = { code: asm('7bdb31'), data: new Cell() }; // PUSHINT -5, RETALT: exit code 1
  const endless = { code: asm('eb'), data: new Cell() }; // AGAINEND with nothing after it: out of gas

  const calls: BatchCall[] = [
    call(wallet.init as { code: Cell; data: Cell }, wallet.address, 5n, 'seqno'),
    call(wallet.init as { code: Cell; data: Cell }, wallet.address, 5n, 'get_public_key'),
    call(masterInit, master, 10n ** 9n, 'get_jetton_data'),
    call(masterInit, master, 10n ** 9n, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner(2)).endCell() }]),
    call(jettonWalletInit, addressOf(jettonWalletInit), 3n, 'get_wallet_data'),
    call(collectionInit, collection, 10n ** 10n, 'get_collection_data'),
    call(collectionInit, collection, 10n ** 10n, 'get_nft_address_by_index', [{ type: 'int', value: 2n }]),
    call(collectionInit, collection, 10n ** 10n, 'get_nft_content', [
      { type: 'int', value: 2n },
      { type: 'cell', cell: beginCell().storeStringTail('2.json').endCell() },
    ]),
    call(c7Probe, owner(7), 123_456_789n, 0, [{ type: 'int', value: -(2n ** 256n) }, { type: 'null' }, { type: 'int', value: 2n ** 255n }]),
    call(c7ProbeOther, new Address(-1, Buffer.alloc(32, 8)), 0n, 77),
    call(retAlt, owner(9), 1n, 0),
    call(wallet.init as { code: Cell; data: Cell }, wallet.address, 5n, 'no_such_method'), // exit code 11: runs again alone
    call(endless, owner(10), 1n, 0), // out of gas: runs again alone
    call(c7Probe, owner(7), 1n, 0, [{ type: 'tuple', items: [] }]), // a tuple argument: runs alone
    call(c7Probe, owner(7), 1n, 0, [{ type: 'cell', cell: deepCell(BATCH_MAX_ARGUMENT_DEPTH + 1) }]), // too deep to batch: runs alone
  ].map((c) => ({ ...c, args: { ...c.args, prevBlocksInfo } }));

  const alone = calls.map((c) => comparable(emulator.runGetMethod(standaloneArgs(c))));
  let runs = 0;
  const counting = Object.assign(Object.create(emulator) as Emulator, {
    runGetMethod: (args: GetRunArgs) => (runs++, emulator.runGetMethod(args)),
  });
  const together = runGetMethodBatch(counting, calls).map(comparable);
  for (let i = 0; i < calls.length; i++) assert.deepEqual(together[i], alone[i], `call ${i} (method ${calls[i].args.methodId})`);
  assert.equal(runs, 1 + 4, 'one run for the batch, one for each call that failed or could not be pushed');

  // What the answers were (so that "equal" is not "equal and empty").
  const exits = alone.map((a) => (a as { exitCode?: number }).exitCode);
  assert.deepEqual(exits, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 11, -14, 0, 0]);
  const probe = parseTuple(Cell.fromBase64((emulator.runGetMethod(standaloneArgs(calls[8])) as { stack: string }).stack));
  const params = probe.at(-1)!;
  assert.equal(params.type, 'tuple');
  assert.ok(params.type === 'tuple' && params.items.length >= 14, 'the c7 parameters, PREVBLOCKSINFO included');
});
