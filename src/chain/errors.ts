/**
 * Typed errors every chain throws (chain/local, chain/lite, the emulator, the shared message parsing). The API
 * layers map them to 4xx answers (bad input, unknown block) and let anything else be a 500: these are the
 * chain's "your fault" cases. A chain's own errors live in its room (local/errors.ts, lite/errors.ts).
 */

/** Base class: everything the chain refuses because of what the caller sent or asked. */
export class ChainInputError extends Error {
  override name = 'ChainInputError';
}

/** A BoC that does not parse, or that is not an external-in message to a workchain we simulate. */
export class BadMessage extends ChainInputError {
  override name = 'BadMessage';
}

/** A block, masterchain seqno or transaction that does not exist (yet). */
export class NotFound extends ChainInputError {
  override name = 'NotFound';
}

/** The emulator could not run a get-method at all (not a failing exit code: that is a result). */
export class GetMethodFailed extends ChainInputError {
  override name = 'GetMethodFailed';
}

/** An emulated external message its contract did not accept (emulateTrace): nothing of a trace happened. */
export class ExternalNotAccepted extends ChainInputError {
  override name = 'ExternalNotAccepted';
}

/**
 * The emulator could not serve a call: its worker thread crashed or was stopped while running it, the
 * WASM emulator threw, or the emulator was closed. Not the caller's input (a refused message or a
 * failing get-method is a result, not this), so it is not a ChainInputError. Only the one call fails;
 * the pool replaces the worker for the next ones.
 */
export class EmulatorFailed extends Error {
  override name = 'EmulatorFailed';
}
