/** The one mapping of chain and codec errors to statuses (src/api/error-statuses.ts), with the real error classes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toApiError } from '../../src/api/error-statuses.js';
import { ApiError } from '../../src/http/api-error.js';
import {
  BadMessage,
  ChainInputError,
  ChainStopped,
  EmulatorFailed,
  ExternalMessageRejected,
  GetMethodFailed,
  NotFound,
} from '../../src/chain/local/index.js';
import { AddressParseError } from '../../src/ton/errors.js';
import { VmStackTooDeepError } from '../../src/ton/vm-stack.js';

test('each chain and codec error becomes its status; anything else stays a bug', () => {
  const cases: Array<[unknown, number, RegExp]> = [
    [new NotFound('masterchain block 9 not found'), 404, /^masterchain block 9 not found$/],
    [new BadMessage('boc: expected an external-in message, got internal'), 422, /^failed to parse parameter boc: expected an external-in/],
    [new ChainInputError('limit: must be a positive integer'), 422, /^limit: /],
    [new GetMethodFailed('get-method 1 on 0:00: emulator failed'), 400, /emulator failed/],
    [new ChainStopped('mainnet'), 503, /mainnet chain is stopped/],
    [new EmulatorFailed('the emulator worker exited while running this call'), 503, /worker exited/],
    [new VmStackTooDeepError(1000), 533, /^Result stack depth >= 1000$/],
    [new AddressParseError('x', 'bad'), 422, /Failed to parse ton_addr: 'x'/],
    [
      new ExternalMessageRejected('External message not accepted by smart contract', 33),
      400,
      /^LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\nExternal message not accepted by smart contract\nexitcode=33$/,
    ],
    [new ExternalMessageRejected('no gas'), 400, /\nno gas$/],
  ];
  for (const [error, status, message] of cases) {
    const mapped = toApiError(error);
    assert.ok(mapped instanceof ApiError, String(error));
    assert.equal(mapped.status, status, String(error));
    assert.match(mapped.message, message);
  }
  const kept = new ApiError(409, 'kept');
  assert.equal(toApiError(kept), kept);
  const bug = new TypeError('undefined is not a function');
  assert.equal(toApiError(bug), bug, 'not ours to excuse: the HTTP handler answers 500');
});
