/**
 * tgBTC's actions on traces built by hand (support.ts), shaped as toncenter's matchers expect them (ton-indexer's
 * `blocks/tgbtc.py`, values of the kind of `tests/test_cases/tgbtc.yaml`), accounts made up: a mint (its chain back
 * to the call that began it, the teleport's log, the `jetton_mint`), a burn (the master passing the notification on
 * to the contract that logs it), a new key (after the call that logged dkg_completed); each field by field, its id
 * from toncenter's block type, against toncenter's spec. toncenter never marks them failed: what it tells apart is the
 * fallback, the log alone when the rest does not match (`tgbtc_mint_fallback`, `tgbtc_burn_fallback`,
 * `tgbtc_new_key_fallback`, `tgbtc_dkg_log_fallback`). tgBTC's types are in no version: only a client asking for
 * them (the `tgbtc` group) sees them, others see their parts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS, type ActionMessage, type KnownContracts, type TraceInput } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { account, address, buildTrace, op, type Step, againstSpec, actionId } from './support.js';

const [CALLER, TELEPORT, BRIDGE, TGBTC, RECIPIENT, RECIPIENT_WALLET, USER, USER_WALLET, PEGOUT, COORDINATOR, OPERATOR, SIGNER] = [
  0xb7c0, 0xb7c1, 0xb7c2, 0xb7c3, 0xb7c4, 0xb7c5, 0xb7c6, 0xb7c7, 0xb7c8, 0xb7c9, 0xb7ca, 0xb7cb,
].map(account);

const latest = expandActionTypes([]);
const tgbtcClient = expandActionTypes(['tgbtc']);

/** The one action of `type`: seen by a client asking for tgBTC, not by a `latest` one. */
function tgbtcAction(actions: ActionRecord[], type: string): ActionRecord {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, actions.map((a) => a.type).join());
  const [action] = found;
  assert.ok(shownTo(tgbtcClient, type, action.ancestors), 'a client asking for tgbtc sees it');
  assert.ok(!shownTo(latest, type, action.ancestors), 'tgBTC is in no version');
  againstSpec(action);
  return action;
}

/** The log of `opcode` a trace's transactions emitted. */
function log(trace: TraceInput, opcode: number): ActionMessage {
  const found = trace.transactions.flatMap((tx) => tx.outMsgs).find((m) => m.destination === null && m.opcode === opcode);
  assert.ok(found, `a log of 0x${opcode.toString(16)}`);
  return found;
}

// Mint.

const MINTED = 9_850n;
/** The txid's bytes as the log stores them; toncenter shows them reversed (little-endian). */
const TXID_SHOWN = '29473eb71be95904599a5cecd24f602f07942b1da2b4c5eb3c5551367c2e4023';
const TXID = Buffer.from(TXID_SHOWN, 'hex').reverse();
const mintLog = (): Cell =>
  beginCell().storeUint(0x77a80ef3, 32).storeCoins(MINTED).storeAddress(address(RECIPIENT)).storeBuffer(TXID).endCell();
const internalTransfer = (amount: bigint): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(TELEPORT)).storeAddress(address(RECIPIENT)).storeCoins(0n).storeBit(0).endCell();
const jettonMint = (): Cell =>
  op(0x642b7d07).storeAddress(address(RECIPIENT)).storeCoins(50_000_000n).storeRef(internalTransfer(MINTED)).endCell();

