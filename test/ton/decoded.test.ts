/**
 * message_content.decoded: bodies built by @ton/core, @ton/ton's wallets and tonweb's token contracts,
 * read back in toncenter's encoding (constructor objects with "@type", integers as decimal strings,
 * bits as upper-case hex, Bool as JSON booleans, cells as their own decoding or a base64 BoC).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Address, beginCell, Cell, internal, SendMode, storeMessageRelaxed, toNano, type Builder } from '@ton/core';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { decodeMessageBody } from '../../src/ton/decoded/decode.js';
import { loadHex } from '../../src/ton/decoded/kinds.js';
import { SCHEME_NAMES } from '../../src/ton/decoded/schemes.js';
import { opcodeName } from '../../src/ton/opcode-names.js';

const require = createRequire(import.meta.url);
const TonWeb = require('tonweb');

const A = new Address(0, Buffer.alloc(32, 0xa1));
const B = new Address(-1, Buffer.alloc(32, 0x0b));
const KEY = Buffer.alloc(32, 7);

const decode = (b: Builder | Cell) => decodeMessageBody(b instanceof Cell ? b : b.endCell());
const nothing = { '@type': 'nothing_from_maybe' };
const addrNone = { '@type': 'addr_none' };
const std = (a: Address) => ({
  '@type': 'addr_std',
  anycast: nothing,
  workchain_id: String(a.workChain),
  address: a.hash.toString('hex').toUpperCase(),
});
/** VarUInteger 16 as toncenter writes it: the byte length and the value. */
const vu = (v: bigint) => ({ '@type': 'var_uint', len: String(v === 0n ? 0 : Math.ceil(v.toString(16).length / 2)), value: v.toString() });
const boc = (c: Cell) => c.toBoc({ idx: false, crc32: false }).toString('base64');
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

test("jetton_transfer (@ton/core): every field in toncenter's encoding, the forward payload decoded in place", () => {
  const body = beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(42, 64)
    .storeCoins(1000n)
    .storeAddress(A)
    .storeAddress(B)
    .storeMaybeRef(null)
    .storeCoins(1n)
    .storeBit(1)
    .storeRef(comment('for coffee'));
  assert.deepEqual(decode(body), {
    '@type': 'jetton_transfer',
    query_id: '42',
    amount: { '@type': 'var_uint', len: '2', value: '1000' },
    destination: { '@type': 'addr_std', anycast: { '@type': 'nothing_from_maybe' }, workchain_id: '0', address: 'A1'.repeat(32) },
    response_destination: { '@type': 'addr_std', anycast: { '@type': 'nothing_from_maybe' }, workchain_id: '-1', address: '0B'.repeat(32) },
    custom_payload: { '@type': 'nothing_from_maybe' },
    forward_ton_amount: { '@type': 'var_uint', len: '1', value: '1' },
    forward_payload: { '@type': 'second_from_either', value: { '@type': 'text_comment', text: 'for coffee' } },
  });
  // Key order is toncenter's: "@type" first, then the scheme's field order.
  assert.deepEqual(Object.keys(decode(body)!), [
    '@type',
    'query_id',
    'amount',
    'destination',
    'response_destination',
    'custom_payload',
    'forward_ton_amount',
    'forward_payload',
  ]);
});

test('jetton_transfer: a custom payload that decodes to nothing stays a base64 BoC; an empty inline payload is empty_cell', () => {
  const custom = beginCell().storeUint(5, 8).endCell();
  const json = decode(
    beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(0, 64)
      .storeCoins(0n)
      .storeAddress(A)
      .storeAddress(null)
      .storeMaybeRef(custom)
      .storeCoins(0n)
      .storeBit(0),
  )!;
  assert.deepEqual(json.custom_payload, { '@type': 'something_from_maybe', value: boc(custom) });
  assert.ok(String((json.custom_payload as { value: string }).value).startsWith('te6cc'));
  assert.deepEqual(json.amount, { '@type': 'var_uint', len: '0', value: '0' });
  assert.deepEqual(json.response_destination, addrNone);
  assert.deepEqual(json.forward_payload, { '@type': 'first_from_either', value: { '@type': 'empty_cell' } });
});

