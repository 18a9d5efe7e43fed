/**
 * The one answer to "what status does error X get?". The layers below the API throw typed errors that say
 * whose fault a failure is (chain/errors.ts, chain/local/errors.ts, chain/lite/errors.ts, index/sql/driver.ts, ton/errors.ts);
 * this table turns them into an HTTP status and a message, for v2's methods, v3's endpoints and the devnet
 * controls alike. Anything not listed stays as it is: an ApiError keeps its status, anything else is a bug
 * and becomes a 500 in the HTTP error handler.
 */
import { BadMessage, ChainInputError, EmulatorFailed, GetMethodFailed, NotFound } from '../chain/errors.js';
import { BadStack, ChainStopped, ExternalMessageRejected } from '../chain/local/errors.js';
import { LiteDataError, LiteSendRefused, LiteServerError, LiteTimeout, LiteUnavailable } from '../chain/lite/errors.js';
import { SnapshotConflict } from '../chain/local/snapshot-store.js';
import { QueryTimeoutError, StoreUnavailableError } from '../index/sql/driver.js';
import { TonInputError } from '../ton/errors.js';
import { VmStackTooDeepError } from '../ton/vm-stack.js';
import { ApiError } from '../http/api-error.js';

/** Where the cause of a failure the answer does not show is kept. */
export interface ErrorLog {
  warn(object: object, message: string): void;
}

interface StatusRule {
  kind: abstract new (...args: never[]) => Error;
  status: number;
  message(error: Error): string;
}

function rule<E extends Error>(
  kind: abstract new (...args: never[]) => E,
  status: number,
  message: (error: E) => string = (error) => error.message,
): StatusRule {
  return { kind, status, message: message as (error: Error) => string };
}

/**
 * toncenter relays a refused external message as the liteserver's own words, prefixed by tonlib's error
 * class; clients (MyTonWallet's retry filter, scripts) match on `exitcode=` in it. The status is ours: 400,
 * because the message, not the server, is at fault (toncenter answers 500 here; its sendBocReturnHashNoError
 * answers the same text with 400).
 */
function refusedMessage(error: ExternalMessageRejected): string {
  const exit = error.exitCode === undefined ? '' : `\nexitcode=${error.exitCode}`;
  return `LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n${error.reason}${exit}`;
}

/** First match wins, so a subclass comes before the class it extends (BadMessage before ChainInputError). */
const STATUS_TABLE: readonly StatusRule[] = [
  rule(ExternalMessageRejected, 400, refusedMessage),
  // A liteserver's refusal, in its own words as tonlib relays them (same status as the local chain's).
  rule(LiteSendRefused, 400, (error) => `LITE_SERVER_UNKNOWN: ${error.text}`),
  // Liteservers (chain/lite): none could answer (503), none answered in time (504), one answered an error or
  // data that did not check out and no other did better (502).
  rule(LiteUnavailable, 503),
  rule(LiteTimeout, 504),
  rule(LiteServerError, 502, (error) => `LITE_SERVER_UNKNOWN: ${error.text}`),
  rule(LiteDataError, 502),
  rule(NotFound, 404),
  // BadMessage and the other input errors already start with the parameter they are about ("boc: ...").
  rule(BadMessage, 422, (error) => `failed to parse parameter ${error.message}`),
  rule(BadStack, 422, (error) => `failed to parse parameter ${error.message}`),
  rule(GetMethodFailed, 400),
  // A snapshot name taken, or a snapshot on blocks the chain no longer holds: the request clashes with the state.
  rule(SnapshotConflict, 409),
  rule(ChainInputError, 422),
  rule(ChainStopped, 503),
  // The emulator's worker died under this call (it is replaced): the service, not the request, failed.
  rule(EmulatorFailed, 503),
  // toncenter's own code and words for a result it will not render.
  rule(VmStackTooDeepError, 533),
  rule(TonInputError, 422),
  // The index: a query stopped past its time budget (--query-timeout), a store that cannot answer.
  rule(QueryTimeoutError, 504),
  rule(StoreUnavailableError, 503),
];

/** The error as the API answers it; `log` keeps why a store could not answer, which the answer does not say. */
export function toApiError(error: unknown, log?: ErrorLog): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreUnavailableError) log?.warn({ err: error.cause ?? error }, error.message);
  if (!(error instanceof Error)) return error;
  const match = STATUS_TABLE.find((entry) => error instanceof entry.kind);
  return match ? new ApiError(match.status, match.message(error)) : error;
}
