/**
 * A liteserver in the middle, of the tests' own: it speaks ADNL to the client with a key of its own (the client is
 * configured with `publicKey`), relays every query to the real liteserver, and may alter an answer before handing
 * it back (`tamper`). ADNL is encrypted end to end, so a plain TCP proxy can only garble bytes; altering an answer
 * (a proof with a bad signature) needs this: the server side of ADNL (adnl-server.ts) facing the client, adnl's
 * own client facing the real liteserver.
 */
import type { Socket } from 'node:net';
import { ADNLClientTCP } from 'adnl';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { Codecs } from 'ton-lite-client/dist/schema.js';
import { startAdnlServer } from './adnl-server.js';

export interface LiteMitm {
  port: number;
  publicKey: Buffer;
  /** Called with every decoded answer of the real server; returns the bytes to send instead (or undefined: as is). */
  tamper: ((answer: Buffer) => Buffer | undefined) | undefined;
  close(): Promise<void>;
}

export async function startLiteMitm(target: { host: string; port: number; publicKey: Buffer }): Promise<LiteMitm> {
  const upstreams = new Set<ADNLClientTCP>();
  const server = await startAdnlServer(({ send, socket }) => {
    const upstream = new ADNLClientTCP(`tcp://${target.host}:${target.port}`, target.publicKey);
    upstreams.add(upstream);
    const waiting: Buffer[] = [];
    let upReady = false;
    upstream.on('ready', () => {
      upReady = true;
      for (const w of waiting.splice(0)) upstream.write(w);
    });
    upstream.on('error', () => socket.destroy());
    upstream.on('close', () => socket.destroy());
    socket.on('close', () => (upstream as unknown as { socket: Socket }).socket.destroy());
    upstream.on('data', (payload: Buffer) => {
      let out = payload;
      const message = Codecs.adnl_Message.decode(new TLReadBuffer(payload));
      if (message.kind === 'adnl.message.answer' && mitm.tamper) {
        const altered = mitm.tamper(message.answer);
        if (altered) {
          const w = new TLWriteBuffer();
          Codecs.adnl_Message.encode({ kind: 'adnl.message.answer', queryId: message.queryId, answer: altered }, w);
          out = w.build();
        }
      }
      send(out);
    });
    void upstream.connect();
    return (payload) => {
      if (upReady) upstream.write(payload);
      else waiting.push(payload);
    };
  });
  const mitm: LiteMitm = {
    port: server.port,
    publicKey: server.publicKey,
    tamper: undefined,
    close: async () => {
      for (const u of upstreams) (u as unknown as { socket: Socket }).socket.destroy();
      await server.close();
    },
  };
  return mitm;
}
