import type { ItemTypeRow } from '../../db/schema.ts';

export const ORDERING_METAS = [
  'created_at',
  'updated_at',
  'first_published_at',
  'published_at',
] as const;

/** Attributes a client may send, already shape-checked by the HTTP layer. */
export type ItemTypeAttributes = Partial<{
  name: string;
  api_key: string;
  singleton: boolean;
  sortable: boolean;
  tree: boolean;
  modular_block: boolean;
  draft_mode_active: boolean;
  draft_saving_active: boolean;
  all_locales_required: boolean;
  ordering_direction: 'asc' | 'desc' | null;
  ordering_meta: (typeof ORDERING_METAS)[number] | null;
  collection_appearance: 'compact' | 'table';
  collection_appeareance: 'compact' | 'table';
  hint: string | null;
  inverse_relationships_enabled: boolean;
  has_singleton_item: boolean;
}>;

/** Relationship name → the field column it is stored in. */
export const FIELD_RELATIONSHIPS = {
  ordering_field: 'ordering_field_id',
  presentation_title_field: 'presentation_title_field_id',
  presentation_image_field: 'presentation_image_field_id',
  title_field: 'title_field_id',
  image_preview_field: 'image_preview_field_id',
  excerpt_field: 'excerpt_field_id',
} as const satisfies Record<string, keyof ItemTypeRow>;

export type FieldRelationship = keyof typeof FIELD_RELATIONSHIPS;

/** Relationship ids a client may send; null clears. */
export type ItemTypeRelationships = Partial<Record<FieldRelationship | 'workflow', string | null>>;

export type ItemTypeInput = {
  id?: string;
  attributes: ItemTypeAttributes;
  relationships: ItemTypeRelationships;
  meta: { has_singleton_item?: boolean };
};

/**
 * Which field types each field relationship may point at. A single `link` stands for the
 * linked record's own title or image: real DatoCMS projects use one as title_field and
 * image_preview_field (docs/compatibility.md).
 */
export const ELIGIBLE_FIELD_TYPES: Record<FieldRelationship, readonly string[]> = {
  ordering_field: ['string', 'text', 'integer', 'float', 'date', 'date_time', 'boolean', 'slug'],
  presentation_title_field: [
    'string',
    'text',
    'slug',
    'integer',
    'float',
    'date',
    'date_time',
    'link',
  ],
  presentation_image_field: ['file', 'gallery', 'link'],
  title_field: ['string', 'link'],
  image_preview_field: ['file', 'gallery', 'link'],
  excerpt_field: ['text', 'string'],
};

/** Reserved model api_keys (they collide with names in generated APIs). */
export const RESERVED_API_KEYS = new Set([
  'id',
  'find',
  'site',
  'environment',
  'available_locales',
  'item_types',
  'single_instance_item_types',
  'collection_item_types',
  'items_of_type',
  'model',
]);

/** Flags a block model must leave false, and relationships it must leave empty. */
export const BLOCK_FORBIDDEN_FLAGS = [
  'singleton',
  'sortable',
  'tree',
  'draft_mode_active',
  'draft_saving_active',
  'inverse_relationships_enabled',
] as const;
export const BLOCK_FORBIDDEN_RELATIONSHIPS = [
  'ordering_field',
  'title_field',
  'image_preview_field',
  'excerpt_field',
] as const;
