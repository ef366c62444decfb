import type { Appearance, FieldType } from '../schema/field-types/index.ts';

/** Attributes a client may send, already shape-checked by the HTTP layer. */
export type FieldAttributes = Partial<{
  label: string;
  field_type: FieldType;
  api_key: string;
  localized: boolean;
  validators: Record<string, unknown>;
  appearance: SentAppearance;
  /** The legacy misspelling; `appearance` wins when both are sent. */
  appeareance: LegacyAppearance;
  position: number;
  hint: string | null;
  default_value: unknown;
  deep_filtering_enabled: boolean;
  content_link_enabled: boolean;
}>;

/** An appearance as sent: older DatoCMS fields carry a legacy `type`, ignored. */
export type SentAppearance = Appearance & { type?: string };

export type LegacyAppearance = Omit<SentAppearance, 'addons'> & {
  addons?: Appearance['addons'];
};

export type FieldInput = {
  /** A client-chosen id (create only). */
  id?: string;
  attributes: FieldAttributes;
  /** The fieldset id; null takes the field out of its fieldset, undefined leaves it. */
  relationships: { fieldset?: string | null };
};

/** A create request: the schema requires these three. */
export type NewFieldInput = FieldInput & {
  attributes: FieldAttributes & { label: string; field_type: FieldType; api_key: string };
};

/**
 * Field api_keys the official importer renames, because they clash with names of
 * the record API and its filters.
 */
export const RESERVED_FIELD_API_KEYS = new Set([
  'position',
  'is_valid',
  'id',
  'type',
  'updated_at',
  'created_at',
  'attributes',
  'fields',
  'item_type',
  'is_singleton',
  'seo_meta_tags',
  'parent_id',
  'parent',
  'children',
  'status',
  'meta',
  'eq',
  'neq',
  'all_in',
  'any_in',
  'exists',
]);

/** Types that embed blocks, so GraphQL can filter into them. */
export const DEEP_FILTERING_TYPES: readonly string[] = [
  'rich_text',
  'single_block',
  'structured_text',
];

/** Types whose content link may be switched off. */
export const CONTENT_LINK_OPTIONAL_TYPES: readonly string[] = ['string', 'text', 'structured_text'];