test("tonweb JettonWallet / NftItem bodies decode; tonweb's burn body (no custom_payload bit) is null, as toncenter reads it", async () => {
  const { JettonWallet } = TonWeb.token.jetton;
  const { NftItem } = TonWeb.token.nft;
  const toCore = async (cell: { toBoc(b: boolean): Promise<Uint8Array> }) => Cell.fromBoc(Buffer.from(await cell.toBoc(false)))[0];
  const wallet = new JettonWallet(new TonWeb.HttpProvider(), {});
  const to = new TonWeb.utils.Address(A.toRawString());
  const resp = new TonWeb.utils.Address(B.toRawString());
  const transfer = await wallet.createTransferBody({
    queryId: 9,
    jettonAmount: new TonWeb.utils.BN('123456789'),
    toAddress: to,
    responseAddress: resp,
    forwardAmount: new TonWeb.utils.BN(5),
    forwardPayload: new TextEncoder().encode('\0\0\0\0inline'),
  });
  const json = decodeMessageBody(await toCore(transfer))!;
  assert.equal(json['@type'], 'jetton_transfer');
  assert.deepEqual(json.amount, vu(123456789n));
  assert.deepEqual(json.destination, std(A));
  assert.deepEqual(json.forward_payload, { '@type': 'first_from_either', value: { '@type': 'text_comment', text: 'inline' } });

  const burn = await wallet.createBurnBody({ queryId: 1, jettonAmount: new TonWeb.utils.BN(10), responseAddress: resp });
  const burnCell = await toCore(burn);
  assert.equal(opcodeName(burnCell.beginParse().preloadUint(32)), 'jetton_burn');
  assert.equal(decodeMessageBody(burnCell), null, 'jetton_burn needs its custom_payload bit');

  const item = new NftItem(new TonWeb.HttpProvider(), {});
  const nft = await item.createTransferBody({
    queryId: 3,
    newOwnerAddress: to,
    responseAddress: resp,
    forwardAmount: new TonWeb.utils.BN(1),
  });
  assert.deepEqual(decodeMessageBody(await toCore(nft)), {
    '@type': 'nft_transfer',
    query_id: '3',
    new_owner: std(A),
    response_destination: std(B),
    custom_payload: nothing,
    forward_amount: vu(1n),
    forward_payload: { '@type': 'first_from_either', value: { '@type': 'empty_cell' } },
  });
});

