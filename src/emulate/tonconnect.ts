/**
 * A TON Connect request (a wallet and the messages a dApp asks it to send) made into the external message that
 * wallet would receive, as toncenter's emulator composes it (ton-indexer's TonConnectProcessor): the wallet's kind
 * read from its code hash (v3r1, v3r2, v4r1, v4r2, v5r1), its seqno and wallet id from its data, each message sent
 * with mode 3, and a signature of zeros: the trace is then emulated with the signature check off. A wallet of
 * another kind, or not deployed, cannot be previewed this way (400 naming `from`).
 */
import { beginCell, Cell, external, storeCommonMessageInfoRelaxed, storeMessage, type Address } from '@ton/core';
import type { AccountState } from '../chain/types.js';
import { ApiError } from '../http/api-error.js';
import type { TonConnectMessage, TonConnectRequest } from './request.js';

type WalletKind = 'v3' | 'v4' | 'v5r1';

/** The standard wallets' code hashes (base64), as TON's wallet registry names them. */
const WALLET_CODES: Record<string, WalletKind> = {
  'thBBpYp5gLlG6PueGY48kE0keZ/6NldOpCUcQaVm9YE=': 'v3', // v3r1
  'hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=': 'v3', // v3r2
  'ZN1UgFUixb6KnbWc6gEFzPDQh4bKeb64y3nogKjXMi0=': 'v4', // v4r1
  '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=': 'v4', // v4r2
  'IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8=': 'v5r1',
};

/** Send mode 3: pay fees separately, ignore errors (what toncenter's preview uses for every message). */
const SEND_MODE = 3;
/** A preview's validity when the request names none: five minutes (toncenter's). */
const DEFAULT_VALIDITY_S = 300;
const V5_EXTERNAL_SIGNED = 0x7369676e;
const V5_ACTION_SEND_MSG = 0x0ec3c86d;
const ZERO_SIGNATURE = Buffer.alloc(64);

const badFrom = (problem: string) => new ApiError(400, `invalid request: from: ${problem}`);

/** One requested message as the wallet sends it (src the wallet, created now, fees left for the chain to set). */
function outMessage(from: Address, m: TonConnectMessage, now: number): Cell {
  const b = beginCell().store(
    storeCommonMessageInfoRelaxed({
      type: 'internal',
      ihrDisabled: true,
      bounce: m.bounce,
      bounced: false,
      src: from,
      dest: m.address,
      value: { coins: m.amount },
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: 0n,
      createdAt: now,
    }),
  );
  if (m.stateInit) b.storeBit(1).storeBit(1).storeRef(m.stateInit);
  else b.storeBit(0);
  if (m.payload) b.storeBit(1).storeRef(m.payload);
  else b.storeBit(0);
  return b.endCell();
}

/** The external message (BoC) the wallet `request.from` would receive for the request, unsigned. */
export function tonConnectExternal(request: TonConnectRequest, wallet: AccountState, nowSeconds: number): Buffer {
  if (wallet.state !== 'active' || !wallet.code || !wallet.data) throw badFrom(`${wallet.address.toRawString()} is not a deployed wallet`);
  const kind = WALLET_CODES[wallet.code.hash().toString('base64')];
  if (!kind) throw badFrom(`${wallet.address.toRawString()} is not a known wallet (v3r1, v3r2, v4r1, v4r2 or v5r1)`);
  const validUntil = request.validUntil ?? nowSeconds + DEFAULT_VALIDITY_S;
  if (validUntil > 0xffffffff) throw new ApiError(400, 'invalid request: valid_until is past what a wallet can take (2^32 - 1)');
  const messages = request.messages.map((m) => outMessage(request.from, m, nowSeconds));
  const data = wallet.data.beginParse();
  let body: Cell;
  if (kind === 'v5r1') {
    data.skip(1); // is_signature_allowed
    const seqno = data.loadUint(32);
    const walletId = data.loadUint(32);
    // out_list$_ prev:^(OutList n) action:OutAction: the first message deepest.
    let outList = Cell.EMPTY;
    for (const message of messages)
      outList = beginCell().storeUint(V5_ACTION_SEND_MSG, 32).storeUint(SEND_MODE, 8).storeRef(outList).storeRef(message).endCell();
    body = beginCell()
      .storeUint(V5_EXTERNAL_SIGNED, 32)
      .storeUint(walletId, 32)
      .storeUint(validUntil, 32)
      .storeUint(seqno, 32)
      .storeMaybeRef(outList)
      .storeBit(0) // no extended actions
      .storeBuffer(ZERO_SIGNATURE)
      .endCell();
  } else {
    const seqno = data.loadUint(32);
    const walletId = data.loadUint(32);
    const b = beginCell().storeBuffer(ZERO_SIGNATURE).storeUint(walletId, 32).storeUint(validUntil, 32).storeUint(seqno, 32);
    if (kind === 'v4') b.storeUint(0, 8); // op: a simple send
    for (const message of messages) b.storeUint(SEND_MODE, 8).storeRef(message);
    body = b.endCell();
  }
  return beginCell()
    .store(storeMessage(external({ to: request.from, body })))
    .endCell()
    .toBoc();
}
