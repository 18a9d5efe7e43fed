/** The OpenAPI document of the devnet controls (`/devnet/openapi.json`), built from the routes registered. */
import type { DevnetOperation } from './guard.js';

export function devnetOpenApi(operations: DevnetOperation[], version: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const params = [...op.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    (paths[path] ??= {})[op.method.toLowerCase()] = {
      operationId: `${op.method.toLowerCase()}_${op.path.replace(/[^a-z]+/gi, '_').replace(/^_|_$/g, '')}`,
      tags: ['devnet'],
      summary: op.summary,
      security: [{}, { adminToken: [] }],
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(op.file === 'upload'
        ? { requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } }
        : op.body
          ? { requestBody: { required: op.method === 'POST', content: { 'application/json': { schema: op.body } } } }
          : {}),
      responses: {
        '200':
          op.file === 'download'
            ? { description: 'the file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
            : {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      required: ['ok', 'result'],
                      properties: { ok: { const: true }, result: op.result, '@extra': { type: 'string' } },
                    },
                  },
                },
              },
        default: { $ref: '#/components/responses/Error' },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'tongate devnet controls',
      // Markdown in Swagger UI: `<...>` outside a code span is read as an HTML tag and dropped.
      version,
      description:
        'Controls of a local chain: mining, time, snapshots, state surgery, config changes, the faucet. Served only on networks of kind local ' +
        '(404 elsewhere); with --admin-token, each needs `Authorization: Bearer <token>`. Bad input: 4xx naming the field.',
    },
    tags: [{ name: 'devnet', description: 'local chain controls' }],
    paths,
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } },
      responses: {
        Error: {
          description: 'an error, in v2 shape',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['ok', 'error', 'code'],
                properties: { ok: { const: false }, error: { type: 'string' }, code: { type: 'integer' } },
              },
            },
          },
        },
      },
    },
  };
}