/** The caller begins the mint at the teleport (op 0x3f781d24), a bridge hop, then the tail (op 0xe42a879b). */
const mintTrace = (head = 0x3f781d24) =>
  buildTrace(CALLER, [
    {
      to: TELEPORT,
      body: op(head).endCell(),
      then: [
        {
          to: BRIDGE,
          body: op(0x11111111).endCell(),
          then: [
            {
              to: TELEPORT,
              body: op(0xe42a879b).endCell(),
              logBodies: [mintLog()],
              then: [
                {
                  to: TGBTC,
                  body: jettonMint(),
                  then: [
                    { to: RECIPIENT_WALLET, body: internalTransfer(MINTED), then: [{ to: RECIPIENT, body: op(0xd53276db).endCell() }] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);
const recipientWallet: KnownContracts = {
  ...NO_CONTRACTS,
  jettonWallets: new Map([[RECIPIENT_WALLET, { owner: RECIPIENT, jetton: TGBTC }]]),
};

test('tgbtc_mint: from the call that began it to the teleport log and the jetton mint; its parts shown to other clients', () => {
  const { trace, messages } = mintTrace();
  const actions = classifyTrace(trace, recipientWallet).actions;
  const mint = tgbtcAction(actions, 'tgbtc_mint');
  assert.equal(mint.success, true);
  assert.deepEqual(mint.details, {
    source: CALLER,
    destination: RECIPIENT,
    amount: MINTED.toString(),
    asset: TGBTC,
    bitcoin_tx_id: TXID_SHOWN,
    destination_wallet: RECIPIENT_WALLET,
  });
  assert.equal(mint.actionId, actionId(messages[0].hash, 'tgbtc_mint'), 'from the head of the chain');
  assert.deepEqual([...mint.accounts].sort(), [CALLER, TELEPORT, BRIDGE, TGBTC, RECIPIENT_WALLET, RECIPIENT].sort());
  assert.equal(mint.transactions.length, 7, 'the caller, the teleport, the bridge, the teleport, the master, the wallet, the excess');

  const partsFor = (supported: ReadonlySet<string>) => actions.filter((a) => shownTo(supported, a.type, a.ancestors)).map((a) => a.type);
  assert.deepEqual(partsFor(tgbtcClient), ['tgbtc_mint'], 'a tgbtc client: the mint alone');
  assert.deepEqual(
    partsFor(latest).sort(),
    ['call_contract', 'call_contract', 'call_contract', 'jetton_mint'],
    'a latest client: its parts',
  );
});

test('tgbtc_mint_fallback: the teleport log alone, when the jetton mint is not known or the chain has no head', () => {
  for (const [trace, contracts] of [
    [mintTrace().trace, NO_CONTRACTS],
    [mintTrace(0x22222222).trace, recipientWallet],
  ] as const) {
    const actions = classifyTrace(trace, contracts).actions;
    const mint = tgbtcAction(actions, 'tgbtc_mint_fallback');
    assert.equal(mint.success, true);
    assert.deepEqual(mint.details, {
      source: TELEPORT,
      destination: RECIPIENT,
      amount: MINTED.toString(),
      asset: null,
      bitcoin_tx_id: TXID_SHOWN,
      destination_wallet: null,
    });
    assert.equal(mint.actionId, actionId(log(trace, 0x77a80ef3).hash, 'tgbtc_mint'), "toncenter's block type makes the id");
    assert.deepEqual(mint.transactions, [trace.transactions[3].hash], "the teleport's transaction that logged it");
  }
});

// Burn.

const BURNT = 93_066n;
const LOGGED = 93_000n;
const burnLog = (amount: bigint, pegout: string | null = PEGOUT): Cell =>
  beginCell()
    .storeUint(0xca444ce6, 32)
    .storeCoins(amount)
    .storeAddress(address(USER))
    .storeAddress(pegout === null ? null : address(pegout))
    .endCell();
const burnNotification = (code = 0x7bdd97de): Cell =>
  op(code).storeCoins(BURNT).storeAddress(address(USER)).storeAddress(address(USER)).endCell();

/** The user burns tgBTC; its master passes the notification on (op `passOn`) to the teleport, which logs the burn. */
const burnTrace = (passOn = 0x7bdd97de, teleportSteps: Step[] = [], logged: Cell = burnLog(LOGGED)) =>
  buildTrace(USER, [
    {
      to: USER_WALLET,
      body: op(0x595f07bc).storeCoins(BURNT).storeAddress(address(USER)).storeMaybeRef(null).endCell(),
      then: [
        {
          to: TGBTC,
          body: burnNotification(),
          then: [{ to: TELEPORT, body: burnNotification(passOn), logBodies: [logged], then: teleportSteps }],
        },
      ],
    },
  ]);
const userWallet: KnownContracts = { ...NO_CONTRACTS, jettonWallets: new Map([[USER_WALLET, { owner: USER, jetton: TGBTC }]]) };

test('tgbtc_burn: a jetton burn the teleport logged (the smaller amount), also after op 0x587643a2 and with the pegout steps', () => {
  const pegoutSteps: Step[] = [{ to: PEGOUT, body: op(0xbe44e7a6).endCell(), then: [{ to: TELEPORT, body: op(0x1a84c0e0).endCell() }] }];
  for (const [passOn, steps] of [
    [0x7bdd97de, []],
    [0x587643a2, pegoutSteps],
  ] as const) {
    const { trace, messages } = burnTrace(passOn, [...steps]);
    const actions = classifyTrace(trace, userWallet).actions;
    const burn = tgbtcAction(actions, 'tgbtc_burn');
    assert.equal(burn.success, true);
    assert.deepEqual(burn.details, {
      source: USER,
      source_wallet: USER_WALLET,
      destination: PEGOUT,
      amount: LOGGED.toString(),
      asset: TGBTC,
    });
    assert.equal(burn.actionId, actionId(messages[0].hash, 'tgbtc_burn'));
    assert.equal(
      burn.transactions.length,
      steps.length === 0 ? 4 : 6,
      "the user's, its wallet, the master, the teleport (and the pegout steps)",
    );
    assert.ok(
      shownTo(latest, 'jetton_burn', actions.find((a) => a.type === 'jetton_burn')!.ancestors),
      'a latest client sees the jetton burn',
    );
  }
});

test('tgbtc_burn: a pegout address that does not read (an addr_var) leaves sender and pegout unknown, as toncenter reads it', () => {
  const addrVar = beginCell()
    .storeUint(0xca444ce6, 32)
    .storeCoins(LOGGED)
    .storeAddress(address(USER))
    .storeUint(0b11, 2)
    .storeBit(0)
    .storeUint(256, 9)
    .storeInt(0, 32)
    .storeBuffer(Buffer.alloc(32, 0xab))
    .endCell();
  const burn = tgbtcAction(classifyTrace(burnTrace(0x7bdd97de, [], addrVar).trace, userWallet).actions, 'tgbtc_burn');
  assert.deepEqual(burn.details, { source: USER, source_wallet: USER_WALLET, destination: null, amount: LOGGED.toString(), asset: TGBTC });
  const fallback = tgbtcAction(classifyTrace(burnTrace(0x7bdd97de, [], addrVar).trace, NO_CONTRACTS).actions, 'tgbtc_burn_fallback');
  assert.deepEqual(fallback.details, { source: null, source_wallet: null, destination: null, amount: LOGGED.toString(), asset: null });
});

test('tgbtc_burn_fallback: the burn log alone, when the burnt wallet is not known', () => {
  const { trace } = burnTrace();
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const burn = tgbtcAction(actions, 'tgbtc_burn_fallback');
  assert.deepEqual(burn.details, { source: USER, source_wallet: null, destination: PEGOUT, amount: LOGGED.toString(), asset: null });
  assert.equal(burn.actionId, actionId(log(trace, 0xca444ce6).hash, 'tgbtc_burn'));
  const other = classifyTrace(burnTrace(0x33333333).trace, userWallet).actions;
  assert.deepEqual(
    other.filter((a) => a.type.startsWith('tgbtc_')).map((a) => a.type),
    ['tgbtc_burn_fallback'],
    'a notification of another op passed on: the log alone',
  );
  assert.ok(other.some((a) => a.type === 'jetton_burn'));
});

// New key.

const PUBKEY = 0x082e9d762046f4bb5cde2ce1b7780cb499b5394972163930cf88bc55463acb70n;
const DKG_PUBKEY = 0xbb3a21df270dd0e6dc1169f4afb93be5eb2945df81c011f2b29f648daf64d150n;
const TIMESTAMP = 1_748_633_438n;
const KEY_AMOUNT = 425_489_053_588n;
const dkgLog = (): Cell => beginCell().storeUint(0x453443a6, 32).storeUint(TIMESTAMP, 64).storeUint(DKG_PUBKEY, 256).endCell();
const newKeyLog = (): Cell =>
  beginCell().storeUint(0x27756729, 32).storeCoins(KEY_AMOUNT).storeUint(PUBKEY, 256).storeAddress(address(PEGOUT)).endCell();

/** A signer's call to the teleport, which logs dkg_completed (or not) and asks the coordinator for the new key. */
const newKeyTrace = (dkg: boolean) =>
  buildTrace(OPERATOR, [
    {
      to: TELEPORT,
      body: op(0x44444444).endCell(),
      logBodies: dkg ? [dkgLog()] : [],
      then: [
        {
          to: COORDINATOR,
          body: op(0x690f357a).endCell(),
          logBodies: [newKeyLog()],
          then: [{ to: PEGOUT, body: op(0xbe44e7a6).endCell(), then: [{ to: SIGNER, value: 1_000n }] }],
        },
      ],
    },
  ]);

test('tgbtc_new_key: the coordinator logs a new key after a call that logged dkg_completed; without it a fallback', () => {
  const { trace, messages } = newKeyTrace(true);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const key = tgbtcAction(actions, 'tgbtc_new_key');
  assert.equal(key.success, true);
  assert.deepEqual(key.details, {
    source: TELEPORT,
    // Python's hex(): no leading zero.
    pubkey: '82e9d762046f4bb5cde2ce1b7780cb499b5394972163930cf88bc55463acb70',
    coordinator: COORDINATOR,
    pegout: PEGOUT,
    amount: KEY_AMOUNT.toString(),
    asset: null,
  });
  assert.equal(key.actionId, actionId(messages[0].hash, 'tgbtc_new_key'), 'from the call that logged dkg_completed');
  assert.deepEqual([...key.accounts].sort(), [OPERATOR, TELEPORT, COORDINATOR, PEGOUT, SIGNER].sort(), 'the signer its call came from too');
  assert.ok(!actions.some((a) => a.type === 'tgbtc_dkg_log_fallback'), 'the dkg log is part of it');

  const alone = newKeyTrace(false);
  const fallback = tgbtcAction(classifyTrace(alone.trace, NO_CONTRACTS).actions, 'tgbtc_new_key_fallback');
  assert.deepEqual(fallback.details, {
    source: null,
    pubkey: '82e9d762046f4bb5cde2ce1b7780cb499b5394972163930cf88bc55463acb70',
    coordinator: COORDINATOR,
    pegout: PEGOUT,
    amount: KEY_AMOUNT.toString(),
    asset: null,
  });
  assert.equal(fallback.actionId, actionId(log(alone.trace, 0x27756729).hash, 'tgbtc_new_key'));
});

test('tgbtc_dkg_log_fallback: a dkg_completed log no new key followed', () => {
  const { trace } = buildTrace(OPERATOR, [{ to: COORDINATOR, body: op(0x44444444).endCell(), logBodies: [dkgLog()] }]);
  const dkg = tgbtcAction(classifyTrace(trace, NO_CONTRACTS).actions, 'tgbtc_dkg_log_fallback');
  assert.equal(dkg.success, true);
  assert.deepEqual(dkg.details, { coordinator: COORDINATOR, pubkey: DKG_PUBKEY.toString(16), timestamp: TIMESTAMP.toString() });
  assert.equal(dkg.actionId, actionId(log(trace, 0x453443a6).hash, 'tgbtc_dkg_log'), "toncenter's block type tgbtc_dkg_log");
});
