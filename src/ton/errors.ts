/**
 * Typed errors for bad input to the TON codecs. The API layers turn any TonInputError into a 4xx
 * whose message names the bad value; anything else escaping a codec is a bug (500).
 */

// util/ is the one folder of ours ton/ may import: leaf helpers that import nothing, so nothing above reaches ton/
// through them. showInput is shared with layers that must not know TON (the access layer's admin API).
import { showInput } from '../util/show-input.js';

export class TonInputError extends Error {
  /**
   * @param subject what was being parsed, in toncenter's words where it has some (`ton_addr`, `hash`, ...)
   * @param shown the bounded excerpt of the bad input (see showInput)
   * @param reason why it was rejected
   */
  constructor(
    readonly subject: string,
    readonly shown: string,
    readonly reason: string,
  ) {
    super(`Failed to parse ${subject}: '${shown}' (${reason})`);
    this.name = new.target.name;
  }
}

export class AddressParseError extends TonInputError {
  constructor(input: unknown, reason: string) {
    super('ton_addr', showInput(input), reason);
  }
}

export class HashParseError extends TonInputError {
  constructor(input: unknown, reason: string) {
    super('hash', showInput(input), reason);
  }
}

export class ShardParseError extends TonInputError {
  constructor(input: unknown, reason: string) {
    super('shard', showInput(input), reason);
  }
}

export class BocParseError extends TonInputError {
  /** `subject` names the parameter when it is not simply a BoC (`body`, `init_code`, ...). */
  constructor(input: unknown, reason: string, subject = 'boc') {
    super(subject, showInput(input), reason);
  }
}

/** A bad get-method stack entry; `path` locates it, e.g. `stack[2]` or `stack[0].elements[1]`. */
export class StackParseError extends TonInputError {
  constructor(
    readonly path: string,
    input: unknown,
    reason: string,
  ) {
    super(`stack entry ${path}`, showInput(input), reason);
  }
}
