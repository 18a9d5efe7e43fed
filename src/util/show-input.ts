/**
 * The one renderer of a client's value into an error message (the TON codecs, v2 and v3 parameters, the admin
 * API). A leaf helper: it imports nothing, so every layer, `ton/` included, may use it.
 */

/** Longest excerpt of a bad input echoed back in a message: enough to recognise it, never a whole BoC. */
const MAX_SHOWN = 100;

/**
 * A printable, bounded excerpt of whatever the client sent: a string as it is, anything else as JSON.
 * This is the one place that renders a client's value into a message, so it must be safe on any JSON a
 * body may hold: it walks the value with an explicit stack (never recursing, so 10,000 levels of nesting
 * cannot overflow the call stack) and stops as soon as it has written `max` characters (so a 100,000-entry
 * array costs as much as a short one).
 */
export function showInput(input: unknown, max = MAX_SHOWN): string {
  const text = typeof input === 'string' ? input.slice(0, max + 1) : describeJson(input, max);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** An open array or object whose remaining members are still to be written. */
interface OpenValue {
  members: unknown[];
  /** Object keys, parallel to `members`; undefined for an array. */
  keys?: string[];
  next: number;
}

/** JSON text of `value` (strings quoted), cut once it passes `max` characters; the caller adds the ellipsis. */
export function describeJson(value: unknown, max = MAX_SHOWN): string {
  let out = '';
  const open: OpenValue[] = [];
  const begin = (v: unknown): void => {
    if (Array.isArray(v)) {
      out += '[';
      open.push({ members: v, next: 0 });
    } else if (typeof v === 'object' && v !== null && !Buffer.isBuffer(v)) {
      out += '{';
      const keys: string[] = [];
      // Only as many keys as could still be shown: a huge object costs no more than a small one.
      for (const key in v) {
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
        keys.push(key);
        if (keys.length > max) break;
      }
      open.push({ members: keys.map((key) => (v as Record<string, unknown>)[key]), keys, next: 0 });
    } else {
      out += scalar(v, max);
    }
  };
  begin(value);
  while (open.length > 0 && out.length <= max) {
    const top = open[open.length - 1];
    if (top.next >= top.members.length) {
      out += top.keys ? '}' : ']';
      open.pop();
      continue;
    }
    if (top.next > 0) out += ',';
    if (top.keys) out += `${JSON.stringify(top.keys[top.next].slice(0, max))}:`;
    begin(top.members[top.next++]);
  }
  return out;
}

function scalar(v: unknown, max: number): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v.slice(0, max + 1));
    case 'number':
    case 'boolean':
      return String(v);
    case 'bigint':
      return v.toString();
    case 'undefined':
      return 'undefined';
    case 'object':
      return v === null ? 'null' : `<${(v as Buffer).length} bytes>`;
    default:
      return `<${typeof v}>`;
  }
}
