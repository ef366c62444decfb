import { GraphQLNonNull, type GraphQLOutputType } from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import type { FileGuarantees } from '../uploads/file-type.ts';

// Strict mode (`X-Exclude-Invalid: true`) serves valid records only, so what a field's
// validators demand of a valid record can be promised by its GraphQL type: DatoCMS's
// strict schemas do exactly that, and code generators then type values as present.

/** Whether a valid record always holds a value for the field (a `required` validator). */
export const isRequired = (field: FilterField) => field.validators.required !== undefined;

/** The field's type, non-null when a valid record always holds a value. */
export function strictType(field: FilterField, type: GraphQLOutputType): GraphQLOutputType {
  if (!isRequired(field) || type instanceof GraphQLNonNull) return type;
  return new GraphQLNonNull(type);
}

/**
 * Whether the strict type of the model's records promises `_publishedAt` and
 * `_firstPublishedAt` (`DateTime!`, as DatoCMS's strict schemas type models without draft
 * mode): without draft mode, saving a record publishes it. Block models stay nullable, as
 * there.
 */
export const promisesPublication = (model: ItemTypeRow) =>
  !model.draft_mode_active && !model.modular_block;

/**
 * What a valid record's file or gallery value guarantees of its uploads, from its
 * validators: an image imgix transforms or a video (`extension` of `transformable_image`
 * or `video`), an `alt`, a `title` (`required_alt_title`).
 */
export function fileGuarantees(field: FilterField): FileGuarantees {
  const extension = field.validators.extension as { predefined_list?: unknown } | undefined;
  const altTitle = field.validators.required_alt_title as
    | { alt?: unknown; title?: unknown }
    | undefined;
  return {
    image: extension?.predefined_list === 'transformable_image',
    video: extension?.predefined_list === 'video',
    alt: altTitle?.alt === true,
    title: altTitle?.title === true,
  };
}
