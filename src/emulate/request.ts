/**
 * The two request bodies as toncenter's emulate API takes them (ton-emulate-go `EmulateRequest`,
 * `TonConnectEmulateRequest`), checked field by field: a missing or malformed field is a 400
 * `invalid request: <field> ...`, toncenter's status and words, naming the field.
 */
import { Address, Cell } from '@ton/core';
import { ApiError } from '../http/api-error.js';

/** What both requests share: what the answer carries besides the trace. */
export interface AnswerOptions {
  withActions: boolean;
  includeCodeData: boolean;
  includeAddressBook: boolean;
  includeMetadata: boolean;
  /** Emulate on the state of this masterchain block (the last one when undefined). */
  mcBlockSeqno?: number;
}

export interface EmulateTraceRequest extends AnswerOptions {
  boc: Buffer;
  ignoreChksig: boolean;
}

export interface TonConnectMessage {
  address: Address;
  /** The destination written in a friendly form that says bounceable (raw: bounceable, as TON's parser takes it). */
  bounce: boolean;
  amount: bigint;
  payload: Cell | null;
  stateInit: Cell | null;
}

export interface TonConnectRequest extends AnswerOptions {
  from: Address;
  messages: TonConnectMessage[];
  /** Unix seconds (a value in ms, µs or ns is brought down to seconds, as toncenter does); undefined: now + 5 min. */
  validUntil?: number;
}

/** toncenter's bound on a TON Connect request's messages (and what wallets v3/v4 can send at once). */
export const MAX_TONCONNECT_MESSAGES = 4;

const invalid = (problem: string) => new ApiError(400, `invalid request: ${problem}`);

function objectOf(body: unknown, what: string): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid(`${what} must be a JSON object`);
  return body as Record<string, unknown>;
}

function flag(body: Record<string, unknown>, name: string): boolean {
  const value = body[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalid(`${name} must be true or false`);
  return value;
}

function unsigned(body: Record<string, unknown>, name: string, max: number): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max)
    throw invalid(`${name} must be an integer from 0 to ${max}`);
  return value;
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 with padding, as Go's StdEncoding.Strict() takes it. */
function base64(value: unknown, name: string): Buffer {
  if (typeof value !== 'string') throw invalid(`${name} must be a base64 string`);
  if (value === '') throw invalid(`${name} is required`);
  if (!STRICT_BASE64.test(value)) throw invalid(`${name} is not valid base64 (standard alphabet, padded)`);
  return Buffer.from(value, 'base64');
}

/** A BoC of one root cell. */
function bocCell(value: unknown, name: string): Cell {
  const bytes = base64(value, name);
  let cells: Cell[];
  try {
    cells = Cell.fromBoc(bytes);
  } catch (err) {
    throw invalid(`${name} is not a bag of cells (${(err as Error).message})`);
  }
  if (cells.length !== 1) throw invalid(`${name} must hold one root cell, it holds ${cells.length}`);
  return cells[0];
}

function answerOptions(body: Record<string, unknown>): AnswerOptions {
  const mcBlockSeqno = unsigned(body, 'mc_block_seqno', 0xffffffff);
  return {
    withActions: flag(body, 'with_actions'),
    includeCodeData: flag(body, 'include_code_data'),
    includeAddressBook: flag(body, 'include_address_book'),
    includeMetadata: flag(body, 'include_metadata'),
    ...(mcBlockSeqno !== undefined ? { mcBlockSeqno } : {}),
  };
}

export function emulateTraceRequest(raw: unknown): EmulateTraceRequest {
  const body = objectOf(raw, 'the request body');
  if (body.boc === undefined || body.boc === null || body.boc === '') throw invalid('boc is required');
  return { boc: base64(body.boc, 'boc'), ignoreChksig: flag(body, 'ignore_chksig'), ...answerOptions(body) };
}

function address(value: unknown, name: string): { address: Address; bounce: boolean } {
  if (typeof value !== 'string' || value === '') throw invalid(`${name} is required (an address)`);
  try {
    if (Address.isFriendly(value)) {
      const friendly = Address.parseFriendly(value);
      return { address: friendly.address, bounce: friendly.isBounceable };
    }
    return { address: Address.parseRaw(value), bounce: true };
  } catch {
    throw invalid(`${name} is not an address: ${JSON.stringify(value.slice(0, 80))}`);
  }
}

const MAX_UINT64 = (1n << 64n) - 1n;

function message(raw: unknown, i: number): TonConnectMessage {
  const body = objectOf(raw, `messages[${i}]`);
  const { address: to, bounce } = address(body.address, `messages[${i}].address`);
  const amount = body.amount;
  if (typeof amount !== 'string' || amount === '') throw invalid(`messages[${i}].amount is required (nanotons, a decimal string)`);
  if (!/^\d{1,20}$/.test(amount) || BigInt(amount) > MAX_UINT64)
    throw invalid(`messages[${i}].amount must be a decimal string of nanotons`);
  const optionalCell = (name: 'payload' | 'stateInit') =>
    body[name] === undefined || body[name] === null ? null : bocCell(body[name], `messages[${i}].${name}`);
  return { address: to, bounce, amount: BigInt(amount), payload: optionalCell('payload'), stateInit: optionalCell('stateInit') };
}

/** toncenter brings a valid_until given in ms, µs or ns down to seconds. */
function seconds(value: number): number {
  for (const [above, divisor] of [
    [1e18, 1e9],
    [1e15, 1e6],
    [1e12, 1e3],
  ] as const)
    if (value >= above) return Math.floor(value / divisor);
  return value;
}

export function tonConnectRequest(raw: unknown): TonConnectRequest {
  const body = objectOf(raw, 'the request body');
  const { address: from } = address(body.from, 'from');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages must be a non-empty array');
  if (messages.length > MAX_TONCONNECT_MESSAGES) throw invalid(`messages may hold at most ${MAX_TONCONNECT_MESSAGES} messages`);
  const validUntil = body.valid_until;
  if (
    validUntil !== undefined &&
    validUntil !== null &&
    (typeof validUntil !== 'number' || !Number.isSafeInteger(validUntil) || validUntil < 0)
  )
    throw invalid('valid_until must be a unix time (a non-negative integer)');
  return {
    from,
    messages: messages.map(message),
    ...(typeof validUntil === 'number' ? { validUntil: seconds(validUntil) } : {}),
    ...answerOptions(body),
  };
}
