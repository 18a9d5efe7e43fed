/**
 * Validates codec output against component schemas of toncenter's published OpenAPI files with ajv.
 * The files are read from test/reference (the project's copies, see SOURCES.md there).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';

const here = dirname(fileURLToPath(import.meta.url));
const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const Ajv = (AjvModule as any).default ?? AjvModule;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

function loadSpec(file: string): any {
  return JSON.parse(readFileSync(join(here, '..', '..', 'reference', file), 'utf8'));
}

/** A schema patch: a documented exception to the published spec. */
export type SpecPatch = (schemas: Record<string, any>) => void;

export class ComponentValidator {
  private readonly ajv: any;
  private readonly cache = new Map<string, any>();

  constructor(file: string, draft2020: boolean, patches: SpecPatch[] = []) {
    const spec = loadSpec(file);
    const schemas = structuredClone(spec.components.schemas);
    for (const patch of patches) patch(schemas);
    this.ajv = draft2020 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true, nullable: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ components: { schemas } }, 'spec');
  }

  /** Errors of `value` against components.schemas[name] ([] when valid). */
  errors(name: string, value: unknown): string[] {
    let validate = this.cache.get(name);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `spec#/components/schemas/${name}` });
      this.cache.set(name, validate);
    }
    return validate(value) ? [] : validate.errors.map((e: any) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}

/** A property the server writes as null although the spec has no `nullable` (Go pointers marshal nil as null). */
export function allowNull(schema: string, ...properties: string[]): SpecPatch {
  return (schemas) => {
    for (const property of properties) {
      const current = schemas[schema].properties[property];
      schemas[schema].properties[property] = { anyOf: [current, { type: 'null' }] };
    }
  };
}

/** A property whose real type differs from the spec's. */
export function retype(schema: string, property: string, replacement: object): SpecPatch {
  return (schemas) => {
    schemas[schema].properties[property] = replacement;
  };
}

let v2: ComponentValidator | undefined;
export const v2Components = () => (v2 ??= new ComponentValidator('toncenter-v2-openapi.json', true));
