/** The 20 field types of the CMA, with what the schema editor asks for each. */
export const FIELD_TYPES = [
  ['string', 'Single-line string'],
  ['text', 'Multi-paragraph text'],
  ['slug', 'Slug'],
  ['boolean', 'Boolean'],
  ['integer', 'Integer number'],
  ['float', 'Floating-point number'],
  ['date', 'Date'],
  ['date_time', 'Date and time'],
  ['color', 'Colour'],
  ['json', 'JSON'],
  ['lat_lon', 'Location (lat/lon)'],
  ['seo', 'SEO meta tags'],
  ['video', 'External video'],
  ['file', 'Single asset'],
  ['gallery', 'Asset gallery'],
  ['link', 'Single link'],
  ['links', 'Multiple links'],
  ['rich_text', 'Modular content (blocks)'],
  ['single_block', 'Single block'],
  ['structured_text', 'Structured text'],
] as const;

export type FieldType = (typeof FIELD_TYPES)[number][0];

/**
 * The validator naming the models a field may point at, and whether they are blocks.
 * Structured text has two: its blocks and its links.
 */
export const TARGET_VALIDATORS: Partial<Record<FieldType, { key: string; blocks: boolean }[]>> = {
  link: [{ key: 'item_item_type', blocks: false }],
  links: [{ key: 'items_item_type', blocks: false }],
  rich_text: [{ key: 'rich_text_blocks', blocks: true }],
  single_block: [{ key: 'single_block_blocks', blocks: true }],
  structured_text: [
    { key: 'structured_text_blocks', blocks: true },
    { key: 'structured_text_links', blocks: false },
  ],
};

/**
 * The built-in editors of each type (the first is the one a new field gets), as the CMA's
 * `appearance.editor` names them. A plugin's editor is kept when a field has one.
 */
export const EDITORS: Record<FieldType, readonly string[]> = {
  string: ['single_line', 'string_radio_group', 'string_select'],
  text: ['textarea', 'markdown', 'wysiwyg'],
  slug: ['slug'],
  boolean: ['boolean', 'boolean_radio_group'],
  integer: ['integer'],
  float: ['float'],
  date: ['date_picker'],
  date_time: ['date_time_picker'],
  color: ['color_picker'],
  json: ['json', 'string_multi_select', 'string_checkbox_group'],
  lat_lon: ['map'],
  seo: ['seo'],
  video: ['video'],
  file: ['file'],
  gallery: ['gallery'],
  link: ['link_select', 'link_embed'],
  links: ['links_select', 'links_embed'],
  rich_text: ['rich_text'],
  single_block: ['framed_single_block', 'frameless_single_block'],
  structured_text: ['structured_text'],
};

/** Types whose required validator the API refuses (no empty state to forbid). */
export const NO_REQUIRED = new Set<string>(['boolean', 'links', 'rich_text', 'gallery', 'seo']);

export function apiKeyFrom(label: string): string {
  return label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 'f_$1');
}
