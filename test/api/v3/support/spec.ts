/**
 * Response validation for the v3 tests, two ways:
 *   toncenterV3()  toncenter's published v3 spec (test/reference), with the exceptions real toncenter
 *                  output needs, each with its reason (reference/SOURCES.md lists the known spec errors);
 *   ourV3(doc)     our own /api/v3/openapi.json, which declares required fields and nullability, so it
 *                  catches a missing field that toncenter's all-optional schemas would let through.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';

const Ajv = (AjvModule as any).default ?? AjvModule;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;
const here = dirname(fileURLToPath(import.meta.url));

type Schemas = Record<string, any>;
type Patch = (schemas: Schemas, paths: Record<string, any>) => void;

/** A property the server writes as null although the spec has no `nullable` (Go nil pointers marshal as null). */
function allowNull(schema: string, ...properties: string[]): Patch {
  return (schemas) => {
    for (const property of properties)
      schemas[schema].properties[property] = { anyOf: [schemas[schema].properties[property], { type: 'null' }] };
  };
}

/** A response whose real schema differs from the one the spec names. */
function responseIs(path: string, schema: object, verb: 'get' | 'post' = 'get'): Patch {
  return (_schemas, paths) => {
    paths[path][verb].responses['200'].content['application/json'].schema = schema;
  };
}

/**
 * toncenter's spec and what its server really sends:
 * - Go pointers marshal as null and the spec has no `nullable`: external messages have no value, fees,
 *   created_lt...; a state the index does not keep has null details; a transaction without inbound
 *   message has in_msg null; an unparseable /addressBook key has user_friendly null; domain is null
 *   without DNS; contract_methods is null when unknown; addressInformation's code, data and frozen_hash are
 *   null when absent (observed toncenter output has all of these);
 * - opcode is a "0x%08x" string, not an integer (SOURCES.md);
 * - masterchainBlockShards / masterchainBlockShardState return {"blocks": [...]}, not TransactionsResponse (SOURCES.md);
 * - runGetMethod returns {gas_used, exit_code, stack}, not the request schema (SOURCES.md).
 */
const TONCENTER_EXCEPTIONS: Patch[] = [
  allowNull(
    'Message',
    'source',
    'destination',
    'value',
    'value_extra_currencies',
    'fwd_fee',
    'ihr_fee',
    'extra_flags',
    'created_lt',
    'created_at',
    'opcode',
    'decoded_opcode',
    'ihr_disabled',
    'bounce',
    'bounced',
    'import_fee',
    'init_state',
  ),
  allowNull('MessageContent', 'decoded'),
  allowNull('Transaction', 'in_msg'),
  allowNull('AccountState', 'balance', 'extra_currencies', 'account_status', 'frozen_hash', 'data_hash', 'code_hash'),
  allowNull('AddressBookRow', 'user_friendly', 'domain'),
  allowNull('AccountStateFull', 'contract_methods'),
  allowNull('V2AddressInformation', 'code', 'data', 'last_transaction_lt', 'last_transaction_hash', 'frozen_hash'),
  (schemas) => {
    schemas.Message.properties.opcode = { anyOf: [{ type: 'string', pattern: '^0x[0-9a-f]{8}$' }, { type: 'null' }] };
  },
  // Jetton and NFT rows (ton-index-go models/jetton.go, nft.go): pointers marshal as null; decoded_* payloads are
  // json.RawMessage documented with swaggertype "object" but published as an integer array (a swag quirk).
  allowNull('JettonMaster', 'admin_address'),
  allowNull('JettonWallet', 'code_hash', 'data_hash'),
  allowNull(
    'JettonTransfer',
    'source',
    'destination',
    'response_destination',
    'custom_payload',
    'forward_ton_amount',
    'forward_payload',
    'trace_id',
  ),
  allowNull('JettonBurn', 'owner', 'response_destination', 'custom_payload', 'trace_id'),
  allowNull('NFTCollection', 'owner_address'),
  allowNull('NFTItem', 'collection_address', 'owner_address', 'content', 'collection'),
  allowNull('DNSRecord', 'nft_item_owner', 'dns_next_resolver', 'dns_wallet', 'dns_site_adnl', 'dns_storage_bag_id'),
  allowNull(
    'NFTTransfer',
    'nft_collection',
    'old_owner',
    'new_owner',
    'response_destination',
    'custom_payload',
    'forward_amount',
    'forward_payload',
    'trace_id',
  ),
  (schemas) => {
    const decoded = [
      ['JettonTransfer', ['decoded_custom_payload', 'decoded_forward_payload']],
      ['JettonBurn', ['decoded_custom_payload']],
      ['NFTTransfer', ['decoded_custom_payload', 'decoded_forward_payload']],
    ] as const;
    for (const [schema, fields] of decoded) {
      for (const field of fields) schemas[schema].properties[field] = { anyOf: [{ type: 'object' }, { type: 'null' }] };
    }
  },
  // Multisig (ton-index-go models/multisig.go): an order's actions are nil unless parse_actions, a wallet's orders
  // nil with include_orders=false. The spec refers to `index.OrderAction` and `index.VestingInfo`, which it
  // publishes as `OrderAction` and `VestingInfo` (swag's package prefix).
  allowNull('MultisigOrder', 'actions'),
  allowNull('Multisig', 'orders'),
  // An order action (models/actions.go OrderAction): destination, value, error and parsed_body are pointers (null for an
  // update of parameters, or an action that did not read); body_raw is a Go []byte, which marshals as a base64 string
  // (null when absent), published as an integer array (the same swag quirk).
  allowNull('OrderAction', 'destination', 'value', 'error'),
  (schemas) => {
    schemas.OrderAction.properties.body_raw = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    schemas.OrderAction.properties.parsed_body = {};
    schemas['index.OrderAction'] ??= schemas.OrderAction;
    schemas['index.VestingInfo'] ??= schemas.VestingInfo;
  },
  responseIs('/api/v3/masterchainBlockShards', { $ref: '#/components/schemas/BlocksResponse' }),
  responseIs('/api/v3/masterchainBlockShardState', { $ref: '#/components/schemas/BlocksResponse' }),
  responseIs(
    '/api/v3/runGetMethod',
    {
      type: 'object',
      required: ['gas_used', 'exit_code', 'stack'],
      properties: {
        gas_used: { type: 'integer' },
        exit_code: { type: 'integer' },
        stack: { type: 'array', items: { $ref: '#/components/schemas/V2StackEntity' } },
      },
    },
    'post',
  ),
];