test('jetton wallet and minter messages: internal_transfer (with and without the Either bit), notify, excess, burn, burn_notification, mints, admin', () => {
  const internalTransfer = (either: boolean) => {
    const b = beginCell().storeUint(0x178d4519, 32).storeUint(1, 64).storeCoins(77n).storeAddress(A).storeAddress(B).storeCoins(2n);
    return either ? b.storeBit(0).storeUint(0, 32).storeStringTail('x') : b;
  };
  assert.deepEqual(decode(internalTransfer(true)), {
    '@type': 'jetton_internal_transfer',
    query_id: '1',
    amount: vu(77n),
    from: std(A),
    response_address: std(B),
    forward_ton_amount: vu(2n),
    forward_payload: { '@type': 'first_from_either', value: { '@type': 'text_comment', text: 'x' } },
  });
  assert.deepEqual(
    decode(internalTransfer(false))!.forward_payload,
    { '@type': 'empty_cell' },
    'the second scheme: the rest of the cell, no Either bit',
  );
  assert.deepEqual(
    decode(
      beginCell().storeUint(0x7362d09c, 32).storeUint(2, 64).storeCoins(5n).storeAddress(A).storeBit(1).storeRef(beginCell().endCell()),
    ),
    {
      '@type': 'jetton_notify',
      query_id: '2',
      amount: vu(5n),
      sender: std(A),
      forward_payload: { '@type': 'second_from_either', value: { '@type': 'empty_cell' } },
    },
  );
  assert.deepEqual(decode(beginCell().storeUint(0xd53276db, 32).storeUint(3, 64)), { '@type': 'excess', query_id: '3' });
  assert.deepEqual(decode(beginCell().storeUint(0x595f07bc, 32).storeUint(4, 64).storeCoins(6n).storeAddress(B).storeMaybeRef(null)), {
    '@type': 'jetton_burn',
    query_id: '4',
    amount: vu(6n),
    response_destination: std(B),
    custom_payload: nothing,
  });
  assert.deepEqual(decode(beginCell().storeUint(0x7bdd97de, 32).storeUint(5, 64).storeCoins(6n).storeAddress(A).storeAddress(null)), {
    '@type': 'jetton_burn_notification',
    query_id: '5',
    amount: vu(6n),
    sender: std(A),
    response_destination: addrNone,
  });
  const master = beginCell().storeUint(0x178d4519, 32).endCell();
  assert.deepEqual(
    decode(beginCell().storeUint(0x642b7d07, 32).storeUint(6, 64).storeAddress(A).storeCoins(toNano('0.05')).storeRef(master)),
    {
      '@type': 'jetton_mint',
      query_id: '6',
      to_address: std(A),
      ton_amount: { '@type': 'nanocoins', amount: vu(50000000n) },
    },
  );
  assert.deepEqual(decode(beginCell().storeUint(0x15, 32).storeUint(7, 64).storeAddress(A).storeCoins(1n).storeRef(master)), {
    '@type': 'minter_jetton_mint',
    query_id: '7',
    to_address: std(A),
    ton_amount: { '@type': 'nanocoins', amount: vu(1n) },
    master_msg: boc(master),
  });
  assert.deepEqual(decode(beginCell().storeUint(0x6501f354, 32).storeUint(8, 64).storeAddress(B)), {
    '@type': 'jetton_change_admin',
    query_id: '8',
    new_admin_address: std(B),
  });
});

test('NFT messages: ownership_assigned, static data, royalties, ownership proofs; a multisig approval', () => {
  assert.deepEqual(decode(beginCell().storeUint(0x05138d91, 32).storeUint(1, 64).storeAddress(A).storeBit(0)), {
    '@type': 'nft_ownership_assigned',
    query_id: '1',
    prev_owner: std(A),
    forward_payload: { '@type': 'first_from_either', value: { '@type': 'empty_cell' } },
  });
  assert.deepEqual(decode(beginCell().storeUint(0x2fcb26a2, 32).storeUint(2, 64)), { '@type': 'get_static_data', query_id: '2' });
  assert.deepEqual(
    decode(
      beginCell()
        .storeUint(0x8b771735, 32)
        .storeUint(3, 64)
        .storeUint(2n ** 200n, 256)
        .storeAddress(B),
    ),
    {
      '@type': 'report_static_data',
      query_id: '3',
      index: (2n ** 200n).toString(),
      collection: std(B),
    },
  );
  assert.deepEqual(decode(beginCell().storeUint(0x693d3950, 32).storeUint(4, 64)), { '@type': 'get_royalty_params', query_id: '4' });
  assert.deepEqual(decode(beginCell().storeUint(0xa8cb00ad, 32).storeUint(5, 64).storeUint(5, 16).storeUint(100, 16).storeAddress(A)), {
    '@type': 'report_royalty_params',
    query_id: '5',
    numerator: '5',
    denominator: '100',
    destination: std(A),
  });
  assert.deepEqual(decode(beginCell().storeUint(0xa762230f, 32).storeUint(7, 64).storeUint(2, 8)), {
    '@type': 'multisig_approve',
    query_id: '7',
    signer_index: '2',
  });
  const data = beginCell().storeUint(1, 16).endCell();
  assert.deepEqual(decode(beginCell().storeUint(0x04ded148, 32).storeUint(6, 64).storeAddress(A).storeRef(data).storeBit(1)), {
    '@type': 'prove_ownership',
    query_id: '6',
    dest: std(A),
    forward_payload: boc(data),
    with_content: true,
  });
});

