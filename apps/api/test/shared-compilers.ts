/*
 * fastify's own schema compilers (AJV for requests, fast-json-stringify for answers), shared
 * by every app the harness builds in one worker. Each app otherwise compiles every route's
 * schemas again: about 1.2 s of CPU a suite, twice a file (PGlite and PostgreSQL), most of
 * what opening a suite cost. The compiled code is what a fresh app would build: the same
 * compilers, options and schema objects (the routes' schemas are module-level), compiled once.
 */
import { AjvCompiler } from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import type { FastifyServerOptions } from "fastify";

type Serializer = (data: unknown) => string;
type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** One AJV per options and external schemas, as fastify pools them within an app; AJV caches each schema it compiled. */
const buildValidator = AjvCompiler();

const fresh = SerializerSelector();
const serializers = new WeakMap<object, Serializer>();

/** fast-json-stringify's compiler, keeping each response schema's serializer for the next app. */
const buildSerializer: SerializerFactory = (externalSchemas, serializerOpts) => {
  const compile = fresh(externalSchemas, serializerOpts);
  return (route) => {
    const schema: unknown = route.schema;
    if (typeof schema !== "object" || schema === null) return compile(route);
    let serialize = serializers.get(schema);
    if (!serialize) serializers.set(schema, (serialize = compile(route) as Serializer));
    return serialize;
  };
};

export const sharedSchemaController: NonNullable<FastifyServerOptions["schemaController"]> = { compilersFactory: { buildValidator, buildSerializer } };
