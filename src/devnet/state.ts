/**
 * State surgery: POST /devnet/accounts/:address sets an account's balance, code and/or data (base64 BoCs), or
 * its whole ShardAccount (`shard_account`); POST /devnet/messages/internal delivers an internal message from any
 * address, without a signature (a whole message `boc`, or `from`, `to`, `value`, `body`, `init`, `bounce`).
 *
 * Each change is sealed in a block of its own making (whatever the mining mode): an account changed without a
 * transaction shows in that block's state (v2 getAddressInformation, v3 account states) and in no transaction
 * list; a delivered message shows as the in_msg of the transaction it starts.
 */
import { beginCell, loadStateInit, storeMessage, type Cell, type Message, type StateInit } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/api-error.js';
import { devnetRoute, type DevnetOptions } from './guard.js';
import { address, boc, devnetBocBudget, nanotons, onlyFields } from './input.js';
import { ADDRESS, BOC, HASH, NANOTONS, object } from './schemas.js';

const ACCOUNT_FIELDS = ['balance', 'code', 'data', 'shard_account'] as const;
const MESSAGE_FIELDS = ['boc', 'from', 'to', 'value', 'body', 'init', 'bounce'] as const;

export function registerState(app: FastifyInstance, options: DevnetOptions): void {
  const accountOperation = {
    method: 'POST' as const,
    path: '/devnet/accounts/:address',
    summary: "Sets an account's balance, code and/or data, or its whole ShardAccount, sealed in a block (no transaction)",
    body: object({ balance: NANOTONS, code: BOC, data: BOC, shard_account: BOC }),
    result: object({
      '@type': { const: 'devnet.accountSet' },
      address: ADDRESS,
      block_seqno: { type: 'integer' },
      status: { enum: ['active', 'uninit', 'frozen', 'nonexist'] },
      balance: NANOTONS,
    }),
  };
  devnetRoute(app, options, accountOperation, async (chain, body, request) => {
    const target = address((request.params as { address: string }).address);
    onlyFields(body, ACCOUNT_FIELDS);
    const given = ACCOUNT_FIELDS.filter((f) => body[f] !== undefined);
    if (given.length === 0) throw new ApiError(422, `request body: give balance, code and/or data, or shard_account`);
    const budget = devnetBocBudget();
    let change: Parameters<typeof chain.setAccount>[1];
    if (body.shard_account !== undefined) {
      if (given.length > 1) throw new ApiError(422, 'shard_account: a whole state; give it alone, without balance, code or data');
      change = { shardAccount: boc(body.shard_account, 'shard_account', budget) };
    } else {
      change = {
        ...(body.balance !== undefined ? { balance: nanotons(body.balance, 'balance', 0n) } : {}),
        ...(body.code !== undefined ? { code: boc(body.code, 'code', budget) } : {}),
        ...(body.data !== undefined ? { data: boc(body.data, 'data', budget) } : {}),
      };
    }
    const { seqno } = await chain.setAccount(target, change);
    const state = await chain.getAccount(target);
    return {
      '@type': 'devnet.accountSet',
      address: target.toRawString(),
      block_seqno: seqno,
      status: state.state,
      balance: state.balance.toString(),
    };
  });

  const messageOperation = {
    method: 'POST' as const,
    path: '/devnet/messages/internal',
    summary: 'Delivers an internal message from any address, without a signature, in a block sealed for it',
    body: object({
      boc: BOC,
      from: ADDRESS,
      to: ADDRESS,
      value: NANOTONS,
      body: BOC,
      init: BOC,
      bounce: { type: 'boolean', default: true },
    }),
    result: object({
      '@type': { const: 'devnet.internalMessage' },
      hash: HASH,
      block_seqno: { type: 'integer' },
      transaction: { oneOf: [{ type: 'null' }, object({ hash: HASH, lt: { type: 'string' } })] },
    }),
  };
  devnetRoute(app, options, messageOperation, async (chain, body) => {
    onlyFields(body, MESSAGE_FIELDS);
    const budget = devnetBocBudget();
    let bytes: Buffer;
    if (body.boc !== undefined) {
      const others = MESSAGE_FIELDS.filter((f) => f !== 'boc' && body[f] !== undefined);
      if (others.length > 0) throw new ApiError(422, `boc: a whole message; give it alone, without ${others.join(', ')}`);
      bytes = boc(body.boc, 'boc', budget).toBoc();
    } else {
      const last = chain.masterchainInfo().last;
      bytes = beginCell()
        .store(storeMessage(messageFromFields(body, budget, { createdLt: last.endLt, createdAt: chain.time().utime })))
        .endCell()
        .toBoc();
    }
    const delivered = await chain.sendInternal(bytes);
    return {
      '@type': 'devnet.internalMessage',
      hash: delivered.hash.toString('base64'),
      block_seqno: delivered.seqno,
      transaction: delivered.transaction
        ? { hash: delivered.transaction.hash.toString('base64'), lt: delivered.transaction.lt.toString() }
        : null,
    };
  });
}

function messageFromFields(
  body: Record<string, unknown>,
  budget: ReturnType<typeof devnetBocBudget>,
  at: { createdLt: bigint; createdAt: number },
): Message {
  if (body.bounce !== undefined && typeof body.bounce !== 'boolean') throw new ApiError(422, 'bounce: expected true or false');
  let init: StateInit | undefined;
  if (body.init !== undefined) {
    const cell = boc(body.init, 'init', budget);
    try {
      init = loadStateInit(cell.beginParse());
    } catch {
      throw new ApiError(422, 'init: not a StateInit cell');
    }
  }
  const payload: Cell | undefined = body.body !== undefined ? boc(body.body, 'body', budget) : undefined;
  return {
    info: {
      type: 'internal',
      ihrDisabled: true,
      bounce: body.bounce ?? true,
      bounced: false,
      src: address(body.from, 'from'),
      dest: address(body.to, 'to'),
      value: { coins: nanotons(body.value, 'value', 0n) },
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: at.createdLt,
      createdAt: at.createdAt,
    },
    init: init ?? null,
    body: payload ?? beginCell().endCell(),
  };
}
