/**
 * A short, bounded description of a client-supplied value for error messages: never recursive (values nested
 * thousands deep would overflow the stack of JSON.stringify or String) and never long (a megabyte echoed back
 * helps nobody). Strings are quoted and cut at `max` characters.
 */
export function describeValue(value: unknown, max = 80): string {
  switch (typeof value) {
    case 'string':
      return value.length > max ? `${JSON.stringify(value.slice(0, max))}…` : JSON.stringify(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'nothing';
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
      return typeof value === 'object' ? 'an object' : typeof value;
  }
}
