import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, external, storeMessage, toNano } from '@ton/core';
import { withDecodedOpcode } from '../../src/api/v3/format/decoded-opcode.js';
import { v3Message } from '../../src/ton/message-json.js';
import { opcodeName } from '../../src/ton/opcode-names.js';

const TO = new Address(0, Buffer.alloc(32, 3));
const doc = (body: ReturnType<typeof beginCell>) => {
  const info = {
    type: 'internal' as const,
    src: TO,
    dest: TO,
    value: { coins: toNano('1') },
    bounce: false,
    bounced: false,
    ihrDisabled: true,
    ihrFee: 0n,
    forwardFee: 0n,
    createdLt: 1n,
    createdAt: 1,
  };
  return JSON.stringify(
    v3Message(
      beginCell()
        .store(storeMessage({ info, body: body.endCell() }))
        .endCell(),
    ),
  );
};

test("decoded_opcode: standard opcodes get toncenter's names, others stay null; a body too short for an opcode has none", () => {
  assert.equal(opcodeName(0x0f8a7ea5), 'jetton_transfer');
  assert.equal(opcodeName(0xffffffff), 'bounce');
  assert.equal(opcodeName(-1), 'bounce', 'a signed 32-bit opcode');
  assert.equal(opcodeName(0x12345678), null);
  const transfer = JSON.parse(withDecodedOpcode(doc(beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7, 64).storeCoins(5))));
  assert.equal(transfer.opcode, '0x0f8a7ea5');
  assert.equal(transfer.decoded_opcode, 'jetton_transfer');
  assert.equal(JSON.parse(withDecodedOpcode(doc(beginCell().storeUint(0, 32).storeStringTail('hi')))).decoded_opcode, 'text_comment');
  const unknown = doc(beginCell().storeUint(0x12345678, 32));
  assert.equal(withDecodedOpcode(unknown), unknown, 'an unknown opcode: the document as stored');
  assert.equal(JSON.parse(withDecodedOpcode(doc(beginCell().storeUint(1, 8)))).decoded_opcode, null);
  const ext = JSON.stringify(
    v3Message(
      beginCell()
        .store(storeMessage(external({ to: TO, body: beginCell().storeUint(0x7369676e, 32).endCell() })))
        .endCell(),
    ),
  );
  assert.equal(JSON.parse(withDecodedOpcode(ext)).decoded_opcode, 'w5_external_signed_request');
});
