/**
 * What can go wrong talking to liteservers, split by whose fault it is. The pool retries transport and data
 * failures on another server; a liteserver's own error answer (liteServer.error) is a verdict about the request
 * (unknown block, refused message) and is passed up. The API layer maps LiteUnavailable to 503 and LiteTimeout to
 * 504 (api/error-statuses.ts).
 */

/** The liteserver answered liteServer.error: its code and its own words. */
export class LiteServerError extends Error {
  override name = 'LiteServerError';
  constructor(
    readonly code: number,
    readonly text: string,
    readonly server: string,
  ) {
    super(text);
  }
}

/** The connection failed, closed, or gave no answer in time (`timeout`). */
export class LiteTransportError extends Error {
  override name = 'LiteTransportError';
  constructor(
    message: string,
    readonly timeout = false,
  ) {
    super(message);
  }
}

/** The server answered, but what it sent does not check out (bad hash, bad proof, unparsable): not believed. */
export class LiteDataError extends Error {
  override name = 'LiteDataError';
}

/** No liteserver could answer (all down, all circuit breakers open, or all failed this request): 503. */
export class LiteUnavailable extends Error {
  override name = 'LiteUnavailable';
}

/** The liteservers answer, but for another network than the global config's (another zero state): nothing to wait for. */
export class LiteWrongNetwork extends Error {
  override name = 'LiteWrongNetwork';
}

/** The request ran out of time before any liteserver answered: 504. */
export class LiteTimeout extends Error {
  override name = 'LiteTimeout';
}

/** liteServer.sendMessage refused the message: the liteserver's code and words, relayed as tonlib relays them. */
export class LiteSendRefused extends Error {
  override name = 'LiteSendRefused';
  constructor(
    readonly code: number,
    readonly text: string,
  ) {
    super(text);
  }
}
