import { GraphQLInputObjectType } from 'graphql';
import { BooleanType } from '../scalars.ts';
import { StringMatchesFilter } from './string-matches-filter.ts';

/**
 * `StructuredTextFilter` as DatoCMS's generated schemas name it: `matches` / `notMatches`
 * on the document's text, `isBlank` (no value, or a document holding one empty paragraph),
 * `isPresent` (its opposite) and the deprecated `exists` (any value, even an empty one).
 */
export const StructuredTextFilter = new GraphQLInputObjectType({
  name: 'StructuredTextFilter',
  description: 'Specifies how to filter Structured Text fields values',
  fields: {
    matches: { type: StringMatchesFilter },
    notMatches: { type: StringMatchesFilter },
    isBlank: { type: BooleanType },
    isPresent: { type: BooleanType },
    exists: { type: BooleanType, deprecationReason: 'Use isBlank or isPresent instead' },
  },
});
