/**
 * A transaction description (its phases) as v3 writes it. Field names, the order, the words
 * (ord, tick_tock, no_state, negfunds, ...) and "omit what is absent" follow the index's JSON
 * (Go omitempty on pointers: an absent field is left out, a present false or 0 is written).
 * Amounts, gas and sizes are decimal strings; hashes standard base64.
 */
import type {
  StorageUsed,
  TransactionActionPhase,
  TransactionBouncePhase,
  TransactionComputePhase,
  TransactionCreditPhase,
  TransactionDescription,
  TransactionStoragePhase,
  SplitMergeInfo,
} from '@ton/core';
import { formatHash, hashFromBigInt } from './hash.js';
import { extraCurrenciesMap } from './tonlib-json.js';

type Json = Record<string, unknown>;

const DESCRIPTION_TYPES: Record<TransactionDescription['type'], string> = {
  generic: 'ord',
  storage: 'storage',
  'tick-tock': 'tick_tock',
  'split-prepare': 'split_prepare',
  'split-install': 'split_install',
  'merge-prepare': 'merge_prepare',
  'merge-install': 'merge_install',
};

const SKIP_REASONS: Record<string, string> = { 'no-state': 'no_state', 'bad-state': 'bad_state', 'no-gas': 'no_gas' };
const BOUNCE_TYPES: Record<TransactionBouncePhase['type'], string> = { 'negative-funds': 'negfunds', 'no-funds': 'nofunds', ok: 'ok' };

/** Keeps only the fields that are present (Go omitempty on pointers). */
function present(object: Json): Json {
  // A loop, not entries/filter/fromEntries: every transaction rendered builds five of these.
  const out: Json = {};
  for (const key in object) {
    const value = object[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

const str = (value: bigint | number | null | undefined): string | undefined =>
  value === null || value === undefined ? undefined : value.toString();

function msgSize(size: StorageUsed): Json {
  return { cells: size.cells.toString(), bits: size.bits.toString() };
}

function storagePhase(phase: TransactionStoragePhase): Json {
  return present({
    storage_fees_collected: str(phase.storageFeesCollected),
    storage_fees_due: str(phase.storageFeesDue),
    status_change: phase.statusChange,
  });
}

function creditPhase(phase: TransactionCreditPhase): Json {
  const extra = extraCurrenciesMap(phase.credit.other);
  return present({
    due_fees_collected: str(phase.dueFeesColelcted),
    credit: str(phase.credit.coins),
    credit_extra_currencies: Object.keys(extra).length > 0 ? extra : undefined,
  });
}

function computePhase(phase: TransactionComputePhase): Json {
  if (phase.type === 'skipped') return { skipped: true, reason: SKIP_REASONS[phase.reason] ?? phase.reason };
  return present({
    skipped: false,
    success: phase.success,
    msg_state_used: phase.messageStateUsed,
    account_activated: phase.accountActivated,
    gas_fees: str(phase.gasFees),
    gas_used: str(phase.gasUsed),
    gas_limit: str(phase.gasLimit),
    gas_credit: str(phase.gasCredit),
    mode: phase.mode,
    exit_code: phase.exitCode,
    exit_arg: phase.exitArg,
    vm_steps: phase.vmSteps,
    vm_init_state_hash: formatHash(hashFromBigInt(phase.vmInitStateHash)),
    vm_final_state_hash: formatHash(hashFromBigInt(phase.vmFinalStateHash)),
  });
}

function actionPhase(phase: TransactionActionPhase): Json {
  return present({
    success: phase.success,
    valid: phase.valid,
    no_funds: phase.noFunds,
    status_change: phase.statusChange,
    total_fwd_fees: str(phase.totalFwdFees),
    total_action_fees: str(phase.totalActionFees),
    result_code: phase.resultCode,
    result_arg: phase.resultArg,
    tot_actions: phase.totalActions,
    spec_actions: phase.specActions,
    skipped_actions: phase.skippedActions,
    msgs_created: phase.messagesCreated,
    action_list_hash: formatHash(hashFromBigInt(phase.actionListHash)),
    tot_msg_size: msgSize(phase.totalMessageSize),
  });
}

function bouncePhase(phase: TransactionBouncePhase): Json {
  const type = BOUNCE_TYPES[phase.type];
  if (phase.type === 'negative-funds') return { type };
  if (phase.type === 'no-funds') return { type, msg_size: msgSize(phase.messageSize), req_fwd_fees: str(phase.requiredForwardFees) };
  return { type, msg_size: msgSize(phase.messageSize), msg_fees: str(phase.messageFees), fwd_fees: str(phase.forwardFees) };
}

/** split_info addresses are 256-bit account ids; written as raw addresses of the account's workchain. */
function splitInfo(info: SplitMergeInfo, workchain: number): Json {
  const raw = (id: bigint) => `${workchain}:${hashFromBigInt(id).toString('hex').toUpperCase()}`;
  return {
    cur_shard_pfx_len: info.currentShardPrefixLength,
    acc_split_depth: info.accountSplitDepth,
    this_addr: raw(info.thisAddress),
    sibling_addr: raw(info.siblingAddress),
  };
}

/** v3 `description` of a transaction of an account in `workchain`. */
export function v3TransactionDescription(description: TransactionDescription, workchain: number): Json {
  const d = description as Partial<Record<string, unknown>> & TransactionDescription;
  const field = <T>(name: string, render: (value: T) => Json): Json | undefined =>
    d[name] === undefined || d[name] === null ? undefined : render(d[name] as T);
  return present({
    type: DESCRIPTION_TYPES[description.type],
    aborted: d.aborted,
    destroyed: d.destroyed,
    credit_first: d.creditFirst,
    is_tock: d.isTock,
    installed: d.installed,
    storage_ph: field('storagePhase', storagePhase),
    credit_ph: field('creditPhase', creditPhase),
    compute_ph: field('computePhase', computePhase),
    action: field('actionPhase', actionPhase),
    bounce: field('bouncePhase', bouncePhase),
    split_info: field<SplitMergeInfo>('splitInfo', (info) => splitInfo(info, workchain)),
  });
}
