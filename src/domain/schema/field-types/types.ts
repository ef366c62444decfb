/** The 20 field types of the DatoCMS schema. */
export const FIELD_TYPES = [
  'boolean',
  'color',
  'date',
  'date_time',
  'file',
  'float',
  'gallery',
  'integer',
  'json',
  'lat_lon',
  'link',
  'links',
  'rich_text',
  'seo',
  'single_block',
  'slug',
  'string',
  'structured_text',
  'text',
  'video',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

export type Appearance = {
  editor: string;
  parameters: Record<string, unknown>;
  addons: { id: string; parameters: Record<string, unknown>; field_extension?: string }[];
  field_extension?: string;
};

export type FieldDefinition = {
  field_type: FieldType;
  localized: boolean;
  /** As sent by the client: validator name → parameters. */
  validators: Record<string, unknown>;
  appearance: Appearance;
  /** For localized fields: { <locale>: value | null }. */
  default_value: unknown;
};

/** What the checks need from the database; the service loads it. */
export type FieldCheckContext = {
  /** The site's locales, in order. */
  locales: string[];
  /** Every item type named by the validators (see referencedItemTypeIds); a missing id = does not exist. */
  itemTypes: ReadonlyMap<string, { modular_block: boolean }>;
  /** The other fields of the same model (for slug_title_field). */
  siblingFields: ReadonlyArray<{ id: string; field_type: string }>;
  /** The owning model is a block model (e.g. `unique` is not allowed there). */
  isBlockModel: boolean;
  /** The plugins of the field's environment the appearance names (see referencedPluginIds). */
  plugins: ReadonlySet<string>;
};
