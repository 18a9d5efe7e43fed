/**
 * The jetton faucet. POST /devnet/deploy-jetton deploys tongate's own jetton master (src/contracts/jetton) with
 * the given TEP-64 metadata and the v4r2 faucet wallet as its admin; POST /devnet/fund-jetton {"master","to",
 * "amount"} mints `amount` units of a master whose admin is that faucet wallet to `to` (any master that takes
 * tonweb's mint#15 layout: tongate's, the reference minter). Each answers once the outcome is in a block: the
 * master active, the tokens in `to`'s jetton wallet.
 */
import { Address, beginCell, contractAddress, toNano, type TupleItem } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/api-error.js';
import { NotThatContract, StackReader } from '../api/v2/contracts/get-method-call.js';
import type { DevnetChain } from '../chain/devnet-chain.js';
import type { ChainTransaction } from '../chain/types.js';
import { offchainContent, onchainContent } from '../contracts/content.js';
import { jettonMasterInit, mintBody } from '../contracts/jetton/jetton.js';
import { parseVmStack } from '../ton/vm-stack.js';
import { afterBlocks } from './follow.js';
import { devnetRoute, type DevnetOptions } from './guard.js';
import { address, integer, jettonUnits, onlyFields, text } from './input.js';
import { ADDRESS, HASH, JETTON_UNITS, object } from './schemas.js';

/** What the faucet sends: the master's storage at deployment; a mint's TON (the wallet's share + the master's fees). */
const DEPLOY_VALUE = toNano('0.05');
const MINT_WALLET_TON = toNano('0.05');
const MINT_VALUE = toNano('0.1');

const DEPLOY_FIELDS = ['name', 'symbol', 'decimals', 'description', 'image', 'uri'] as const;
const FUND_FIELDS = ['master', 'to', 'amount'] as const;

export function registerJetton(app: FastifyInstance, options: DevnetOptions): void {
  const deployOperation = {
    method: 'POST' as const,
    path: '/devnet/deploy-jetton',
    summary:
      "Deploys a jetton master (tongate's TEP-74 contract) whose admin is the faucet wallet, with onchain metadata or an offchain uri; the same metadata gives the same master",
    body: object(
      {
        name: { type: 'string', maxLength: 128 },
        symbol: { type: 'string', maxLength: 32 },
        decimals: { type: 'integer', minimum: 0, maximum: 255, default: 9 },
        description: { type: 'string', maxLength: 1024 },
        image: { type: 'string', maxLength: 1024, description: 'an image URL' },
        uri: { type: 'string', maxLength: 1024, description: 'offchain metadata instead (TEP-64 0x01): then no other field' },
      },
      [],
    ),
    result: object({
      '@type': { const: 'devnet.jettonDeployed' },
      master: ADDRESS,
      admin: ADDRESS,
      already_deployed: { type: 'boolean' },
      hash: { type: ['string', 'null'], description: "the master's deployment transaction, base64 (null when it was already deployed)" },
      block_seqno: { type: 'integer' },
    }),
  };
  devnetRoute(app, options, deployOperation, async (chain, body) => {
    onlyFields(body, DEPLOY_FIELDS);
    const admin = faucetAddress(chain);
    const init = jettonMasterInit({ admin, content: jettonContent(body) });
    const master = contractAddress(0, init);
    const before = await chain.getAccount(master);
    if (before.state === 'active') {
      return {
        '@type': 'devnet.jettonDeployed',
        master: master.toRawString(),
        admin: admin.toRawString(),
        already_deployed: true,
        hash: null,
        block_seqno: before.block.seqno,
      };
    }
    const sent = await chain.sendFromFaucet({ to: master, value: DEPLOY_VALUE, init });
    const deployed = await afterBlocks(chain, 'the jetton master', () => transactionOf(chain, master, sent.lt));
    if ((await chain.getAccount(master)).state !== 'active')
      throw new ApiError(
        500,
        `the jetton master ${master.toRawString()} was not deployed (transaction ${deployed.hash.toString('base64')})`,
      );
    return {
      '@type': 'devnet.jettonDeployed',
      master: master.toRawString(),
      admin: admin.toRawString(),
      already_deployed: false,
      hash: deployed.hash.toString('base64'),
      block_seqno: deployed.mcSeqno,
    };
  });

  const fundOperation = {
    method: 'POST' as const,
    path: '/devnet/fund-jetton',
    summary:
      "Mints jettons to an owner through a master whose admin is the faucet wallet; answered once they are in the owner's jetton wallet",
    body: object({ master: ADDRESS, to: ADDRESS, amount: JETTON_UNITS }, ['master', 'to', 'amount']),
    result: object({
      '@type': { const: 'devnet.jettonFunded' },
      wallet: { ...ADDRESS, description: "the owner's jetton wallet" },
      balance: JETTON_UNITS,
      hash: { ...HASH, description: "the jetton wallet's transaction that received the tokens" },
      lt: { type: 'string' },
      block_seqno: { type: 'integer' },
    }),
  };
  devnetRoute(app, options, fundOperation, async (chain, body) => {
    onlyFields(body, FUND_FIELDS);
    const master = address(body.master, 'master');
    const to = address(body.to, 'to');
    const amount = jettonUnits(body.amount, 'amount');
    if (to.workChain !== 0)
      throw new ApiError(422, `to: jetton wallets live on the basechain; ${to.toRawString()} is on workchain ${to.workChain}`);
    const faucet = faucetAddress(chain);
    const data = await getMethod(chain, master, 'get_jetton_data', [], `master: ${master.toRawString()} is not a jetton master`);
    const admin = read(() => data.address(2), `master: ${master.toRawString()} is not a jetton master`);
    if (!admin?.equals(faucet)) {
      throw new ApiError(
        422,
        `master: its admin is ${admin ? admin.toRawString() : 'nobody'}, not the faucet wallet ${faucet.toRawString()}: only a master the faucet administers can be minted from (POST /devnet/deploy-jetton or tongate deploy-jetton makes one)`,
      );
    }
    const owner: TupleItem = { type: 'slice', cell: beginCell().storeAddress(to).endCell() };
    const byMaster = await getMethod(
      chain,
      master,
      'get_wallet_address',
      [owner],
      `master: ${master.toRawString()} does not answer get_wallet_address`,
    );
    const wallet = read(() => byMaster.address(0), `master: ${master.toRawString()} does not answer get_wallet_address`);
    if (!wallet) throw new ApiError(422, `master: ${master.toRawString()} has no jetton wallet for ${to.toRawString()}`);

    const sent = await chain.sendFromFaucet({
      to: master,
      value: MINT_VALUE,
      body: mintBody({ to, amount, tonAmount: MINT_WALLET_TON, response: faucet }),
    });
    const minted = await afterBlocks(chain, 'the mint', async () => {
      const atMaster = await transactionOf(chain, master, sent.lt);
      if (atMaster && aborted(atMaster))
        throw new ApiError(
          422,
          `master: it refused the mint (transaction ${atMaster.hash.toString('base64')}, exit code ${exitCode(atMaster)})`,
        );
      return atMaster && transactionOf(chain, wallet, atMaster.lt);
    });
    if (aborted(minted))
      throw new ApiError(
        422,
        `the jetton wallet ${wallet.toRawString()} refused the mint (exit code ${exitCode(minted)}); the master's supply was given back if it handles bounces`,
      );
    const walletData = await getMethod(
      chain,
      wallet,
      'get_wallet_data',
      [],
      `the jetton wallet ${wallet.toRawString()} does not answer get_wallet_data`,
    );
    return {
      '@type': 'devnet.jettonFunded',
      wallet: wallet.toRawString(),
      balance: read(() => walletData.int(0), `the jetton wallet ${wallet.toRawString()} does not answer get_wallet_data`).toString(),
      hash: minted.hash.toString('base64'),
      lt: minted.lt.toString(),
      block_seqno: minted.mcSeqno,
    };
  });
}

