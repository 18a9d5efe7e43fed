/**
 * Wallet detection by code cell hash, as toncenter's C++ server and index do it, and the fields
 * read from the wallet's data cell:
 *   v1, v2          seqno:uint32
 *   v3, v4          seqno:uint32 wallet_id:uint32
 *   v5 (beta, r1)   is_signature_allowed:bit seqno:uint32 wallet_id:uint32
 *                   (v5 beta's wallet id is 80 bits; like the index, the first 32 are reported)
 *   highload v1     seqno:uint32 wallet_id:uint32
 *   highload v2     wallet_id:uint32 (then last_cleaned, key, queries: no seqno)
 *   highload v3     public_key:bits256 wallet_id:uint32 (no seqno)
 * The v1-v5 hashes are toncenter's list (they equal the code of @ton/ton's wallet contracts, which
 * the tests check). The highload hashes are those of tonlib's bundled highload codes and of the
 * published highload v3 code; toncenter's own wallet_type enum has no highload names, so callers
 * that must stay inside that enum can test `family`.
 */
import type { Cell } from '@ton/core';

type Layout = 'seqno' | 'seqno-id' | 'v5' | 'id' | 'key-id';

interface WalletCode {
  walletType: string;
  family: 'wallet' | 'highload';
  layout: Layout;
}

/** Code cell hash (standard base64) -> wallet. */
const WALLET_CODES: ReadonlyMap<string, WalletCode> = new Map<string, WalletCode>([
  ['oM/CxIruFqJx8s/AtzgtgXVs7LEBfQd/qqs7tgL2how=', { walletType: 'wallet v1 r1', family: 'wallet', layout: 'seqno' }],
  ['1JAvzJ+tdGmPqONTIgpo2g3PcuMryy657gQhfBfTBiw=', { walletType: 'wallet v1 r2', family: 'wallet', layout: 'seqno' }],
  ['WHzHie/xyE9G7DeX5F/ICaFP9a4k8eDHpqmcydyQYf8=', { walletType: 'wallet v1 r3', family: 'wallet', layout: 'seqno' }],
  ['XJpeaMEI4YchoHxC+ZVr+zmtd+xtYktgxXbsiO7mUyk=', { walletType: 'wallet v2 r1', family: 'wallet', layout: 'seqno' }],
  ['/pUw0yQ4Uwg+8u8LTCkIwKv2+hwx6iQ6rKpb+MfXU/E=', { walletType: 'wallet v2 r2', family: 'wallet', layout: 'seqno' }],
  ['thBBpYp5gLlG6PueGY48kE0keZ/6NldOpCUcQaVm9YE=', { walletType: 'wallet v3 r1', family: 'wallet', layout: 'seqno-id' }],
  ['hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=', { walletType: 'wallet v3 r2', family: 'wallet', layout: 'seqno-id' }],
  ['ZN1UgFUixb6KnbWc6gEFzPDQh4bKeb64y3nogKjXMi0=', { walletType: 'wallet v4 r1', family: 'wallet', layout: 'seqno-id' }],
  ['/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=', { walletType: 'wallet v4 r2', family: 'wallet', layout: 'seqno-id' }],
  ['89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=', { walletType: 'wallet v5 beta', family: 'wallet', layout: 'v5' }],
  ['IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8=', { walletType: 'wallet v5 r1', family: 'wallet', layout: 'v5' }],
  ['2M27t58sXKpnesRQdwvgNRviHhJQSG3oXMUqoz3RZIQ=', { walletType: 'highload wallet v1 r1', family: 'highload', layout: 'seqno-id' }],
  ['Dc7tISadZgE+lbGfu1xVpvAa2tQIN7qo5SHN46AqpGw=', { walletType: 'highload wallet v1 r2', family: 'highload', layout: 'seqno-id' }],
  ['jOtFs81LXMYOquHBO5wJI5Jnf+U2sumy2AG2Lv+TH+E=', { walletType: 'highload wallet v2 r1', family: 'highload', layout: 'id' }],
  ['ID3U81ittJmTEpqpJcrDmRa2ig5PeNJujywraer6Vnk=', { walletType: 'highload wallet v2 r2', family: 'highload', layout: 'id' }],
  ['EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=', { walletType: 'highload wallet v3', family: 'highload', layout: 'key-id' }],
]);

export interface DetectedWallet {
  /** toncenter's wallet_type string, e.g. "wallet v4 r2". */
  walletType: string;
  family: 'wallet' | 'highload';
  /** Absent for wallets that keep no seqno (highload v2, v3). */
  seqno?: number;
  walletId?: number;
  /** v5 only. */
  isSignatureAllowed?: boolean;
}

/** The wallet kind of a code hash (standard base64), or null when it is no known wallet. */
export function walletTypeOfCodeHash(codeHash: string): Pick<DetectedWallet, 'walletType' | 'family'> | null {
  const code = WALLET_CODES.get(codeHash);
  return code ? { walletType: code.walletType, family: code.family } : null;
}

/**
 * Detects a wallet from its code and reads its data. Null when the code is no known wallet, or when
 * the data is too short for the layout its code implies (a broken account, not a wallet we can read).
 */
export function detectWallet(code: Cell, data: Cell | null): DetectedWallet | null {
  const known = WALLET_CODES.get(code.hash().toString('base64'));
  if (!known || !data) return null;
  const cs = data.beginParse();
  const need: Record<Layout, number> = { seqno: 32, 'seqno-id': 64, v5: 65, id: 32, 'key-id': 288 };
  if (cs.remainingBits < need[known.layout]) return null;
  const result: DetectedWallet = { walletType: known.walletType, family: known.family };
  switch (known.layout) {
    case 'seqno':
      result.seqno = cs.loadUint(32);
      break;
    case 'seqno-id':
      result.seqno = cs.loadUint(32);
      result.walletId = cs.loadUint(32);
      break;
    case 'v5':
      result.isSignatureAllowed = cs.loadBit();
      result.seqno = cs.loadUint(32);
      result.walletId = cs.loadUint(32);
      break;
    case 'id':
      result.walletId = cs.loadUint(32);
      break;
    case 'key-id':
      cs.skip(256);
      result.walletId = cs.loadUint(32);
      break;
  }
  return result;
}
