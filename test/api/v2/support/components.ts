/**
 * Validates a value against one component schema of toncenter's published v2 spec (the docs file in
 * test/reference) or of its C++ server's own spec (test/api/v2/reference, for what the docs file lacks:
 * dnsResolve, getShardAccountCell). Path-level envelopes are checked with test/support/openapi.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;
const testDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

type Which = 'docs' | 'cpp';
const FILES: Record<Which, string> = {
  docs: join(testDir, 'reference', 'toncenter-v2-openapi.json'),
  cpp: join(testDir, 'api', 'v2', 'reference', 'toncenter-v2-cpp-openapi.yaml'),
};

const validators = new Map<Which, any>();
const compiled = new Map<string, any>();

function rewriteRefs(node: any, id: string): any {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, id));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${id}${v}` : rewriteRefs(v, id),
      ]),
    );
  }
  return node;
}

function ajvFor(which: Which): any {
  let ajv = validators.get(which);
  if (!ajv) {
    const text = readFileSync(FILES[which], 'utf8');
    const spec = which === 'docs' ? JSON.parse(text) : parse(text);
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: rewriteRefs(spec.components, which) }, which);
    validators.set(which, ajv);
  }
  return ajv;
}

/** The component schema itself (to build a corrected copy where the spec is known to be wrong). */
export function componentSchema(which: Which, name: string): any {
  const text = readFileSync(FILES[which], 'utf8');
  const spec = which === 'docs' ? JSON.parse(text) : parse(text);
  return rewriteRefs(spec.components.schemas[name], which);
}

/** Errors of `value` against components/schemas/<name> of the chosen spec ([] when it validates). */
export function validateComponent(which: Which, name: string, value: unknown): string[] {
  return validateSchema(which, `${which}:${name}`, { $ref: `${which}#/components/schemas/${name}` }, value);
}

/** Errors of `value` against an ad-hoc schema that may $ref the chosen spec's components. */
export function validateSchema(which: Which, key: string, schema: object, value: unknown): string[] {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajvFor(which).compile(schema);
    compiled.set(key, validate);
  }
  return validate(value) ? [] : validate.errors.map((e: any) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}
