/**
 * Fastify's schema compilers, loaded the first time a route declares a schema. Fastify builds its default ones as the
 * app is made, which loads Ajv and the fast-json-stringify compiler (~45 ms of the main thread at start, about a
 * tenth of the time to serving); tongate's routes parse and answer by hand and declare no schemas, so neither is
 * needed unless a route comes that does. Both are resolved from fastify's own place, as fastify would.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;

const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

let validatorFactory: ValidatorFactory | undefined;
let serializerFactory: SerializerFactory | undefined;

export const lazySchemaCompilers: CompilersFactory = {
  buildValidator: ((...args: Parameters<ValidatorFactory>) => {
    validatorFactory ??= (fromFastify('@fastify/ajv-compiler') as () => ValidatorFactory)();
    return (validatorFactory as (...a: Parameters<ValidatorFactory>) => ReturnType<ValidatorFactory>)(...args);
  }) as ValidatorFactory,
  buildSerializer: ((...args: Parameters<SerializerFactory>) => {
    serializerFactory ??= (fromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory)();
    return serializerFactory(...args);
  }) as SerializerFactory,
};