export class ResponseValidator {
  private readonly ajv: any;
  private readonly paths: Record<string, any>;
  private readonly cache = new Map<string, any>();

  constructor(spec: any, patches: Patch[] = []) {
    const schemas = structuredClone(spec.components.schemas);
    this.paths = structuredClone(spec.paths);
    for (const patch of patches) patch(schemas, this.paths);
    this.ajv = new Ajv({ strict: false, allErrors: true, nullable: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ components: { schemas } }, 'spec');
  }

  /** Errors of a 200 body of `verb` `path` ([] when valid). */
  errors(path: string, body: unknown, verb: 'get' | 'post' = 'get'): string[] {
    const key = `${verb} ${path}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const response = this.paths[path]?.[verb]?.responses?.['200'];
      if (!response) throw new Error(`the spec has no 200 response for ${verb.toUpperCase()} ${path}`);
      validate = this.ajv.compile(rewriteRefs(response.content['application/json'].schema));
      this.cache.set(key, validate);
    }
    return validate(body) ? [] : validate.errors.map((e: any) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}

function rewriteRefs(node: any): any {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `spec${v}` : rewriteRefs(v)]),
    );
  }
  return node;
}

let toncenter: ResponseValidator | undefined;
export function toncenterV3(): ResponseValidator {
  toncenter ??= new ResponseValidator(
    JSON.parse(readFileSync(join(here, '..', '..', '..', 'reference', 'toncenter-v3-openapi.json'), 'utf8')),
    TONCENTER_EXCEPTIONS,
  );
  return toncenter;
}

export function ourV3(document: unknown): ResponseValidator {
  return new ResponseValidator(document);
}

/** Asserts a v3 answer against toncenter's published document and against tongate's own openapi.json. */
export function checkAgainstSpecs(ours: ResponseValidator, path: string, body: unknown, verb: 'get' | 'post' = 'get'): void {
  assert.deepEqual(toncenterV3().errors(path, body, verb), [], `${path} against toncenter's spec`);
  assert.deepEqual(ours.errors(path, body, verb), [], `${path} against our openapi.json`);
}

/**
 * A GET of a served v3 API that must answer 200 with a body valid against both documents (checkAgainstSpecs); the
 * body. Reads tongate's openapi.json once, from the same server.
 */
export async function specCheckedGet(server: {
  get(pathAndQuery: string): Promise<{ status: number; body: any }>;
}): Promise<(pathAndQuery: string) => Promise<any>> {
  const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
  return async (pathAndQuery) => {
    const reply = await server.get(pathAndQuery);
    assert.equal(reply.status, 200, `${pathAndQuery}: ${JSON.stringify(reply.body)}`);
    checkAgainstSpecs(ours, pathAndQuery.split('?')[0], reply.body);
    return reply.body;
  };
}
