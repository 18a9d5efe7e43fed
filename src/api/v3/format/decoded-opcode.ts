/**
 * `decoded_opcode` of a stored message document, filled as the message is read (toncenter marks the
 * messages it returns the same way), so documents indexed before names were known read the same. The
 * stored document writes `"opcode":"0x........","decoded_opcode":null` together, before any body text.
 */
import { opcodeName } from '../../../ton/opcode-names.js';

const UNNAMED = /"opcode":"0x([0-9a-f]{8})","decoded_opcode":null/;

export function withDecodedOpcode(doc: string): string {
  const found = UNNAMED.exec(doc);
  if (!found) return doc;
  const name = opcodeName(parseInt(found[1], 16));
  if (name === null) return doc;
  return `${doc.slice(0, found.index)}"opcode":"0x${found[1]}","decoded_opcode":${JSON.stringify(name)}${doc.slice(found.index + found[0].length)}`;
}