/** TEP-64 content from the request: offchain when `uri` is given (alone), else onchain with the given keys. */
function jettonContent(body: Record<string, unknown>) {
  if (body.uri !== undefined) {
    const others = DEPLOY_FIELDS.filter((f) => f !== 'uri' && body[f] !== undefined);
    if (others.length > 0)
      throw new ApiError(422, `uri: offchain metadata holds everything; give ${others[0]} in the document at the uri, not here`);
    return offchainContent(text(body.uri, 'uri', 1024));
  }
  const fields: Record<string, string> = { decimals: String(integer(body.decimals, 'decimals', 0, 255, 9)) };
  if (body.name === undefined && body.symbol === undefined) throw new ApiError(422, 'name: give a name and/or a symbol (or a uri)');
  if (body.name !== undefined) fields.name = text(body.name, 'name', 128);
  if (body.symbol !== undefined) fields.symbol = text(body.symbol, 'symbol', 32);
  if (body.description !== undefined) fields.description = text(body.description, 'description', 1024);
  if (body.image !== undefined) fields.image = text(body.image, 'image', 1024);
  return onchainContent(fields);
}

function faucetAddress(chain: DevnetChain): Address {
  const faucet = chain.faucets().find((f) => f.kind === 'v4r2');
  if (!faucet) throw new ApiError(404, 'this network has no v4r2 faucet wallet');
  return faucet.address;
}

async function getMethod(chain: DevnetChain, at: Address, method: string, args: TupleItem[], refusal: string): Promise<StackReader> {
  const result = await chain.runGetMethod(at, method, args);
  if (result.exitCode !== 0 && result.exitCode !== 1) throw new ApiError(422, `${refusal} (${method}: exit code ${result.exitCode})`);
  return read(() => new StackReader(parseVmStack(result.stackBoc), method), refusal);
}

function read<T>(reading: () => T, refusal: string): T {
  try {
    return reading();
  } catch (error) {
    if (error instanceof NotThatContract) throw new ApiError(422, `${refusal} (${error.message})`);
    throw error;
  }
}

/** The account's first transaction after lt `after` (the oldest of the newest 16 after it). */
async function transactionOf(chain: DevnetChain, account: Address, after: bigint): Promise<ChainTransaction | undefined> {
  return (await chain.getTransactions(account, { limit: 16, toLt: after })).at(-1);
}

function aborted(tx: ChainTransaction): boolean {
  return tx.tx.description.type === 'generic' && tx.tx.description.aborted;
}

function exitCode(tx: ChainTransaction): number | string {
  const d = tx.tx.description;
  return d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : 'none';
}