test('change_dns_record: a wallet record (dns_smc_address) and the delete form; other DNS records', () => {
  const key = Buffer.alloc(32, 0xe8);
  const wallet = beginCell().storeUint(0x9fd3, 16).storeAddress(A).storeUint(0, 8).endCell();
  assert.deepEqual(decode(beginCell().storeUint(0x4eb1f0f9, 32).storeUint(1, 64).storeBuffer(key).storeRef(wallet)), {
    '@type': 'change_dns_record',
    query_id: '1',
    key: 'E8'.repeat(32),
    value: { '@type': 'dns_smc_address', smc_addr: std(A), flags: '0' },
  });
  assert.deepEqual(decode(beginCell().storeUint(0x4eb1f0f9, 32).storeUint(2, 64).storeBuffer(key)), {
    '@type': 'delete_dns_record',
    query_id: '2',
    key: 'E8'.repeat(32),
  });
  const record = (c: Builder) => decode(beginCell().storeUint(0x4eb1f0f9, 32).storeUint(0, 64).storeBuffer(key).storeRef(c))!.value;
  assert.deepEqual(record(beginCell().storeUint(0xba93, 16).storeAddress(B)), { '@type': 'dns_next_resolver', resolver: std(B) });
  assert.deepEqual(record(beginCell().storeUint(0x7473, 16).storeBuffer(key)), { '@type': 'dns_storage_address', bag_id: 'E8'.repeat(32) });
  assert.deepEqual(
    record(beginCell().storeUint(0xad01, 16).storeBuffer(key).storeUint(1, 8).storeBit(1).storeUint(0x4854, 16).storeBit(0)),
    {
      '@type': 'dns_adnl_address',
      adnl_addr: 'E8'.repeat(32),
      flags: '1',
      proto_list: { '@type': 'proto_list_next', item: { '@type': 'proto_http' }, next: { '@type': 'proto_list_nil' } },
    },
  );
  assert.deepEqual(record(beginCell().storeUint(0x1eda, 16).storeUint(1, 8).storeUint(2, 8).storeBuffer(Buffer.from('hi'))), {
    '@type': 'dns_text',
    '': { '@type': 'text', chunks: '1', rest: { '@type': 'text_chunk', len: '2', data: '6869', next: { '@type': 'chunk_ref_empty' } } },
  });
  assert.equal(
    record(beginCell().storeUint(0x9fd3, 16).storeAddress(A).storeUint(2, 8)),
    undefined,
    'flags <= 1: otherwise change_dns_record does not read and delete_dns_record does',
  );
});

test("comments keep today's form at the top; encrypted comments, bounces, empty bodies", () => {
  assert.deepEqual(decode(comment('hello')), { '@type': 'text_comment', comment: 'hello', type: 'text_comment' });
  assert.deepEqual(Object.keys(decode(comment('hello'))!), ['@type', 'comment', 'type']);
  const long = 'x'.repeat(2000); // over tonlib's 1024 bytes: toncenter's snake rule still reads it
  assert.deepEqual(decode(comment(long)), { '@type': 'text_comment', comment: long, type: 'text_comment' });
  assert.deepEqual(decode(beginCell().storeUint(0, 32).storeRef(comment('x').beginParse().skip(32).asCell())), {
    '@type': 'text_comment',
    comment: 'x',
    type: 'text_comment',
  });
  const cipher = beginCell().storeBuffer(Buffer.alloc(40, 0x33)).endCell();
  const encrypted = beginCell().storeUint(0x2167da4b, 32).storeSlice(cipher.beginParse());
  assert.deepEqual(decode(encrypted), { '@type': 'encrypted_text_comment', cipher_text: { '': boc(cipher) } });
  const bounced = beginCell().storeUint(0xffffffff, 32).storeUint(0xd53276db, 32).storeUint(9, 64);
  assert.deepEqual(decode(bounced), { '@type': 'bounce', payload: { '@type': 'excess', query_id: '9' } });
  assert.deepEqual(decode(beginCell()), { '@type': 'empty_cell' });
  // Bits that are no whole bytes: not a comment by tonlib's rule, a padded snake string by toncenter's.
  assert.deepEqual(decode(beginCell().storeUint(0, 32).storeUint(0x5, 4)), { '@type': 'text_comment', comment: 'P', type: 'text_comment' });
  assert.equal(decode(beginCell().storeUint(0, 32).storeUint(0xff, 8).storeUint(1, 4)), null, 'neither a tonlib comment nor UTF-8');
});

