import type { BlockHoldingField } from '../domain/items/blocks/block-values.ts';
import { withEmptyValues } from '../domain/schema/field-types/empty-values.ts';

/**
 * Values by field id as attributes by api_key, every field present and empty as its type
 * is (`[]` for links, gallery and modular content, which the client types as lists, else
 * null), in each locale of a localized value: values stored before lists were kept as `[]`
 * read the same way.
 */
export function presentedAttributes(
  fields: readonly BlockHoldingField[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const field of fields) attributes[field.api_key] = withEmptyValues(field, values[field.id]);
  return attributes;
}
