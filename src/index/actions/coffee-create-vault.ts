/**
 * swap.coffee vault creation (ton-indexer's `CoffeeCreateVaultMatcher` in `blocks/liquidity.py`, its bodies in
 * `messages/coffee.py`), one `coffee_create_vault`:
 *
 *   create_vault#c0ffee06 (the asset the vault is for) to the factory, the factory's deploy#c0ffee22 of the vault,
 *   and, for a jetton's vault, the vault asking the jetton's master for its wallet (provide_wallet_address#2c76b973)
 *   with the master's answer (take_wallet_address#d1735400).
 *
 * Kept as toncenter decides it: the action is built once the deploy was sent, and then it is a success whatever the
 * vault did with it (toncenter never marks it failed); `value` is the TON the request carried. A request the factory
 * did not pass on stays a contract call.
 */
import type { Cell } from '@ton/core';
import { findCallContract, folded, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode } from './bodies.js';
import { COFFEE_LIQUIDITY_OP } from './coffee-liquidity.js';
import { coffeeAsset } from './coffee-swaps.js';
import { ContractMatcher, type Matcher } from './matcher.js';
import { str, type ActionParts } from './details-common.js';

export const COFFEE_CREATE_VAULT_OP = { createVault: 0xc0ffee06, provideWalletAddress: 0x2c76b973, takeWalletAddress: 0xd1735400 } as const;

export interface CoffeeCreateVaultData {
  sender: string | null;
  vault: string | null;
  /** The vault's asset (TON: null). */
  asset: string | null;
  value: bigint | null;
}

/** create_vault#c0ffee06 query_id:uint64 asset:Asset: the asset the vault is for. */
function vaultAsset(body: Cell): string | null {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return coffeeAsset(cs);
}

class CoffeeCreateVaultMatcher extends ContractMatcher {
  constructor() {
    const takeWallet = new ContractMatcher(COFFEE_CREATE_VAULT_OP.takeWalletAddress, { optional: true });
    const provideWallet = new ContractMatcher(COFFEE_CREATE_VAULT_OP.provideWalletAddress, { optional: true, child: takeWallet });
    super(COFFEE_CREATE_VAULT_OP.createVault, { child: new ContractMatcher(COFFEE_LIQUIDITY_OP.deploy, { child: provideWallet }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const deploy = findCallContract(others, COFFEE_LIQUIDITY_OP.deploy);
    if (!deploy) return [];
    const data: CoffeeCreateVaultData = {
      sender: block.message.source,
      vault: deploy.message.destination,
      asset: vaultAsset(block.message.body()),
      value: block.message.value,
    };
    return folded('coffee_create_vault', data, [block, ...others], false);
  }
}

export const coffeeCreateVaultMatcher = (): Matcher => new CoffeeCreateVaultMatcher();

/**
 * A swap.coffee vault created (`_fill_coffee_create_vault`, ton-index-go's ActionDetailsCoffeeCreateVault): the
 * vault is the destination; `value` the TON the request carried, as a decimal string; the asset null for TON.
 */
export function coffeeCreateVaultParts(d: CoffeeCreateVaultData): ActionParts {
  return {
    details: { source: d.sender, vault: d.vault, asset: d.asset, value: str(d.value) },
    ends: [d.sender, null, d.vault, null],
  };
}
