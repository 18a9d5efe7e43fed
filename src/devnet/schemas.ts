/** JSON Schema pieces shared by the controls' OpenAPI descriptions. */
export const NANOTONS = { type: 'string', pattern: '^\\d+$', description: 'nanotons, as a decimal string' };
export const JETTON_UNITS = { type: 'string', pattern: '^\\d+$', description: 'jetton units (before decimals), as a decimal string' };
export const UTIME = { type: 'integer', minimum: 0, maximum: 4294967295, description: 'unix time, seconds' };
export const BOC = { type: 'string', format: 'byte', description: 'base64 bag of cells with one root' };
export const ADDRESS = { type: 'string', description: 'raw (0:…) or user-friendly address' };
export const HASH = { type: 'string', description: 'base64' };

export const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length > 0 ? { required } : {}),
});
