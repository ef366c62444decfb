import { GraphQLInputObjectType, GraphQLNonNull, GraphQLString } from 'graphql';
import { BooleanType } from '../scalars.ts';

/** `StringMatchesFilter`: the argument of every `matches` / `notMatches` operator. */
export const StringMatchesFilter = new GraphQLInputObjectType({
  name: 'StringMatchesFilter',
  fields: {
    pattern: { type: new GraphQLNonNull(GraphQLString) },
    caseSensitive: { type: BooleanType, defaultValue: false },
    regexp: { type: BooleanType, defaultValue: true },
  },
});