test('wallet requests: v5 (@ton/ton), v4 and v3 signed externals with their messages, each body decoded inside', () => {
  const long = 'x'.repeat(120); // too long to sit in the message cell: the body goes to a reference
  const payload = beginCell().storeUint(0xd53276db, 32).storeUint(1, 64).endCell();
  const messages = [internal({ to: A, value: toNano('1'), bounce: false, body: long }), internal({ to: B, value: 5n, body: payload })];
  const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: KEY });
  const body5 = v5.createTransfer({
    seqno: 3,
    secretKey: Buffer.alloc(64, 1),
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages,
    timeout: 1000,
  });
  const j5 = decodeMessageBody(body5) as any;
  assert.equal(j5['@type'], 'w5_external_signed_request');
  assert.equal(j5.request.msg_seqno, '3');
  assert.equal(j5.request.valid_until, '1000');
  assert.equal(j5.request.signature.length, 128);
  const list = j5.request.inner.out_actions.value.cell_reference;
  assert.equal(list['@type'], 'out_list');
  assert.equal(list.prev['@type'], 'out_list');
  assert.deepEqual(list.prev.prev, { '@type': 'out_list_empty' });
  const first = list.prev.action; // the list is written last-first: the first message is deepest
  assert.equal(first['@type'], 'action_send_msg');
  assert.equal(first.mode, '3');
  assert.deepEqual(first.out_msg.info.dest, std(A));
  assert.equal(first.out_msg.info.bounce, false);
  assert.deepEqual(first.out_msg.info.value, {
    '@type': 'currencies',
    grams: { '@type': 'nanograms', amount: vu(1000000000n) },
    other: { '@type': 'extra_currencies', dict: { '@type': 'hashmap_empty' } },
  });
  assert.deepEqual(first.out_msg.body, {
    '@type': 'second_from_either',
    value: { cell_reference: { '@type': 'text_comment', text: long } },
  });
  assert.deepEqual(list.action.out_msg.body, { '@type': 'first_from_either', value: { '@type': 'excess', query_id: '1' } });

  // Extended actions (v5's own list, in the body cell and its references) next to out actions.
  const request = v5.createRequest({
    seqno: 6,
    secretKey: Buffer.alloc(64, 1),
    timeout: 1000,
    authType: 'external',
    actions: [
      { type: 'addExtension', address: A },
      { type: 'setIsPublicKeyEnabled', isEnabled: false },
      { type: 'sendMsg', mode: SendMode.PAY_GAS_SEPARATELY, outMsg: internal({ to: B, value: 1n }) },
    ] as Parameters<typeof v5.createRequest>[0]['actions'],
  });
  const inner = (decodeMessageBody(request) as any).request.inner;
  assert.equal(inner.out_actions.value.cell_reference.action['@type'], 'action_send_msg');
  assert.deepEqual(inner.extended_actions, {
    '@type': 'something_from_maybe',
    value: {
      '@type': 'extended_list_action',
      action: { '@type': 'add_extension', addr: std(A) },
      prev: { '@type': 'extended_list_last', action: { '@type': 'set_signature_auth_allowed', allowed: false } },
    },
  });

  const v4 = WalletContractV4.create({ workchain: 0, publicKey: KEY });
  const j4 = decodeMessageBody(v4.createTransfer({ seqno: 4, secretKey: Buffer.alloc(64, 1), messages, timeout: 1000 })) as any;
  assert.equal(j4['@type'], 'wallet_signed_v4');
  assert.equal(j4.subwallet_id, '698983191');
  assert.equal(j4.op['@type'], 'simple_send');
  assert.equal(j4.op.msgs['@type'], 'msgs_2');
  assert.deepEqual(j4.op.msgs.msg_2.msg.info.dest, std(B));

  const v3 = WalletContractV3R2.create({ workchain: 0, publicKey: KEY });
  const j3 = decodeMessageBody(
    v3.createTransfer({
      seqno: 5,
      secretKey: Buffer.alloc(64, 1),
      messages: [messages[0]],
      timeout: 1000,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    }),
  ) as any;
  assert.equal(j3['@type'], 'wallet_signed_v3');
  assert.equal(j3.msgs['@type'], 'msgs_1');
  assert.equal(j3.msgs.msg_1.mode, '3');
});

