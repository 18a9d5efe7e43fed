/**
 * LayerZero v2 on TON (ton-indexer's `blocks/layerzero.py`, cells of `messages/layerzero.py`, read in
 * layerzero-bodies.ts). Recognised by opcodes alone, as toncenter does (it keeps no list of LayerZero's contracts):
 *
 *   layerzero_send           an OApp's ENDPOINT_SEND to its endpoint, the endpoint's CHANNEL_SEND, the channel's
 *                            MSGLIB_CONNECTION_SEND, the ULN_SEND, the MSGLIB_SEND_CALLBACK back to the channel
 *                            with its event, and the CHANNEL_SEND_CALLBACK to the OApp (the lzSend read from it)
 *   layerzero_send_tokens    a `layerzero_send` right after a jetton transfer to the OApp that also emitted an event
 *                            (an OFT's transfer out): the transfer's ends, the send's data
 *   layerzero_receive        the executor's LZ_RECEIVE_PREPARE to the channel, the channel's to the OApp, the OApp's
 *                            LZ_RECEIVE_LOCK, the channel's LZ_RECEIVE_EXECUTE (the packet read from it) and the
 *                            OApp's execute callback
 *   layerzero_commit_packet  ULN_COMMIT_PACKET, the ULN connection's, the endpoint's, the channel's
 *                            CHANNEL_COMMIT_PACKET (the packet) and its callback to the msglib connection
 *   layerzero_dvn_verify     a DVN's VERIFY, its proxy's CALL_CONTRACT, ULN_VERIFY, ULN_CONNECTION_VERIFY and the
 *                            connection's verify callback (nonce and status)
 *
 * Kept as toncenter decides it: never failed (a refused verification is a `status`, not a failure); events and
 * the small TON transfers (excesses) in the places its matchers name are folded in. Its slips too: a receive is
 * only recognised when the execute message's receiver, as hex, is the packet's `dst_oapp` (so not for an OApp
 * whose address starts with a zero digit, as `dst_oapp` has no leading zeros); a commit's `uln` is the ULN
 * connection; a receive's packet is read from LZ_RECEIVE_EXECUTE, the first of the two steps it labels alike.
 */
import { findCallContract, folded, type Block, type CallContractBlock } from './blocks.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, type Matcher } from './matcher.js';
import { LZ_OP, nestedPacket, sendCallbackLzSend, verificationStatus, type LzPacket } from './layerzero-bodies.js';
import { str, type ActionParts, type Json } from './details-common.js';

export interface LzSendData {
  initiator: string | null;
  packet: LzPacket;
  sendRequestId: bigint;
  msglibManager: string;
  msglib: string;
  nativeFee: bigint;
  zroFee: bigint;
  endpoint: string | null;
  channel: string | null;
  uln: string | null;
}

export interface LzSendTokensData {
  transfer: JettonTransferData;
  send: LzSendData;
}

export interface LzReceiveData {
  sender: string | null;
  channel: string | null;
  oapp: string | null;
  packet: LzPacket;
}

export interface LzCommitPacketData {
  sender: string | null;
  uln: string | null;
  ulnConnection: string | null;
  endpoint: string | null;
  channel: string | null;
  msglibConnection: string | null;
  packet: LzPacket;
}

export interface LzDvnVerifyData {
  sender: string | null;
  nonce: bigint;
  status: string;
  dvn: string | null;
  proxy: string | null;
  uln: string | null;
  ulnConnection: string | null;
}

const event = (optional = false): Matcher => new ContractMatcher(LZ_OP.event, { optional });
const tonTransfer = (): Matcher => new BlockTypeMatcher('ton_transfer', { optional: true });

/** The step after `from` among the matched blocks, by its opcode. */
function stepAfter(from: Block | undefined, opcode: number, others: Block[]): CallContractBlock | undefined {
  return (
    from &&
    findCallContract(
      from.nextBlocks.filter((b) => others.includes(b)),
      opcode,
    )
  );
}

