import type { EditorName } from './editors.ts';
import type { FieldType } from './types.ts';
import type { ValidatorName } from './validators.ts';
import { VALUE_SHAPES, type ValueShape } from './value-shapes.ts';

export type FieldTypeSpec = {
  /** Built-in editors valid for the type. */
  editors: readonly EditorName[];
  /** Used when `appearance` is omitted or reset. */
  defaultEditor: EditorName;
  /** Validators every field of the type must carry. */
  requiredValidators: readonly ValidatorName[];
  otherValidators: readonly ValidatorName[];
  /** Shape of a non-null default value; null = the type takes no default (only null). */
  defaultValueShape: ValueShape | null;
};

/**
 * The one table per field type (the client's field descriptions). Default
 * editors: documented for link/links; otherwise the first editor, except text → textarea.
 */
export const FIELD_TYPE_CATALOG: Readonly<Record<FieldType, FieldTypeSpec>> = {
  string: {
    editors: ['single_line', 'string_radio_group', 'string_select'],
    defaultEditor: 'single_line',
    requiredValidators: [],
    otherValidators: ['required', 'unique', 'length', 'format', 'enum'],
    defaultValueShape: VALUE_SHAPES.string,
  },
  text: {
    editors: ['markdown', 'wysiwyg', 'textarea'],
    defaultEditor: 'textarea',
    requiredValidators: [],
    otherValidators: ['required', 'length', 'format', 'sanitized_html'],
    defaultValueShape: VALUE_SHAPES.text,
  },
  boolean: {
    editors: ['boolean', 'boolean_radio_group'],
    defaultEditor: 'boolean',
    requiredValidators: [],
    otherValidators: [],
    defaultValueShape: VALUE_SHAPES.boolean,
  },
  integer: {
    editors: ['integer'],
    defaultEditor: 'integer',
    requiredValidators: [],
    otherValidators: ['required', 'number_range'],
    defaultValueShape: VALUE_SHAPES.integer,
  },
  float: {
    editors: ['float'],
    defaultEditor: 'float',
    requiredValidators: [],
    otherValidators: ['required', 'number_range'],
    defaultValueShape: VALUE_SHAPES.float,
  },
  date: {
    editors: ['date_picker'],
    defaultEditor: 'date_picker',
    requiredValidators: [],
    otherValidators: ['required', 'date_range'],
    defaultValueShape: VALUE_SHAPES.date,
  },
  date_time: {
    editors: ['date_time_picker'],
    defaultEditor: 'date_time_picker',
    requiredValidators: [],
    otherValidators: ['required', 'date_time_range'],
    defaultValueShape: VALUE_SHAPES.date_time,
  },
  color: {
    editors: ['color_picker'],
    defaultEditor: 'color_picker',
    requiredValidators: [],
    otherValidators: ['required'],
    defaultValueShape: VALUE_SHAPES.color,
  },
  json: {
    editors: ['json', 'string_multi_select', 'string_checkbox_group'],
    defaultEditor: 'json',
    requiredValidators: [],
    otherValidators: ['required'],
    defaultValueShape: VALUE_SHAPES.json,
  },
  lat_lon: {
    editors: ['map'],
    defaultEditor: 'map',
    requiredValidators: [],
    otherValidators: ['required'],
    defaultValueShape: VALUE_SHAPES.lat_lon,
  },
  seo: {
    editors: ['seo'],
    defaultEditor: 'seo',
    requiredValidators: [],
    otherValidators: [
      'required_seo_fields',
      'file_size',
      'image_dimensions',
      'image_aspect_ratio',
      'title_length',
      'description_length',
    ],
    defaultValueShape: null,
  },
  slug: {
    editors: ['slug'],
    defaultEditor: 'slug',
    requiredValidators: [],
    otherValidators: ['required', 'unique', 'length', 'slug_format', 'slug_title_field'],
    defaultValueShape: null,
  },
  video: {
    editors: ['video'],
    defaultEditor: 'video',
    requiredValidators: [],
    otherValidators: ['required'],
    defaultValueShape: null,
  },
  file: {
    editors: ['file'],
    defaultEditor: 'file',
    requiredValidators: [],
    otherValidators: [
      'required',
      'file_size',
      'image_dimensions',
      'image_aspect_ratio',
      'extension',
      'required_alt_title',
    ],
    defaultValueShape: null,
  },
  gallery: {
    editors: ['gallery'],
    defaultEditor: 'gallery',
    requiredValidators: [],
    otherValidators: [
      'size',
      'file_size',
      'image_dimensions',
      'image_aspect_ratio',
      'extension',
      'required_alt_title',
    ],
    defaultValueShape: null,
  },
  link: {
    editors: ['link_select', 'link_embed'],
    defaultEditor: 'link_select',
    requiredValidators: ['item_item_type'],
    otherValidators: ['required', 'unique'],
    defaultValueShape: null,
  },
  links: {
    editors: ['links_select', 'links_embed'],
    defaultEditor: 'links_select',
    requiredValidators: ['items_item_type'],
    otherValidators: ['size'],
    defaultValueShape: null,
  },
  rich_text: {
    editors: ['rich_text'],
    defaultEditor: 'rich_text',
    requiredValidators: ['rich_text_blocks'],
    otherValidators: ['size'],
    defaultValueShape: null,
  },
  single_block: {
    editors: ['framed_single_block', 'frameless_single_block'],
    defaultEditor: 'framed_single_block',
    requiredValidators: ['single_block_blocks'],
    otherValidators: ['required'],
    defaultValueShape: null,
  },
  structured_text: {
    editors: ['structured_text'],
    defaultEditor: 'structured_text',
    requiredValidators: ['structured_text_blocks', 'structured_text_links'],
    otherValidators: ['required', 'length', 'structured_text_inline_blocks'],
    defaultValueShape: null,
  },
};
