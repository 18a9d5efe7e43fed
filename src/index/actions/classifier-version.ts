/**
 * The classifier's version, kept with each classified trace (`trace_classifications.classifier_version`,
 * classifier-version-schema.ts). Raised whenever a change makes the classifier answer differently for traces it
 * already classified (a new protocol type, a fixed detail): on the next start the back-fill (backfill.ts) finds
 * the traces of an older version and classifies them again, resumably, as it gives actions to an upgraded index.
 *
 *   1  everything classified before versions were kept
 *   2  DeDust swaps
 *   3  DeDust pools detected (src/index/dex): DeDust swaps on stored traces, once the token back-fill found the pools
 *   4  DeDust liquidity (deposits: each side, both sides of a trace joined; withdrawals) and TONCO swaps
 *   5  TONCO liquidity (deposits, withdrawals of a position)
 *   6  STON.fi v2 liquidity's TON legs through pTON (deposits, payouts) and both sides of one request joined
 *   7  TONCO pool deployment (`tonco_deploy_pool`)
 *   8  swap.coffee swaps
 *   9  swap.coffee liquidity withdrawals
 *   10 swap.coffee liquidity deposits
 *   11 swap.coffee vault and pool creation, MEV protection, staking
 *   12 staking of Tonstakers, nominator pools and Ethena (`stake_deposit`, `stake_withdrawal`, `stake_withdrawal_request`):
 *      stored traces that were contract calls, jetton burns and transfers, TON transfers become these
 *   13 getgems auctions (bids, outbids, listings, cancels, finishes; a purchase through an auction, and the payout
 *      a "finish"/"stop" comment makes), once their contracts are detected (tokens/auctions.ts)
 *   14 LayerZero (`layerzero_send`, `_send_tokens`, `_receive`, `_commit_packet`, `_dvn_verify`), DeDust v2's swaps
 *      (`jetton_swap`, `dex` `dedust_v2`) and position claims (`dedust_v2_claim_fees`, `dedust_v2_claim_reward`):
 *      stored contract calls and jetton transfers become these
 *   15 EVAA (`evaa_supply`, `evaa_withdraw`, `evaa_liquidate`) and JVault (`jvault_stake`, `jvault_unstake`,
 *      `jvault_claim`, `jvault_unstake_request`): stored traces that were contract calls and transfers become these
 *   16 Telegram and .ton DNS items (auctions started and cancelled, bids and outbids on the item, DNS purchases and
 *      balance releases) and getgems' sale price changes (`nft_update_sale`): stored contract calls and TON transfers
 *      become these
 *   17 cocoon's twelve actions and tgBTC's mint, burn and new key (with their log fallbacks): stored traces that were
 *      contract calls, jetton mints and burns become these
 *   18 a DeDust v2 swap through a pool whose compute phase ended with a code other than 0 is failed (the classifier
 *      reads each transaction's exit code now)
 *   19 DeDust v2's liquidity (`dex_deposit_liquidity`: each side, both sides of a trace joined, refusals;
 *      `dex_withdraw_liquidity`, `dex` `dedust_v2`): stored contract calls and jetton transfers become these
 *   20 wallet v4 plugin subscriptions (`subscribe`, `unsubscribe`), `nft_discovery`, and an NFT item's own
 *      ownership_assigned as an `nft_transfer` (a Telegram item's sale at its auction's end marked as a purchase, with
 *      the winning bid and the fill-ups): stored contract calls, TON transfers and auction bids become these
 *   21 a mint#642b7d07 whose receiver field is an external address is read past it (as toncenter reads it): stored
 *      contract calls become the `jetton_mint` they are
 *   22 a vesting request's `message_boc` and a multisig order's `order_boc` written without a CRC (`te6ccg...`), as
 *      toncenter writes them
 */
export const CLASSIFIER_VERSION = 22;

let current = CLASSIFIER_VERSION;

/** The version written with each classified trace now. */
export const classifierVersion = (): number => current;

/** Sets the version the classifier claims (a test's seam to stand for an older or newer tongate); gives the undo. */
export function claimClassifierVersion(version: number): () => void {
  const before = current;
  current = version;
  return () => {
    current = before;
  };
}