test('garbage, truncated and hostile bodies decode to null (never a throw), within bounded work', () => {
  const transfer = beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(42, 64)
    .storeCoins(1000n)
    .storeAddress(A)
    .storeAddress(B)
    .storeMaybeRef(null)
    .storeCoins(1n)
    .storeBit(0)
    .endCell();
  for (let cut = 32; cut < transfer.bits.length - 1; cut += 7) {
    const truncated = beginCell().storeBits(transfer.beginParse().loadBits(cut)).endCell();
    assert.equal(decodeMessageBody(truncated), null, `cut at ${cut} bits`);
  }
  assert.equal(decode(beginCell().storeUint(0x12345678, 32)), null, 'an unknown opcode');
  assert.equal(decode(beginCell().storeUint(0xd532, 16)), null, 'shorter than an opcode');
  for (let seed = 1; seed < 200; seed++) {
    const bytes = Buffer.from(Buffer.alloc(100, seed).map((x, i) => (x * 31 + i * seed) & 0xff));
    const json = decodeMessageBody(beginCell().storeBuffer(bytes).endCell());
    assert.ok(json === null || typeof json['@type'] === 'string');
  }
  // A DAG that would be 4^40 cells as a tree: references shared at every level.
  let dag = beginCell().storeUint(0xffffffff, 32).endCell();
  for (let i = 0; i < 40; i++)
    dag = beginCell().storeUint(0xffffffff, 32).storeRef(dag).storeRef(dag).storeRef(dag).storeRef(dag).endCell();
  const json = decodeMessageBody(dag) as any;
  assert.equal(json['@type'], 'bounce', 'the DAG is decoded level by level, not walked as a tree');
  // Bounces nested 25 deep: decoded 11 levels down, then a BoC.
  let nestedBounce = beginCell().storeUint(0xd53276db, 32).storeUint(1, 64).endCell();
  for (let i = 0; i < 25; i++) nestedBounce = beginCell().storeUint(0xffffffff, 32).storeSlice(nestedBounce.beginParse()).endCell();
  let level: any = decodeMessageBody(nestedBounce);
  let depth = 0;
  while (typeof level === 'object' && level['@type'] === 'bounce') {
    level = level.payload;
    depth++;
  }
  assert.equal(depth, 12, 'the body and 11 nested levels');
  assert.ok(typeof level === 'string' && level.startsWith('te6cc'));
});

test('a v5 request with 255 messages decodes; the same request repeating a 600-cell body 255 times is over the work limit: null', () => {
  const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: KEY });
  const send = (body: Cell) =>
    decodeMessageBody(
      v5.createTransfer({
        seqno: 1,
        secretKey: Buffer.alloc(64, 1),
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        timeout: 1000,
        messages: Array.from({ length: 255 }, () => internal({ to: A, value: 1n, body })),
      }),
    ) as any;
  let list = send(comment('one of many')).request.inner.out_actions.value.cell_reference;
  let depth = 0;
  for (; list['@type'] === 'out_list'; list = list.prev) {
    assert.deepEqual(list.action.out_msg.body.value, { '@type': 'text_comment', text: 'one of many' });
    depth++;
  }
  assert.equal(depth, 255);
  let big = beginCell().storeUint(1, 8).endCell();
  for (let i = 0; i < 600; i++) big = beginCell().storeUint(i, 16).storeRef(big).endCell();
  const heavy = beginCell().storeUint(0x12345678, 32).storeRef(big).endCell(); // decodes to nothing: written as a BoC each time
  assert.equal(send(heavy), null);
});

