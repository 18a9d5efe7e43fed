/**
 * Typed errors only the local chain throws: a stack or message it refuses, a fund the faucet cannot make, a
 * stopped chain, a data directory of another network. The shared ones (ChainInputError, NotFound, ...) are in
 * ../errors.ts.
 */
import { ChainInputError } from '../errors.js';

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
