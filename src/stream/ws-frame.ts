/**
 * A notification shared by many clients, encoded once and framed once: its UTF-8 bytes laid out as a server's
 * WebSocket text frame (RFC 6455 5.2: a server's frames are not masked, so the frame is a header and the payload,
 * the same bytes for every client). A WebSocket client whose connection takes raw frames gets `frame` written to
 * its socket as it is (ws.ts); any other (SSE, a compressed WebSocket) gets `bytes`, the payload, a view of the same
 * memory. Made while the block is open (confirmed-ahead.ts), so the seal's turn neither encodes nor frames it.
 */
export class FramedText {
  /** The whole frame: header, then `bytes`. */
  readonly frame: Buffer;
  /** The notification's UTF-8 bytes (the frame's payload, not a copy). */
  readonly bytes: Buffer;

  constructor(text: string) {
    const length = Buffer.byteLength(text);
    const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
    this.frame = Buffer.allocUnsafe(header + length);
    // FIN, opcode 1 (text); no RSV bit: the payload is not compressed.
    this.frame[0] = 0x81;
    if (header === 2) this.frame[1] = length;
    else if (header === 4) {
      this.frame[1] = 126;
      this.frame.writeUInt16BE(length, 2);
    } else {
      this.frame[1] = 127;
      this.frame.writeBigUInt64BE(BigInt(length), 2);
    }
    this.frame.write(text, header, 'utf8');
    this.bytes = this.frame.subarray(header);
  }
}
