/**
 * Our own OpenAPI 3 document for v2, built from the method table so it lists exactly what we serve:
 * each method's GET and/or POST with its parameters, JSON-RPC, and the two ways to pass an API key.
 */
import type { AnyV2Method } from './method.js';
import type { ParamSpec } from './params.js';

const INT64 = { oneOf: [{ type: 'string', pattern: '^-?\\d+$' }, { type: 'integer' }] };

const TYPES: Record<ParamSpec['type'], object> = {
  int: { type: 'integer' },
  int64: INT64,
  string: { type: 'string' },
  bool: { type: 'boolean' },
  'string[]': { type: 'array', items: { type: 'string' } },
  json: {},
  address: { type: 'string', example: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N' },
  hash: { type: 'string', description: 'hex, base64 or base64url' },
  'hash[]': { type: 'array', items: { type: 'string' } },
  boc: { type: 'string', format: 'byte' },
  shard: { ...INT64, example: '-9223372036854775808' },
  stack: { type: 'array', items: {} },
  method: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
};

/** JSON has no bigint: bounds and defaults given as bigints are written as numbers or strings. */
const plain = (value: unknown) =>
  typeof value === 'bigint' ? (Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()) : value;

function schemaOf(spec: ParamSpec): object {
  const base = TYPES[spec.type];
  const bounded = spec.type === 'int' || spec.type === 'int64';
  return {
    ...base,
    ...(bounded && spec.min !== undefined ? { minimum: plain(spec.min) } : {}),
    ...(bounded && spec.max !== undefined ? { maximum: plain(spec.max) } : {}),
    ...(spec.default !== undefined ? { default: plain(spec.default) } : {}),
  };
}

const ENVELOPE = { $ref: '#/components/schemas/Envelope' };

export function v2OpenApi(methods: AnyV2Method[], version: string): object {
  const paths: Record<string, object> = {};
  for (const method of methods) {
    const operations: Record<string, Record<string, unknown>> = {};
    const text = {
      ...(method.summary ? { summary: method.summary } : {}),
      ...(method.description ? { description: method.description } : {}),
    };
    const params = Object.entries(method.params as Record<string, ParamSpec>);
    const responses = {
      '200': { description: 'ok', content: { 'application/json': { schema: ENVELOPE } } },
      default: { $ref: '#/components/responses/Error' },
    };
    if (method.verbs.includes('GET')) {
      operations.get = {
        operationId: `${method.name}_get`,
        tags: ['v2'],
        ...text,
        parameters: params.map(([name, spec]) => ({
          name,
          in: 'query',
          required: Boolean(spec.required),
          ...(spec.description ? { description: spec.description } : {}),
          schema: schemaOf(spec),
          ...(spec.type === 'string[]' || spec.type === 'hash[]' ? { style: 'form', explode: true } : {}),
        })),
        responses,
      };
    }
    if (method.verbs.includes('POST')) {
      operations.post = {
        operationId: `${method.name}_post`,
        tags: ['v2'],
        ...text,
        requestBody: {
          required: params.some(([, spec]) => spec.required),
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: Object.fromEntries(
                  params.map(([name, spec]) => [
                    name,
                    { ...schemaOf(spec), ...(spec.description ? { description: spec.description } : {}) },
                  ]),
                ),
                required: params.filter(([, spec]) => spec.required).map(([name]) => name),
              },
            },
          },
        },
        responses,
      };
    }
    paths[`/api/v2/${method.name}`] = operations;
    // An alias is the same operation under another path; operation ids must stay unique in a document.
    for (const alias of method.aliases ?? []) {
      paths[`/api/v2/${alias}`] = Object.fromEntries(
        Object.entries(operations).map(([verb, op]) => [
          verb,
          { ...op, operationId: `${alias}_${verb}`, description: `Alias of ${method.name}.` },
        ]),
      );
    }
  }
  paths['/api/v2/jsonRPC'] = {
    post: {
      operationId: 'jsonRPC',
      tags: ['v2'],
      description: 'Any method above: `method` is its name, `params` an object of its parameters.',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['method'],
              properties: {
                jsonrpc: { type: 'string', default: '2.0' },
                id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
                method: { type: 'string', enum: methods.flatMap((m) => [m.name, ...(m.aliases ?? [])]) },
                params: { type: 'object', additionalProperties: true },
              },
            },
          },
        },
      },
      responses: {
        '200': { description: 'ok', content: { 'application/json': { schema: ENVELOPE } } },
        default: { $ref: '#/components/responses/Error' },
      },
    },
  };
  return {
    openapi: '3.0.3',
    info: {
      title: 'tongate: toncenter-compatible API v2',
      version,
      description: 'API key: header X-API-Key or query api_key. Without a key: 1 request per second.',
    },
    security: [{ APIKeyHeader: [] }, { APIKeyQuery: [] }, {}],
    paths,
    components: {
      securitySchemes: {
        APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        APIKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
      schemas: {
        Envelope: {
          type: 'object',
          required: ['ok', 'result'],
          properties: { ok: { type: 'boolean' }, result: {}, '@extra': { type: 'string' } },
        },
        Error: {
          type: 'object',
          required: ['ok', 'error', 'code'],
          properties: { ok: { type: 'boolean' }, error: { type: 'string' }, code: { type: 'integer' } },
        },
      },
      responses: {
        Error: {
          description: 'error; the HTTP status equals code',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}
