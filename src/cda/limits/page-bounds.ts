import { GraphQLError } from 'graphql';

/** DatoCMS's limit on `first` (since 2025-01-29); bigger pages are split by the client. */
export const MAX_FIRST = 500;
export const DEFAULT_FIRST = 20;

/** `first` and `skip` as a page, or a GraphQL error naming the bound. */
export function pageBounds(
  first: number | null | undefined,
  skip: number | null | undefined,
): { first: number; skip: number } {
  const size = first ?? DEFAULT_FIRST;
  const offset = skip ?? 0;
  if (size < 0 || size > MAX_FIRST)
    throw new GraphQLError(`first must be between 0 and ${MAX_FIRST}, got ${size}`);
  if (offset < 0) throw new GraphQLError(`skip must not be negative, got ${offset}`);
  return { first: size, skip: offset };
}
