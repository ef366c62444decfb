import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  type ValueNode,
} from 'graphql';

/**
 * The scalars of DatoCMS's generated schemas. `BooleanType`, `IntType`, `FloatType`
 * behave as GraphQL's own under DatoCMS's names; `ItemId` as an ID; `Date`/`DateTime`
 * as strings; `JsonField` any JSON value.
 */

function renamed(base: GraphQLScalarType, name: string, description: string): GraphQLScalarType {
  return new GraphQLScalarType({ ...base.toConfig(), name, description, specifiedByURL: null });
}

export const BooleanType = renamed(
  GraphQLBoolean,
  'BooleanType',
  'Represents `true` or `false` values.',
);
export const IntType = renamed(
  GraphQLInt,
  'IntType',
  "Represents non-fractional signed whole numeric values. Since the value may exceed the size of a 32-bit integer, it's encoded as a string.",
);
export const FloatType = renamed(
  GraphQLFloat,
  'FloatType',
  'Represents signed double-precision fractional values as specified by [IEEE 754](http://en.wikipedia.org/wiki/IEEE_floating_point).',
);
export const ItemId = renamed(GraphQLID, 'ItemId', 'A record or block id');
export const DateScalar = renamed(GraphQLString, 'Date', 'A ISO 8601 compliant date value');
export const DateTime = renamed(GraphQLString, 'DateTime', 'A ISO 8601 compliant datetime value');

/** A JSON literal in a query document, as a value. */
function literalValue(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((value) => literalValue(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(
        node.fields.map((field) => [field.name.value, literalValue(field.value, variables)]),
      );
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      return undefined;
  }
}

function jsonScalar(name: string, description?: string): GraphQLScalarType {
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: literalValue,
  });
}

export const JsonField = jsonScalar('JsonField', 'Represents a JSON value');
export const CustomData = jsonScalar('CustomData', 'Upload custom data (an object of strings)');
export const MetaTagAttributes = jsonScalar('MetaTagAttributes', "A meta tag's attributes");
export const UploadId = renamed(GraphQLID, 'UploadId', 'An upload id');
