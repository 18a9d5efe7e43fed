/**
 * tgBTC's actions (ton-indexer's `blocks/tgbtc.py`, logs of `blocks/messages/tgbtc.py`), recognised by opcodes and
 * the logs tgBTC's contracts emit, as toncenter does (no address is checked):
 *
 *   tgbtc_mint     a call of op 0xe42a879b followed by its contract's mint log#77a80ef3 (amount, recipient, bitcoin
 *                  txid) and a `jetton_mint`; the calls before it, up to the one of op 0x3f781d24 that began the
 *                  mint (at most 20 back), taken along: its sender is the action's source. Never failed.
 *   tgbtc_burn     a `jetton_burn` whose master passes a burn_notification#7bdd97de (or op 0x587643a2) on to a
 *                  contract that logs burn#ca444ce6 (amount, sender, pegout address); the amount the smaller of the
 *                  burn's and the log's
 *   tgbtc_new_key  a call of op 0x690f357a whose contract logs new_key#27756729 (amount, public key, pegout), sent
 *                  by a transaction that logged dkg_completed#453443a6 (timestamp); that call taken along
 *
 * When these do not match, each log alone is an action (toncenter's fallbacks, matched after them):
 * `tgbtc_mint_fallback`, `tgbtc_burn_fallback`, `tgbtc_new_key_fallback` and `tgbtc_dkg_log_fallback`, with only
 * what the log says. toncenter's block types (`tgbtc_mint`, ..., `tgbtc_dkg_log`) make their action ids.
 *
 * Public keys are hex without leading zeros (Python's `hex()`); the bitcoin txid is the log's 256 bits as
 * little-endian bytes, in hex.
 */
