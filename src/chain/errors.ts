/**
 * Typed errors of the local chain. The API layers map them to 4xx answers (bad input, refused
 * message, unknown block) and let anything else be a 500: these are the chain's "your fault" cases.
 */

/** Base class: everything the chain refuses because of what the caller sent or asked. */
export class ChainInputError extends Error {
  override name = 'ChainInputError';
}

/** A BoC that does not parse, or that is not an external-in message to a workchain we simulate. */
export class BadMessage extends ChainInputError {
  override name = 'BadMessage';
}

/** Get-method arguments the emulator cannot take (too deep, or not serializable); the message starts with `stack: `. */
export class BadStack extends ChainInputError {
  override name = 'BadStack';
}

/**
 * The contract would not accept this external message (bad signature, replayed seqno, expired, no
 * funds for gas, ...). `reason` is the emulator's own words; `exitCode` is the TVM exit code when
 * the compute phase ran. Nothing was executed or recorded.
 */
export class ExternalMessageRejected extends ChainInputError {
  override name = 'ExternalMessageRejected';
  constructor(
    readonly reason: string,
    readonly exitCode?: number,
  ) {
    super(`cannot apply external message to current state: ${reason}${exitCode === undefined ? '' : ` (exit code ${exitCode})`}`);
  }
}

/** A block, masterchain seqno or transaction that does not exist (yet). */
export class NotFound extends ChainInputError {
  override name = 'NotFound';
}

/** The emulator could not run a get-method at all (not a failing exit code: that is a result). */
export class GetMethodFailed extends ChainInputError {
  override name = 'GetMethodFailed';
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

/** A fund the faucet cannot make: an address in a workchain that does not exist, more than it holds. */
export class FundRefused extends ChainInputError {
  override name = 'FundRefused';
}

/** The faucet transfer executed but did not send the coins, though the request was within its means. */
export class FundFailed extends Error {
  override name = 'FundFailed';
}

/** The chain was stopped; nothing more is accepted. */
export class ChainStopped extends Error {
  override name = 'ChainStopped';
  constructor(network: string) {
    super(`the ${network} chain is stopped`);
  }
}

/** The data directory belongs to another network, or was written by an incompatible version. */
export class ChainDataMismatch extends Error {
  override name = 'ChainDataMismatch';
}
