/**
 * `message_content.decoded` of a stored message document indexed before bodies were decoded
 * (src/ton/decoded): such a document says `"decoded":null` for every body but comments. When the
 * message's opcode has a name (a body toncenter decodes), the body is decoded as it is read, so data
 * directories indexed earlier read like new ones. Documents indexed since carry their decoding (null
 * only for bodies that do not read, which are tried again here, at the same small cost).
 */
import { Cell } from '@ton/core';
import { decodeMessageBody } from '../../../ton/decoded/decode.js';

const UNDECODED = /"message_content":\{"hash":"[^"]*","body":"([^"]*)","decoded":null\}/;

export function withDecodedBody(doc: string): string {
  // Only messages whose opcode is named (decoded_opcode filled first): others stay as stored.
  if (doc.includes('"decoded_opcode":null') || !doc.includes('"decoded":null}')) return doc;
  const found = UNDECODED.exec(doc);
  if (!found) return doc;
  let decoded;
  try {
    decoded = decodeMessageBody(Cell.fromBase64(found[1]));
  } catch {
    return doc; // a stored body is a BoC the index wrote; should one not read, the document stays as it is
  }
  if (decoded === null) return doc;
  const at = found.index + found[0].length - '"decoded":null}'.length;
  return `${doc.slice(0, at)}"decoded":${JSON.stringify(decoded)}}${doc.slice(found.index + found[0].length)}`;
}