import { folded, findCallContract, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import type { JettonBurnData, JettonMintData } from './jettons.js';
import { afterOpcode, loadLooseAddress, looseAccount, OP } from './bodies.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import { str, type ActionParts } from './details-common.js';
import { TGBTC_DKG_LOG } from './action-types.js';

export const TGBTC_OP = {
  mintLog: 0x77a80ef3,
  burnLog: 0xca444ce6,
  newKeyLog: 0x27756729,
  dkgCompletedLog: 0x453443a6,
  mintTail: 0xe42a879b,
  mintHead: 0x3f781d24,
  burnNotificationAlt: 0x587643a2,
  newKey: 0x690f357a,
  pegoutStep: 0xbe44e7a6,
  pegoutStepAnswer: 0x1a84c0e0,
} as const;

export interface TgbtcMintData {
  fallback: boolean;
  sender: string | null;
  recipient: string | null;
  amount: bigint;
  asset: string | null;
  bitcoinTxId: string;
  recipientWallet: string | null;
  teleport: string | null;
}

export interface TgbtcBurnData {
  fallback: boolean;
  sender: string | null;
  wallet: string | null;
  asset: string | null;
  amount: bigint;
  pegout: string | null;
}

export interface TgbtcNewKeyData {
  fallback: boolean;
  teleport: string | null;
  coordinator: string | null;
  pubkey: string;
  pegout: string | null;
  amount: bigint;
  timestamp: bigint | null;
}

export interface TgbtcDkgLogData {
  coordinator: string | null;
  pubkey: string;
  timestamp: bigint;
}

const hex = (value: bigint): string => value.toString(16);

/** mint#77a80ef3 amount:Coins recipient:MsgAddress bitcoin_txid:uint256 (txid shown as its bytes little-endian). */
function mintLog(block: CallContractBlock): { amount: bigint; recipient: string | null; bitcoinTxId: string } {
  const cs = afterOpcode(block.message.body());
  const amount = cs.loadCoins();
  const recipient = looseAccount(loadLooseAddress(cs));
  const txid = cs.loadBuffer(32);
  return { amount, recipient, bitcoinTxId: Buffer.from(txid).reverse().toString('hex') };
}

/** burn#ca444ce6 amount:Coins sender pegout: the two addresses null when they do not read (toncenter's try). */
function burnLog(block: CallContractBlock): { amount: bigint; sender: string | null; pegout: string | null } {
  const cs = afterOpcode(block.message.body());
  const amount = cs.loadCoins();
  try {
    const sender = loadLooseAddress(cs);
    const pegout = loadLooseAddress(cs);
    const account = (a: typeof sender) => (a.kind === 'internal' ? a.raw : null);
    return { amount, sender: account(sender), pegout: account(pegout) };
  } catch {
    return { amount, sender: null, pegout: null };
  }
}

/** new_key#27756729 amount:Coins new_internal_pubkey:uint256 pegout:MsgAddress. */
function newKeyLog(block: CallContractBlock): { amount: bigint; pubkey: string; pegout: string | null } {
  const cs = afterOpcode(block.message.body());
  const amount = cs.loadCoins();
  const pubkey = hex(cs.loadUintBig(256));
  return { amount, pubkey, pegout: looseAccount(loadLooseAddress(cs)) };
}

/** dkg_completed#453443a6 timestamp:uint64 internal_pubkey:uint256. */
function dkgLog(block: CallContractBlock): { timestamp: bigint; pubkey: string } {
  const cs = afterOpcode(block.message.body());
  const timestamp = cs.loadUintBig(64);
  return { timestamp, pubkey: hex(cs.loadUintBig(256)) };
}

/** The calls of a mint before its tail, back to its head (toncenter walks at most 20 back), or null. */
function mintChain(tail: Block): { blocks: Block[]; head: CallContractBlock } | null {
  const blocks: Block[] = [];
  let current = tail;
  for (let i = 0; i < 20; i++) {
    const previous = current.previousBlock;
    if (previous === null) return null;
    blocks.push(previous);
    // toncenter takes the inner blocks of a folded block before it along too.
    for (const child of previous.childrenBlocks) if (child !== current) blocks.push(child);
    current = previous;
    if (isCallContract(current, TGBTC_OP.mintHead)) return { blocks, head: current };
  }
  return null;
}

class MintMatcher extends ContractMatcher {
  constructor() {
    super(TGBTC_OP.mintTail, { children: [new ContractMatcher(TGBTC_OP.mintLog), new BlockTypeMatcher('jetton_mint')] });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const log = findCallContract(others, TGBTC_OP.mintLog)!;
    const mint = others.find((b) => b.type === 'jetton_mint')!;
    const chain = mintChain(block);
    if (!chain) throw new Error('a tgBTC mint without its head');
    const { amount, recipient, bitcoinTxId } = mintLog(log);
    const minted = mint.data as JettonMintData;
    const data: TgbtcMintData = {
      fallback: false,
      sender: chain.head.message.source,
      recipient,
      amount,
      asset: minted.asset,
      bitcoinTxId,
      recipientWallet: minted.toWallet,
      teleport: log.message.source,
    };
    return folded('tgbtc_mint', data, [block, ...others, ...chain.blocks], false);
  }
}

/** After a pegout, what may follow: its step, that step's answer and a TON transfer. */
const pegoutSteps = () =>
  new ContractMatcher(TGBTC_OP.pegoutStep, {
    optional: true,
    children: [
      new ContractMatcher(TGBTC_OP.pegoutStepAnswer, { optional: true }),
      new BlockTypeMatcher('ton_transfer', { optional: true }),
    ],
  });

class BurnMatcher extends Matcher {
  constructor() {
    const children = () => [new ContractMatcher(TGBTC_OP.burnLog), pegoutSteps()];
    super({
      child: new OrMatcher([
        new ContractMatcher(OP.jettonBurnNotification, { children: children() }),
        new ContractMatcher(TGBTC_OP.burnNotificationAlt, { children: children() }),
      ]),
    });
  }

  override test(block: Block): boolean {
    return block.type === 'jetton_burn';
  }

  override build(block: Block, others: Block[]): Block[] {
    const burn = block.data as JettonBurnData;
    const log = burnLog(findCallContract(others, TGBTC_OP.burnLog)!);
    const amount = burn.amount === 0n ? log.amount : burn.amount < log.amount ? burn.amount : log.amount;
    const data: TgbtcBurnData = { fallback: false, sender: burn.owner, wallet: burn.wallet, asset: burn.asset, amount, pegout: log.pegout };
    return folded('tgbtc_burn', data, [block, ...others], false);
  }
}

class NewKeyMatcher extends ContractMatcher {
  constructor() {
    super(TGBTC_OP.newKey, {
      // Any call whose transaction logged dkg_completed.
      parent: new Matcher({ child: new ContractMatcher(TGBTC_OP.dkgCompletedLog) }),
      children: [new ContractMatcher(TGBTC_OP.newKeyLog), pegoutSteps()],
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const dkgBlock = findCallContract(others, TGBTC_OP.dkgCompletedLog)!;
    const keyBlock = findCallContract(others, TGBTC_OP.newKeyLog)!;
    const dkg = dkgLog(dkgBlock);
    const key = newKeyLog(keyBlock);
    const data: TgbtcNewKeyData = {
      fallback: false,
      teleport: dkgBlock.message.source,
      coordinator: keyBlock.message.source,
      pubkey: key.pubkey,
      pegout: key.pegout,
      amount: key.amount,
      timestamp: dkg.timestamp,
    };
    return folded('tgbtc_new_key', data, [block, ...others], false);
  }
}

/** A log of `opcode` alone, as the action `type` (toncenter's fallbacks). */
class LogOnlyMatcher extends ContractMatcher {
  constructor(
    opcode: number,
    private readonly type: string,
    private readonly read: (log: CallContractBlock) => unknown,
  ) {
    super(opcode);
  }

  override build(block: CallContractBlock): Block[] {
    return folded(this.type, this.read(block), [block], false);
  }
}

/** toncenter's tgBTC matchers, in its order (after EVAA's, before TONCO's liquidity). */
export function tgbtcMatchers(): Matcher[] {
  return [
    new MintMatcher(),
    new BurnMatcher(),
    new NewKeyMatcher(),
    new LogOnlyMatcher(TGBTC_OP.mintLog, 'tgbtc_mint', (log): TgbtcMintData => {
      const { amount, recipient, bitcoinTxId } = mintLog(log);
      const source = log.message.source;
      return { fallback: true, sender: source, recipient, amount, asset: null, bitcoinTxId, recipientWallet: null, teleport: source };
    }),
    new LogOnlyMatcher(TGBTC_OP.burnLog, 'tgbtc_burn', (log): TgbtcBurnData => {
      const { amount, sender, pegout } = burnLog(log);
      return { fallback: true, sender, wallet: null, asset: null, amount, pegout };
    }),
    new LogOnlyMatcher(TGBTC_OP.newKeyLog, 'tgbtc_new_key', (log): TgbtcNewKeyData => {
      const { amount, pubkey, pegout } = newKeyLog(log);
      return { fallback: true, teleport: null, coordinator: log.message.source, pubkey, pegout, amount, timestamp: null };
    }),
    new LogOnlyMatcher(TGBTC_OP.dkgCompletedLog, TGBTC_DKG_LOG, (log): TgbtcDkgLogData => {
      const { timestamp, pubkey } = dkgLog(log);
      return { coordinator: log.message.source, pubkey, timestamp };
    }),
  ];
}

/**
 * tgBTC's details (ton-index-go's `ActionDetailsTgbtc*`, the txid and public keys from the action's `extra`); a
 * fallback is answered as `<type>_fallback` while its block type makes its id. The ends are toncenter's columns (a
 * new key's public key and timestamp are in none).
 */
export function tgbtcParts(block: Block): ActionParts {
  const fallback = (f: boolean) => (f ? { type: `${block.type}_fallback` } : {});
  switch (block.type) {
    case 'tgbtc_mint': {
      const d = block.data as TgbtcMintData;
      return {
        ...fallback(d.fallback),
        details: {
          source: d.sender,
          destination: d.recipient,
          amount: str(d.amount),
          asset: d.asset,
          bitcoin_tx_id: d.bitcoinTxId,
          destination_wallet: d.recipientWallet,
        },
        ends: [d.sender, d.teleport, d.recipient, d.recipientWallet],
      };
    }
    case 'tgbtc_burn': {
      const d = block.data as TgbtcBurnData;
      return {
        ...fallback(d.fallback),
        details: { source: d.sender, source_wallet: d.wallet, destination: d.pegout, amount: str(d.amount), asset: d.asset },
        ends: [d.sender, d.wallet, d.pegout, null],
      };
    }
    case 'tgbtc_new_key': {
      const d = block.data as TgbtcNewKeyData;
      return {
        ...fallback(d.fallback),
        details: { source: d.teleport, pubkey: d.pubkey, coordinator: d.coordinator, pegout: d.pegout, amount: str(d.amount), asset: null },
        ends: [d.teleport, null, d.coordinator, d.pegout],
      };
    }
    default: {
      const d = block.data as TgbtcDkgLogData;
      return {
        type: 'tgbtc_dkg_log_fallback',
        details: { coordinator: d.coordinator, pubkey: d.pubkey, timestamp: str(d.timestamp) },
        ends: [d.coordinator, null, null, null],
      };
    }
  }
}
