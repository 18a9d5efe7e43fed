/**
 * The server side of ADNL over TCP, of the tests' and benches' own (the `adnl` package has only the client side):
 * a liteserver's end of the handshake and the frames, written here from the protocol. What a connection's
 * payloads mean is the caller's (`onConnection`): a relay to a real liteserver (lite-mitm.ts), recorded answers
 * (bench/support/liteserver-tape.ts).
 *
 * Handshake: the client sends 256 bytes: the server's key id (32), its ephemeral ed25519 key (32), the SHA-256 of
 * 160 random bytes (32) and those bytes, AES-256-CTR encrypted with a key and nonce drawn from the x25519 shared
 * secret and that hash. The 160 bytes give each direction its AES-CTR key and nonce. Frames: length (LE, 4),
 * nonce (32), payload, SHA-256 of nonce and payload (32). The server confirms with an empty frame.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  randomBytes,
  type Cipher,
  type Decipher,
} from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { keyPairFromSeed } from '@ton/crypto';

const P = 2n ** 255n - 19n;

export interface AdnlServer {
  port: number;
  publicKey: Buffer;
  close(): Promise<void>;
}

/** One client's connection: `send` frames a payload to it; `socket` is there to end it. */
export interface AdnlPeer {
  send(payload: Buffer): void;
  socket: Socket;
}

/** Returns what to do with each payload the client sends (the empty keep-alive frames are not passed on). */
export type OnAdnlConnection = (peer: AdnlPeer) => (payload: Buffer) => void;

export async function startAdnlServer(onConnection: OnAdnlConnection): Promise<AdnlServer> {
  const seed = randomBytes(32);
  const publicKey = Buffer.from(keyPairFromSeed(seed).publicKey);
  const keyId = createHash('sha256')
    .update(Buffer.from([0xc6, 0xb4, 0x13, 0x48]))
    .update(publicKey)
    .digest();
  // x25519 private scalar of the ed25519 seed (the first half of SHA-512(seed); node clamps it).
  const x25519Private = createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b656e04220420', 'hex'),
      createHash('sha512').update(seed).digest().subarray(0, 32),
    ]),
    format: 'der',
    type: 'pkcs8',
  });
  const sockets = new Set<Socket>();
  // As a liteserver does (TON's sockets are TCP_NODELAY): the tail of an answer is not held back for an ACK.
  const server: Server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let rx: Decipher | undefined;
    let tx: Cipher | undefined;
    const send = (payload: Buffer) => {
      if (socket.destroyed) return;
      const nonce = randomBytes(32);
      const size = Buffer.alloc(4);
      size.writeUInt32LE(payload.length + 64);
      const frame = Buffer.concat([size, nonce, payload, createHash('sha256').update(nonce).update(payload).digest()]);
      socket.write(tx!.update(frame));
    };
    let onPayload: ((payload: Buffer) => void) | undefined;
    socket.on('data', (data: Buffer) => {
      if (!rx) {
        buffer = Buffer.concat([buffer, data]);
        if (buffer.length < 256) return;
        if (!buffer.subarray(0, 32).equals(keyId)) return void socket.destroy();
        const shared = diffieHellman({ privateKey: x25519Private, publicKey: x25519Public(buffer.subarray(32, 64)) });
        const hash = buffer.subarray(64, 96);
        const decipher = createDecipheriv(
          'aes-256-ctr',
          Buffer.concat([shared.subarray(0, 16), hash.subarray(16, 32)]),
          Buffer.concat([hash.subarray(0, 4), shared.subarray(20, 32)]),
        );
        const params = decipher.update(buffer.subarray(96, 256));
        if (!createHash('sha256').update(params).digest().equals(hash)) return void socket.destroy();
        // The client sends with (key 32..64, nonce 80..96) and receives with (key 0..32, nonce 64..80).
        rx = createDecipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96));
        tx = createCipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80));
        const rest = buffer.subarray(256);
        buffer = Buffer.alloc(0);
        send(Buffer.alloc(0));
        onPayload = onConnection({ send, socket });
        if (rest.length === 0) return;
        data = rest;
      }
      buffer = Buffer.concat([buffer, rx.update(data)]);
      while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32LE(0)) {
        const size = buffer.readUInt32LE(0);
        const payload = buffer.subarray(36, 4 + size - 32);
        buffer = buffer.subarray(4 + size);
        if (payload.length > 0) onPayload!(payload);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    publicKey,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An ed25519 public key as the x25519 key of the same secret: u = (1 + y) / (1 - y) mod p. */
function x25519Public(ed25519: Buffer) {
  const bytes = Buffer.from(ed25519);
  bytes[31] &= 0x7f;
  const y = BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
  const u = (((1n + y) % P) * modPow((1n - y + P) % P, P - 2n)) % P;
  const le = Buffer.from(u.toString(16).padStart(64, '0'), 'hex').reverse();
  return createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), le]), format: 'der', type: 'spki' });
}

function modPow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = base % P;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}
