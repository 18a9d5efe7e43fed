/**
 * Fixtures of the devnet control tests: a tongate whose local chains mine only when asked (as a user's test
 * suite would start it), TonClient and the tongate/devnet client on it, and a time-locked contract in FunC.
 */
import { Address, beginCell, Cell, contractAddress, type StateInit } from '@ton/core';
import { TonClient } from '@ton/ton';
import { DevnetClient } from '../../../src/devnet/client.js';
import { startTestTongate, type TestTongate } from '../../support/tongate.js';
import { ManualClock } from '../../../src/util/clock.js';
import { compileFuncSources } from '../../support/func.js';

export const ADMIN_TOKEN = 'devnet-test-admin-token';

export interface ManualTongate {
  gate: TestTongate;
  clock: ManualClock;
  url: string;
  devnet: DevnetClient;
  client: TonClient;
}

/** A tongate in manual mining (`--mining manual`) with an admin token; its wall clock stands still (ManualClock). */
export async function startManualTongate(
  t: { after(fn: () => unknown): void },
  flags: Record<string, unknown> = {},
): Promise<ManualTongate> {
  const clock = new ManualClock(1_750_000_000_000);
  const gate = await startTestTongate({ mining: 'manual', adminToken: ADMIN_TOKEN, ...flags }, {}, { clock });
  t.after(() => gate.stop());
  const url = gate.url('testnet');
  return {
    gate,
    clock,
    url,
    devnet: new DevnetClient({ endpoint: `${url}/api/v2/jsonRPC`, adminToken: ADMIN_TOKEN }),
    client: new TonClient({ endpoint: `${url}/api/v2/jsonRPC` }),
  };
}

const TIME_LOCK_SOURCE = `
int now() asm "NOW";
() send_raw_message(cell msg, int mode) impure asm "SENDRAWMSG";
cell get_data() asm "c4 PUSH";
slice begin_parse(cell c) asm "CTOS";
builder begin_cell() asm "NEWC";
cell end_cell(builder b) asm "ENDC";
builder store_slice(builder b, slice s) asm "STSLICER";
builder store_coins(builder b, int x) asm "STVARUINT16";
(slice, slice) load_msg_addr(slice s) asm(-> 1 0) "LDMSGADDR";
int slice_bits(slice s) asm "SBITS";

;; op 1: send the whole balance to the owner, once now() has reached unlock_time (else exit code 100)
() recv_internal(int balance, int value, cell full, slice body) impure {
  if (slice_bits(body) < 32) { return (); }
  int op = body~load_uint(32);
  if (op != 1) { return (); }
  slice ds = get_data().begin_parse();
  int unlock = ds~load_uint(32);
  throw_unless(100, now() >= unlock);
  slice owner = ds~load_msg_addr();
  send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(owner).store_coins(0).store_uint(0, 107).end_cell(), 128);
}
int unlock_time() method_id { return get_data().begin_parse().preload_uint(32); }
int chain_now() method_id { return now(); }
`;

export function timeLockCode(): Promise<Cell> {
  return compileFuncSources(['lock.fc'], { 'lock.fc': TIME_LOCK_SOURCE });
}

export async function timeLock(owner: Address, unlockTime: number): Promise<{ address: Address; init: StateInit; data: Cell; code: Cell }> {
  const code = await timeLockCode();
  const data = beginCell().storeUint(unlockTime, 32).storeAddress(owner).endCell();
  const init = { code, data };
  return { address: contractAddress(0, init), init, data, code };
}

/** The body that asks the lock to pay out. */
export const WITHDRAW = beginCell().storeUint(1, 32).endCell();

/**
 * Waits until v3's index has the block `seqno`. It asks for the block itself: /masterchainInfo answers from the
 * chain while the index is still empty (its threads starting). The bound is one a loaded machine meets: the index
 * runs at idle priority, and its first token detection waits for its emulator worker to start (tokens/README.md),
 * which at load 10 took longer than the 500 quick polls (~5 s) this once allowed.
 */
export async function indexedUpTo(url: string, seqno: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = (await (await fetch(`${url}/api/v3/blocks?workchain=-1&seqno=${seqno}`)).json()) as { blocks?: unknown[] };
    if ((found.blocks?.length ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the index did not reach block ${seqno} within ${timeoutMs / 1000} s`);
}

/**
 * Asks again until `done` holds: an index read that raced the index's last commit, a back-fill or fetcher working in
 * the background. It waits for an event, it does not time a rule, so it gives up only after a minute (then the last
 * value is returned, for the caller's assertion to name what was missing): on a loaded machine a back-fill beside
 * the indexing has taken well over the few seconds an earlier bound of 500 askings allowed.
 */
export async function until<T>(ask: () => Promise<T>, done: (value: T) => boolean, giveUpMs = 60_000): Promise<T> {
  const deadline = Date.now() + giveUpMs;
  let value = await ask();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await ask();
  }
  return value;
}
