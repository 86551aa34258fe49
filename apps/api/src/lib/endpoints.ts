import { FailureResponses } from "@fleet/contracts";
import type { User } from "@fleet/db";
import type { Static, TSchema } from "@sinclair/typebox";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from "fastify";
import { currentUser } from "../plugins/app/auth.js";

/*
 * How an authenticated endpoint is declared: its path, its schemas, and one call into the
 * group's domain module. Failures are thrown (see @fleet/contracts' errors) and answered
 * by the errors plugin, so a handler only ever returns the success body.
 */

export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** `{status: 1}`: the answer of a write that has nothing else to say. */
export const OK = { status: 1 as const };

type In<S> = S extends TSchema ? Static<S> : undefined;

export interface Spec<Q extends TSchema | undefined, B extends TSchema | undefined, R extends TSchema, P extends TSchema | undefined = undefined> {
  summary: string;
  /** The path's parameters (`/devices/:device_id/alerts`), validated like the query. */
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Failure answers of this endpoint's own, by status, beside the ones every endpoint has (FailureResponses). */
  failures?: Record<number, TSchema>;
  /** Options fastify takes per route besides the schema (a larger bodyLimit, a serializer). */
  route?: {
    bodyLimit?: number;
    serializerCompiler?: () => (data: unknown) => string;
    onSend?: (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => void;
  };
}

/** What a handler gets: the signed-in user and the validated input. */
export interface Call<Q, B, P = undefined> {
  user: User;
  params: In<P>;
  query: In<Q>;
  body: In<B>;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Input that clients send in the query (GET, as the vendor documents it) or in the body (POST). */
export interface EitherSpec<I extends TSchema, Q extends TSchema | undefined, R extends TSchema> {
  summary: string;
  input: I;
  /** Query fields the POST form keeps in the query besides the input (an id in the path's query, say). */
  query?: Q;
  response: R;
}

type Handler<Q, B, R extends TSchema, P = undefined> = (call: Call<Q, B, P>) => Promise<Static<R>> | Static<R>;

export interface Endpoints {
  get<Q extends TSchema | undefined, R extends TSchema, P extends TSchema | undefined = undefined>(path: string, spec: Spec<Q, undefined, R, P>, handler: Handler<Q, undefined, R, P>): void;
  post<Q extends TSchema | undefined, B extends TSchema | undefined, R extends TSchema, P extends TSchema | undefined = undefined>(path: string, spec: Spec<Q, B, R, P>, handler: Handler<Q, B, R, P>): void;
  /** The vendor's REST-style writes (`put /sharing/{id}`). */
  put<Q extends TSchema | undefined, B extends TSchema | undefined, R extends TSchema, P extends TSchema | undefined = undefined>(path: string, spec: Spec<Q, B, R, P>, handler: Handler<Q, B, R, P>): void;
  delete<Q extends TSchema | undefined, B extends TSchema | undefined, R extends TSchema, P extends TSchema | undefined = undefined>(path: string, spec: Spec<Q, B, R, P>, handler: Handler<Q, B, R, P>): void;
  /**
   * GET with the input in the query and POST with it in the body, one handler for both:
   * the vendor documents these as GET, and fastify reads no GET body, so clients that
   * send a body use POST.
   */
  either<I extends TSchema, Q extends TSchema | undefined, R extends TSchema>(path: string, spec: EitherSpec<I, Q, R>, handler: (call: Call<Q, undefined> & { input: Static<I> }) => Promise<Static<R>> | Static<R>): void;
}

/** The endpoint declarations of one group, tagged alike in the OpenAPI document. */
export function endpoints(app: TypedApp, tags: string[]): Endpoints {
  type RawCall = Omit<Call<never, never>, "params" | "query" | "body"> & { params: unknown; query: unknown; body: unknown };
  const route = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, spec: Spec<TSchema | undefined, TSchema | undefined, TSchema, TSchema | undefined>, handler: (call: RawCall) => unknown) =>
    app.route({
      method,
      url: path,
      ...spec.route,
      schema: {
        tags,
        summary: spec.summary,
        ...(spec.params ? { params: spec.params } : {}),
        ...(spec.query ? { querystring: spec.query } : {}),
        ...(spec.body ? { body: spec.body } : {}),
        response: { 200: spec.response, ...FailureResponses, ...spec.failures },
      },
      handler: async (req, reply) => handler({ user: currentUser(req), params: req.params, query: req.query, body: req.body, req, reply }),
    });
  return {
    get: (path, spec, handler) => route("GET", path, spec, handler as never),
    post: (path, spec, handler) => route("POST", path, spec, handler as never),
    put: (path, spec, handler) => route("PUT", path, spec, handler as never),
    delete: (path, spec, handler) => route("DELETE", path, spec, handler as never),
    either(path, spec, handler) {
      const { input, query, summary, response } = spec;
      route("GET", path, { summary, response, query: input }, (call) => handler({ ...(call as Call<never, undefined>), input: call.query as never }));
      route("POST", path, { summary, response, query, body: input }, (call) => handler({ ...(call as Call<never, undefined>), input: call.body as never }));
    },
  };
}
