import { Kind, type TSchema, Type } from '@sinclair/typebox';
import { Component, componentNameOf, componentPrefix } from './component.ts';

/**
 * Builders for the response documents routes declare, so openapi.json describes every
 * answer. They document and never shape: replies are written by the reply serializer
 * (`document-json.ts`), which Fastify prefers to a route's response schema, and the app's
 * serializer compiler builds no serializer from them (`app.ts`). Every object they
 * describe may hold more members than it names.
 *
 * Resources, relationships and documents are OpenAPI components (`component.ts`), named
 * from their type: openapi.json declares each once.
 */

function Identifier(type: string) {
  return Type.Object({ type: Type.Literal(type), id: Type.String() });
}

/** A to-one relationship: `{data: {type, id} | null}`. */
export function RefOne(type: string) {
  return Component(
    `${componentPrefix(type)}ToOne`,
    Type.Object({ data: Type.Union([Identifier(type), Type.Null()]) }),
  );
}

/** A to-many relationship: `{data: [{type, id}…]}`. */
export function RefMany(type: string) {
  return Component(
    `${componentPrefix(type)}ToMany`,
    Type.Object({ data: Type.Array(Identifier(type)) }),
  );
}

/** An ISO 8601 time, or null when it has not happened. */
export function Time() {
  return Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
}

/** Any JSON value: stored as sent (validators, appearance, filters, payloads…). */
export const Json = Type.Unknown();

/** Text or null. */
export function Text() {
  return Type.Union([Type.String(), Type.Null()]);
}

type Members = Record<string, TSchema>;

function asSchema(members: Members | TSchema): TSchema {
  return Kind in members ? (members as TSchema) : Type.Object(members as Members);
}

/** One JSON:API resource: `{type, id, attributes?, relationships?, meta?}`, named from its type. */
export function ResourceOf(
  type: string,
  parts: { attributes?: Members | TSchema; relationships?: Members; meta?: Members } = {},
) {
  return Component(
    componentPrefix(type),
    Type.Object({
      type: Type.Literal(type),
      id: Type.String(),
      ...(parts.attributes ? { attributes: asSchema(parts.attributes) } : {}),
      ...(parts.relationships ? { relationships: Type.Object(parts.relationships) } : {}),
      ...(parts.meta ? { meta: Type.Object(parts.meta) } : {}),
    }),
  );
}

/** A document of `resource`, named `<Resource><suffix>` (or `name`) if the resource is named. */
function named<T extends TSchema>(document: T, resource: TSchema, suffix: string, name?: string) {
  const resourceName = componentNameOf(resource);
  if (name !== undefined) return Component(name, document);
  return resourceName === undefined ? document : Component(`${resourceName}${suffix}`, document);
}

/**
 * `{data: resource}`, with `included` resources when the route sends some. Named
 * `<Resource>Document`, or `name` where one resource has two kinds of document.
 */
export function One(resource: TSchema, options: { included?: TSchema; name?: string } = {}) {
  const document = Type.Object({
    data: resource,
    ...(options.included ? { included: Type.Optional(Type.Array(options.included)) } : {}),
  });
  return named(document, resource, 'Document', options.name);
}

/**
 * `{data: [resource…]}`, with `meta.total_count` for paginated lists. Named
 * `<Resource>List`, or `name` where one resource has two kinds of list.
 */
export function Many(resource: TSchema, options: { paginated?: boolean; name?: string } = {}) {
  const list = Type.Object({
    data: Type.Array(resource),
    ...(options.paginated ? { meta: Type.Object({ total_count: Type.Integer() }) } : {}),
  });
  return named(list, resource, 'List', options.name);
}

/** The answer of a change DatoCMS runs as a job when FIELDHOUSE_ASYNC_JOBS is on. */
export const JobDocument = Component(
  'JobDocument',
  Type.Object(
    { data: Type.Object({ type: Type.Literal('job'), id: Type.String() }) },
    {
      description: 'With FIELDHOUSE_ASYNC_JOBS on: the job; GET /job-results/{id} holds its result',
    },
  ),
);

/** A change's answer, or its job (202) when async jobs are on. */
export function OrJob(status: 200 | 201, document: TSchema) {
  return { [status]: document, 202: JobDocument };
}

/** An answer without a body. */
export const NoContent = Type.Null({ description: 'No content' });

/** Any resource, for `included` lists that mix types. */
export const AnyResource = Component(
  'AnyResource',
  Type.Object({
    type: Type.String(),
    id: Type.String(),
    attributes: Type.Optional(Type.Record(Type.String(), Json)),
    relationships: Type.Optional(Type.Record(Type.String(), Json)),
    meta: Type.Optional(Type.Record(Type.String(), Json)),
  }),
);