test("bits are written as TON writes bit strings (@ton/core's BitString text), at every offset and length", () => {
  const cell = beginCell().storeBuffer(Buffer.from('9b3c51e07fa4d2c886015aee3390f1b7c2d4e6f8091a2b3c4d5e6f708192a3b4', 'hex')).endCell();
  for (const offset of [0, 1, 3, 4, 7, 8, 13]) {
    for (const length of [0, 1, 3, 4, 5, 8, 12, 63, 64, 100, 200, 240]) {
      const expected = cell.beginParse().skip(offset).loadBits(length).toString();
      assert.equal(loadHex(cell.beginParse().skip(offset), length), expected, `${length} bits at +${offset}`);
    }
  }
});

test('the remaining schemes of the table, one body each', () => {
  const q = (op: number) => beginCell().storeUint(op, 32).storeUint(5, 64);
  const queryOnly: [number, string][] = [
    [0xd372158c, 'top_up'],
    [0x7b4b42e6, 'approve'],
    [0xe8a0abfe, 'disapprove'],
    [0xf374484c, 'elector_new_stake_confirmation'],
    [0x47657424, 'elector_recover_stake_request'],
    [0xf96f7324, 'elector_recover_stake_response'],
    [0x1f04537a, 'sbt_destroy'],
    [0x6f89f5e3, 'sbt_revoke'],
    [0x4ed14b65, 'dns_balance_release'],
    [0x44beae41, 'process_governance_decision'],
    [0x370fec51, 'auction_fill_up'],
    [0x557cea20, 'outbid_notification'],
    [0x6e6f7465, 'wallet_plugin_installation_notification'],
    [0x64737472, 'wallet_plugin_destruct'],
    [0xe4737472, 'wallet_plugin_destruct_response'],
    [0xf06c7567, 'payment_confirmed'],
    [0x82609bf6, 'multisig_approve_accepted'],
  ];
  for (const [op, name] of queryOnly) assert.deepEqual(decode(q(op)), { '@type': name, query_id: '5' }, name);
  assert.deepEqual(decode(q(0x1690c604).storeCoins(9n)), {
    '@type': 'credit',
    query_id: '5',
    amount: { '@type': 'nanocoins', amount: vu(9n) },
  });
  assert.deepEqual(decode(q(0xeed236d3).storeUint(1, 4)), { '@type': 'jetton_set_status', query_id: '5', status: '1' });
  assert.deepEqual(decode(q(0xafaf283e).storeUint(70, 32)), { '@type': 'multisig_approve_rejected', query_id: '5', exit_code: '70' });
  assert.deepEqual(decode(q(0x706c7567).storeCoins(3n).storeBit(0)), {
    '@type': 'payment_request',
    query_id: '5',
    amount: {
      '@type': 'currencies',
      grams: { '@type': 'nanograms', amount: vu(3n) },
      other: { '@type': 'extra_currencies', dict: { '@type': 'hashmap_empty' } },
    },
  });
  assert.equal(
    decode(q(0x706c7567).storeCoins(3n).storeBit(1).storeRef(beginCell().storeUint(1, 40))),
    null,
    'extra currencies: a dictionary',
  );
  const signature = beginCell().storeBuffer(Buffer.alloc(64, 0x5c)).endCell();
  assert.deepEqual(decode(q(0x4e73744b).storeBuffer(KEY).storeUint(100, 32).storeUint(65536, 32).storeBuffer(KEY).storeRef(signature)), {
    '@type': 'elector_new_stake',
    query_id: '5',
    validator_pubkey: '07'.repeat(32),
    stake_at: '100',
    max_factor: '65536',
    adnl_addr: '07'.repeat(32),
    signature: '5C'.repeat(64),
  });
  const content = beginCell().storeUint(1, 8).endCell();
  assert.deepEqual(decode(q(0x0524c7ae).storeUint(3, 256).storeAddress(A).storeRef(content).storeUint(0, 64).storeMaybeRef(content)), {
    '@type': 'ownership_proof',
    query_id: '5',
    item_id: '3',
    owner: std(A),
    data: boc(content),
    revoked_at: '0',
    content: { '@type': 'something_from_maybe', value: boc(content) },
  });
  assert.deepEqual(decode(q(0xd0c3bfea).storeAddress(B).storeRef(content).storeBit(0)), {
    '@type': 'sbt_request_owner',
    query_id: '5',
    dest: std(B),
    forward_payload: boc(content),
    with_content: false,
  });
  assert.deepEqual(
    decode(q(0x0dd607e3).storeUint(3, 256).storeAddress(A).storeAddress(B).storeRef(content).storeUint(1, 64).storeMaybeRef(null)),
    {
      '@type': 'sbt_owner_info',
      query_id: '5',
      item_id: '3',
      initiator: std(A),
      owner: std(B),
      data: boc(content),
      revoked_at: '1',
      content: nothing,
    },
  );
  // highload v3: an internal request with its action list, and the signed external that carries it.
  const action = beginCell()
    .storeUint(0x0ec3c86d, 32)
    .storeUint(1, 8)
    .storeRef(
      beginCell()
        .store(storeMessageRelaxed(internal({ to: A, value: 2n })))
        .endCell(),
    );
  const actions = beginCell().storeRef(beginCell().endCell()).storeBuilder(action).endCell();
  const hlInternal = beginCell().storeUint(0xae42e5a4, 32).storeUint(8, 64).storeRef(actions).endCell();
  const hl = decodeMessageBody(hlInternal) as any;
  assert.equal(hl['@type'], 'highload_v3_internal_request');
  assert.equal(hl.actions['@type'], 'out_list');
  assert.deepEqual(hl.actions.prev, { '@type': 'out_list_empty' });
  assert.equal(hl.actions.action.out_msg.info.value.grams.amount.value, '2');
  const msg = beginCell()
    .store(storeMessageRelaxed(internal({ to: B, value: 1n })))
    .endCell();
  const hlInner = beginCell()
    .storeUint(1, 32)
    .storeRef(msg)
    .storeUint(3, 8)
    .storeUint(1, 13)
    .storeUint(2, 10)
    .storeUint(1000, 64)
    .storeUint(60, 22)
    .endCell();
  const signed = decodeMessageBody(beginCell().storeBuffer(Buffer.alloc(64, 1)).storeRef(hlInner).endCell()) as any;
  assert.equal(signed['@type'], 'highload_wallet_signed_v3');
  assert.equal(signed.signature, '01'.repeat(64));
  const { message_to_send: sent, ...rest } = signed.msg_inner;
  assert.deepEqual(rest, {
    subwallet_id: '1',
    send_mode: '3',
    query_id: { shift: '1', bit_number: '2' },
    created_at: '1000',
    timeout: '60',
  });
  assert.deepEqual(
    [sent['@type'], sent.info.dest, sent.body],
    ['message', std(B), { '@type': 'first_from_either', value: { '@type': 'empty_cell' } }],
  );
  // wallet v1/v2: signature, seqno, valid_until, one message per reference.
  const v2 = decodeMessageBody(
    beginCell().storeBuffer(Buffer.alloc(64, 2)).storeUint(4, 32).storeUint(99, 32).storeUint(3, 8).storeRef(msg).endCell(),
  ) as any;
  assert.equal(v2['@type'], 'wallet_signed_v1_v2');
  assert.equal(v2.msgs.msg_1.mode, '3');
  assert.deepEqual(v2.msgs.msg_1.msg.info.dest, std(B));
  // the v5 fallback: a request whose shape does not read is its name and the rest
  assert.deepEqual(decode(beginCell().storeUint(0x73696e74, 32).storeUint(1, 8)), {
    '@type': 'w5_internal_signed_request',
    rest: boc(beginCell().storeUint(1, 8).endCell()),
  });
});

test('every opcode the scheme table decodes has the same decoded_opcode name as its first scheme', () => {
  for (const [opcode, name] of SCHEME_NAMES) assert.equal(opcodeName(opcode), name, `0x${opcode.toString(16)}`);
});