class LzSendMatcher extends ContractMatcher {
  constructor() {
    const oappCallback = new ContractMatcher(LZ_OP.channelSendCallback, { children: [event(true), tonTransfer()] });
    const sendCallback = new ContractMatcher(LZ_OP.msglibSendCallback, {
      children: [event(), tonTransfer(), tonTransfer(), tonTransfer(), tonTransfer(), tonTransfer(), oappCallback],
    });
    const ulnSend = new ContractMatcher(LZ_OP.ulnSend, { child: sendCallback });
    const msglibSend = new ContractMatcher(LZ_OP.msglibConnectionSend, { child: ulnSend });
    super(LZ_OP.endpointSend, { child: new ContractMatcher(LZ_OP.channelSend, { child: msglibSend }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const channelSend = stepAfter(block, LZ_OP.channelSend, others);
    const msglibSend = stepAfter(channelSend, LZ_OP.msglibConnectionSend, others);
    const ulnSend = stepAfter(msglibSend, LZ_OP.ulnSend, others);
    const sendCallback = stepAfter(ulnSend, LZ_OP.msglibSendCallback, others);
    const oappCallback = stepAfter(sendCallback, LZ_OP.channelSendCallback, others);
    if (!channelSend || !ulnSend || !oappCallback) return [];
    const lzSend = sendCallbackLzSend(oappCallback.message.body());
    const data: LzSendData = {
      initiator: block.message.source,
      packet: lzSend.packet,
      sendRequestId: lzSend.sendRequestId,
      msglibManager: lzSend.msglibManager,
      msglib: lzSend.msglib,
      nativeFee: lzSend.nativeFee,
      zroFee: lzSend.zroFee,
      endpoint: block.message.destination,
      channel: channelSend.message.destination,
      uln: ulnSend.message.destination,
    };
    return folded('layerzero_send', data, [block, ...others], false);
  }
}

class LzSendTokensMatcher extends BlockTypeMatcher {
  constructor() {
    super('layerzero_send', { parent: new BlockTypeMatcher('jetton_transfer', { child: event() }) });
  }

  override build(block: Block, others: Block[]): Block[] {
    const transfer = others.find((b) => b.type === 'jetton_transfer');
    if (!transfer) return [];
    const data: LzSendTokensData = { transfer: transfer.data as JettonTransferData, send: block.data as LzSendData };
    return folded('layerzero_send_tokens', data, [block, ...others], false);
  }
}

/** toncenter compares the execute message's receiver (raw, after "0:") with `dst_oapp` (after "0x"), case aside. */
const sameOapp = (destination: string | null, dstOapp: string): boolean =>
  destination !== null && destination.slice(2).toLowerCase() === dstOapp.slice(2).toLowerCase();

class LzReceiveMatcher extends ContractMatcher {
  constructor() {
    const callback = new ContractMatcher(LZ_OP.lzReceiveExecuteCallback, { children: [event(true), tonTransfer()] });
    const execute = new ContractMatcher(LZ_OP.lzReceiveExecute, { children: [event(true), callback] });
    const lock = new ContractMatcher(LZ_OP.lzReceiveLock, { child: execute });
    const prepare = new ContractMatcher(LZ_OP.lzReceivePrepare, { child: lock });
    super(LZ_OP.channelLzReceivePrepare, { children: [tonTransfer(), prepare] });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const prepare = stepAfter(block, LZ_OP.lzReceivePrepare, others);
    const lock = stepAfter(prepare, LZ_OP.lzReceiveLock, others);
    const execute = stepAfter(lock, LZ_OP.lzReceiveExecute, others);
    if (!execute) return [];
    const packet = nestedPacket(execute.message.body());
    if (!sameOapp(execute.message.destination, packet.dstOapp)) return [];
    const data: LzReceiveData = {
      sender: block.message.source,
      channel: execute.message.source,
      oapp: execute.message.destination,
      packet,
    };
    return folded('layerzero_receive', data, [block, ...others], false);
  }
}

class LzCommitPacketMatcher extends ContractMatcher {
  constructor() {
    const callback = new ContractMatcher(LZ_OP.msglibConnectionCommitPacketCallback, { optional: true, child: tonTransfer() });
    const channelCommit = new ContractMatcher(LZ_OP.channelCommitPacket, { children: [event(true), callback] });
    const endpointCommit = new ContractMatcher(LZ_OP.endpointCommitPacket, { child: channelCommit });
    super(LZ_OP.ulnCommitPacket, { child: new ContractMatcher(LZ_OP.ulnConnectionCommitPacket, { child: endpointCommit }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const connectionCommit = stepAfter(block, LZ_OP.ulnConnectionCommitPacket, others);
    const endpointCommit = stepAfter(connectionCommit, LZ_OP.endpointCommitPacket, others);
    const channelCommit = stepAfter(endpointCommit, LZ_OP.channelCommitPacket, others);
    const callback = stepAfter(channelCommit, LZ_OP.msglibConnectionCommitPacketCallback, others);
    if (!connectionCommit || !endpointCommit || !channelCommit || !callback) return [];
    const data: LzCommitPacketData = {
      sender: block.message.source,
      uln: connectionCommit.message.destination,
      ulnConnection: connectionCommit.message.destination,
      endpoint: endpointCommit.message.destination,
      channel: channelCommit.message.destination,
      msglibConnection: callback.message.destination,
      packet: nestedPacket(channelCommit.message.body()),
    };
    return folded('layerzero_commit_packet', data, [block, ...others], false);
  }
}

class LzDvnVerifyMatcher extends ContractMatcher {
  constructor() {
    const callback = new ContractMatcher(LZ_OP.ulnConnectionVerifyCallback, { optional: true, child: tonTransfer() });
    const connectionVerify = new ContractMatcher(LZ_OP.ulnConnectionVerify, { children: [event(true), callback] });
    const ulnVerify = new ContractMatcher(LZ_OP.ulnVerify, { child: connectionVerify });
    super(LZ_OP.dvnVerify, { child: new ContractMatcher(LZ_OP.proxyCallContract, { child: ulnVerify }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const proxyCall = stepAfter(block, LZ_OP.proxyCallContract, others);
    const ulnVerify = stepAfter(proxyCall, LZ_OP.ulnVerify, others);
    const connectionVerify = stepAfter(ulnVerify, LZ_OP.ulnConnectionVerify, others);
    const callback = stepAfter(connectionVerify, LZ_OP.ulnConnectionVerifyCallback, others);
    if (!proxyCall || !ulnVerify || !connectionVerify || !callback) return [];
    const { nonce, status } = verificationStatus(callback.message.body());
    const data: LzDvnVerifyData = {
      sender: block.message.source,
      nonce,
      status,
      dvn: block.message.destination,
      proxy: proxyCall.message.destination,
      uln: ulnVerify.message.destination,
      ulnConnection: connectionVerify.message.destination,
    };
    return folded('layerzero_dvn_verify', data, [block, ...others], false);
  }
}

/** In toncenter's order (after swap.coffee's staking). */
export const layerZeroMatchers = (): Matcher[] => [
  new LzSendMatcher(),
  new LzSendTokensMatcher(),
  new LzReceiveMatcher(),
  new LzCommitPacketMatcher(),
  new LzDvnVerifyMatcher(),
];

/**
 * LayerZero's nested parts (ton-index-go's ActionDetailsLayerZeroSendDetails and ActionDetailsLayerZeroPacket):
 * numbers as JSON numbers (Go's uint64/int32/int64 fields), the 256-bit ones as the hex strings toncenter stores.
 */
const lzPacket = (p: LzPacket): Json => ({
  src_oapp: p.srcOapp,
  dst_oapp: p.dstOapp,
  src_eid: p.srcEid,
  dst_eid: p.dstEid,
  nonce: Number(p.nonce),
  guid: p.guid,
  message: p.message,
});

const lzSendData = (d: LzSendData): Json => ({
  send_request_id: Number(d.sendRequestId),
  msglib_manager: d.msglibManager,
  msglib: d.msglib,
  uln: d.uln,
  native_fee: Number(d.nativeFee),
  zro_fee: Number(d.zroFee),
  endpoint: d.endpoint,
  channel: d.channel,
});

export function layerZeroParts(block: Block): ActionParts {
  switch (block.type) {
    case 'layerzero_send': {
      const d = block.data as LzSendData;
      return {
        details: { initiator: d.initiator, layerzero_send_data: lzSendData(d), layerzero_packet_data: lzPacket(d.packet) },
        ends: [d.initiator, null, null, null],
      };
    }
    case 'layerzero_send_tokens': {
      const { transfer: t, send } = block.data as LzSendTokensData;
      return {
        details: {
          sender: t.sender,
          sender_wallet: t.senderWallet,
          oapp: t.receiver,
          oapp_wallet: t.receiverWallet,
          asset: t.asset,
          amount: str(t.amount),
          layerzero_send_data: lzSendData(send),
          layerzero_packet_data: lzPacket(send.packet),
        },
        ends: [t.sender, t.senderWallet, t.receiver, t.receiverWallet],
      };
    }
    case 'layerzero_receive': {
      const d = block.data as LzReceiveData;
      return {
        details: { sender: d.sender, oapp: d.oapp, channel: d.channel, layerzero_packet_data: lzPacket(d.packet) },
        ends: [d.sender, null, d.oapp, d.channel],
      };
    }
    case 'layerzero_commit_packet': {
      const d = block.data as LzCommitPacketData;
      return {
        details: {
          sender: d.sender,
          endpoint: d.endpoint,
          uln: d.uln,
          uln_connection: d.ulnConnection,
          channel: d.channel,
          msglib_connection: d.msglibConnection,
          layerzero_packet_data: lzPacket(d.packet),
        },
        // The channel and the msglib connection are toncenter's asset columns: no accounts of the action.
        ends: [d.sender, d.endpoint, d.uln, d.ulnConnection],
      };
    }
    default: {
      const d = block.data as LzDvnVerifyData;
      return {
        details: {
          initiator: d.sender,
          nonce: Number(d.nonce),
          status: d.status,
          dvn: d.dvn,
          proxy: d.proxy,
          uln: d.uln,
          uln_connection: d.ulnConnection,
        },
        ends: [d.sender, null, null, null],
      };
    }
  }
}
