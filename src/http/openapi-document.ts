import type { SwaggerTransformObject } from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { componentNameOf } from './schemas/component.ts';

/** The named schemas met while documenting the routes, each kept once with its JSON. */
export type Components = Map<string, { schema: unknown; json: string }>;

/**
 * A schema as documented: each named piece (`schemas/component.ts`) becomes a reference
 * to `#/components/schemas/<name>`, declared once however many operations hold it. Two
 * different schemas given one name fail the build of the document.
 */
export function hoistNamed(schema: unknown, components: Components): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => hoistNamed(entry, components));
  if (typeof schema !== 'object' || schema === null) return schema;
  const hoisted = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, hoistNamed(value, components)]),
  );
  const name = componentNameOf(schema);
  if (name === undefined) return hoisted;
  const json = JSON.stringify(hoisted);
  const known = components.get(name);
  if (known && known.json !== json) throw new Error(`two different schemas are named ${name}`);
  components.set(name, { schema: hoisted, json });
  return { $ref: `#/components/schemas/${name}` };
}

/** What every refusal answers: the closed error table of `errors.ts`. */
const ErrorSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        id: Type.String(),
        type: Type.Literal('api_error'),
        attributes: Type.Object({
          code: Type.String(),
          doc_url: Type.String(),
          details: Type.Record(Type.String(), Type.Unknown()),
        }),
      }),
    ),
  },
  { description: 'A refusal: the error codes and their details' },
);
// As plain JSON, as the rest of the document is once rendered (no TypeBox symbols).
const ErrorDocument = JSON.parse(JSON.stringify(ErrorSchema)) as typeof ErrorSchema;

type Parameter = {
  name: string;
  in: string;
  schema?: { type?: unknown };
  style?: string;
  explode?: boolean;
};
type Reference = { $ref: string };
type Operation = { parameters?: (Parameter | Reference)[]; responses?: Record<string, unknown> };
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
};

function byName(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  return Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * A query parameter that is an object is written with brackets (`page[limit]=10`,
 * `filter[fields][title][eq]=x`): OpenAPI's deepObject style. A header is the same on
 * every operation that reads it, so it is declared once under `components.parameters`.
 */
function completeParameter(parameter: Parameter, headers: Map<string, Parameter>) {
  if (parameter.in === 'query' && parameter.schema?.type === 'object') {
    return { ...parameter, style: 'deepObject', explode: true };
  }
  if (parameter.in !== 'header') return parameter;
  const known = headers.get(parameter.name);
  if (known && JSON.stringify(known) !== JSON.stringify(parameter))
    throw new Error(`the ${parameter.name} header is documented two ways`);
  headers.set(parameter.name, parameter);
  return { $ref: `#/components/parameters/${parameter.name}` };
}

/**
 * Completes the document swagger built: parameters as above, every operation may be
 * refused with an error document (one shared `default` answer), and the named schemas
 * declared once, in name order.
 */
export function completeDocument(components: Components): SwaggerTransformObject {
  return (documentObject) => {
    const document = (documentObject as { openapiObject: Document }).openapiObject;
    const headers = new Map<string, Parameter>();
    for (const operations of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(operations)) {
        if (operation.parameters) {
          operation.parameters = operation.parameters.map((parameter) =>
            '$ref' in parameter ? parameter : completeParameter(parameter, headers),
          );
        }
        operation.responses = {
          ...operation.responses,
          default: { $ref: '#/components/responses/ApiError' },
        };
      }
    }
    const schemas = [...components].map(([name, { schema }]) => [name, schema] as const);
    document.components = {
      ...document.components,
      schemas: byName([...schemas, ['ApiError', ErrorDocument]]),
      parameters: byName(headers),
      responses: {
        ApiError: {
          description: ErrorDocument.description,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
        },
      },
    };
    return document as ReturnType<SwaggerTransformObject>;
  };
}
