/**
 * What the chain and the codecs throw, as v2 answers. The chain's typed errors say whose fault a failure
 * is (chain/local/errors.ts); this is the one place that turns them into statuses, so every method
 * answers the same way. Anything not listed stays as it is: an ApiError keeps its status, anything else
 * is a bug and becomes a 500 in the HTTP error handler.
 */
import { BadMessage, BadStack, ChainInputError, ChainStopped, EmulatorFailed, ExternalMessageRejected, GetMethodFailed, NotFound } from '../../chain/local/errors.js';
import { LiteDataError, LiteSendRefused, LiteServerError, LiteTimeout, LiteUnavailable } from '../../chain/lite/errors.js';
import { SnapshotConflict } from '../../chain/local/snapshot-store.js';
import { TonInputError } from '../../ton/errors.js';
import { VmStackTooDeepError } from '../../ton/vm-stack.js';
import { ApiError } from '../errors.js';

/**
 * toncenter relays a refused external message as the liteserver's own words, prefixed by tonlib's error
 * class; clients (MyTonWallet's retry filter, scripts) match on `exitcode=` in it. The status is ours: 400,
 * because the message, not the server, is at fault (toncenter answers 500 here; its sendBocReturnHashNoError
 * answers the same text with 400).
 */
export function refusedMessage(error: ExternalMessageRejected): ApiError {
  const exit = error.exitCode === undefined ? '' : `\nexitcode=${error.exitCode}`;
  return new ApiError(400, `LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n${error.reason}${exit}`);
}

export function toApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof ExternalMessageRejected) return refusedMessage(error);
  // A liteserver's refusal, in its own words as tonlib relays them (same status as the local chain's).
  if (error instanceof LiteSendRefused) return new ApiError(400, `LITE_SERVER_UNKNOWN: ${error.text}`);
  // Liteservers (chain/lite): none could answer (503), none answered in time (504), one answered an error or
  // data that did not check out and no other did better (502).
  if (error instanceof LiteUnavailable) return new ApiError(503, error.message);
  if (error instanceof LiteTimeout) return new ApiError(504, error.message);
  if (error instanceof LiteServerError) return new ApiError(502, `LITE_SERVER_UNKNOWN: ${error.text}`);
  if (error instanceof LiteDataError) return new ApiError(502, error.message);
  if (error instanceof NotFound) return new ApiError(404, error.message);
  // BadMessage and the other input errors already start with the parameter they are about ("boc: ...").
  if (error instanceof BadMessage || error instanceof BadStack) return new ApiError(422, `failed to parse parameter ${error.message}`);
  if (error instanceof GetMethodFailed) return new ApiError(400, error.message);
  // A snapshot name taken, or a snapshot on blocks the chain no longer holds: the request clashes with the state.
  if (error instanceof SnapshotConflict) return new ApiError(409, error.message);
  if (error instanceof ChainInputError) return new ApiError(422, error.message);
  if (error instanceof ChainStopped) return new ApiError(503, error.message);
  // The emulator's worker died under this call (it is replaced): the service, not the request, failed.
  if (error instanceof EmulatorFailed) return new ApiError(503, error.message);
  // toncenter's own code and words for a result it will not render.
  if (error instanceof VmStackTooDeepError) return new ApiError(533, error.message);
  if (error instanceof TonInputError) return new ApiError(422, error.message);
  return error;
}
