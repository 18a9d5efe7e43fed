/**
 * Validates our responses against toncenter's published OpenAPI files (shared/reference), with ajv.
 * The v2 file is OpenAPI 3.1 (JSON Schema 2020-12), the v3 file OpenAPI 3.0.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';

const here = dirname(fileURLToPath(import.meta.url));
/** Copies of toncenter's published specs (see test/reference/SOURCES.md for where each comes from). */
const referenceDir = join(here, '..', 'reference');
const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const Ajv = (AjvModule as any).default ?? AjvModule;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

function loadSpec(file: string): any {
  return JSON.parse(readFileSync(join(referenceDir, file), 'utf8'));
}

export class SpecValidator {
  private readonly ajv: any;
  private readonly spec: any;
  private readonly cache = new Map<string, any>();

  constructor(file: string, draft2020: boolean) {
    this.spec = loadSpec(file);
    this.ajv = draft2020 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true, nullable: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ components: this.spec.components }, 'spec');
  }

  /** The response schema of `path` (`get`/`post`) for `status`, with $refs resolved against the spec. */
  validate(path: string, verb: 'get' | 'post', status: number, body: unknown): string[] {
    const key = `${verb} ${path} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      let response = this.spec.paths[path]?.[verb]?.responses?.[String(status)];
      if (!response) throw new Error(`the spec has no ${status} response for ${verb.toUpperCase()} ${path}`);
      if (response.$ref) response = this.resolve(response.$ref);
      const schema = response.content['application/json'].schema;
      validate = this.ajv.compile(rewriteRefs(schema));
      this.cache.set(key, validate);
    }
    return validate(body) ? [] : validate.errors.map((e: any) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  private resolve(ref: string): any {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node, part) => node[part], this.spec);
  }
}

/** `#/components/...` becomes `spec#/components/...` so the compiled schema can reach the whole spec. */
function rewriteRefs(node: any): any {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `spec${v}` : rewriteRefs(v)]),
    );
  }
  return node;
}

let v2: SpecValidator | undefined;
let v3: SpecValidator | undefined;
export const v2Spec = () => (v2 ??= new SpecValidator('toncenter-v2-openapi.json', true));
export const v3Spec = () => (v3 ??= new SpecValidator('toncenter-v3-openapi.json', false));
