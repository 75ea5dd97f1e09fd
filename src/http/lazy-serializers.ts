/**
 * Response serialisers compiled when first used instead of at start-up. Fastify
 * builds a fast-json-stringify function for every route and status code it
 * declares (the problem documents of every route among them), which was the
 * largest part of start-up after module loading (docs/performance.md,
 * Start-up), while most of them never run: users and write answers are sent as
 * stored text (src/users/user-representation.ts), and a route answers few of its
 * declared errors. The first response of a kind pays for its own.
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/** Fastify's `schemaController.compilersFactory.buildSerializer`: the default one, made lazy per route schema. */
export const buildLazySerializer: SerializerSelector.SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (routeSchema) => {
    let serialize: SerializerSelector.Serializer | undefined;
    return (data) => (serialize ??= compile(routeSchema))(data);
  };
};
