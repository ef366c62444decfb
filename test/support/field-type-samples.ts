import type { Appearance, FieldType } from '../../src/domain/schema/field-types/index.ts';

/** Real ids the samples point at: a model, a block model, and a string field of the same model. */
export type SampleIds = { model: string; block: string; titleField: string };

type Params = Record<string, unknown>;

export type FieldTypeSamples = {
  /** The validators every field of the type must carry. */
  requiredValidators: Record<string, Params>;
  /**
   * One valid parameters object per validator the type accepts (required ones included).
   * All of them together are valid too; `unique` is not accepted on block-model fields.
   */
  validators: Record<string, Params>;
  /** One valid appearance per built-in editor of the type, keyed by editor. */
  appearances: Record<string, Appearance>;
  /** A non-null default value that satisfies `validators`, or null when the type takes none. */
  defaultValue: unknown;
};

function editors(parametersByEditor: Record<string, Params>): Record<string, Appearance> {
  return Object.fromEntries(
    Object.entries(parametersByEditor).map(([editor, parameters]) => [
      editor,
      { editor, parameters, addons: [] },
    ]),
  );
}

const CHOICES = [
  { label: 'Alpha', value: 'alpha' },
  { label: 'Beta gamma', value: 'beta gamma', hint: 'Two words' },
];

/** For every field type: valid validators, appearances and a default value (data for compat tests). */
export function samplesFor(ids: SampleIds): Record<FieldType, FieldTypeSamples> {
  const linkTo = { item_types: [ids.model] };
  const blocks = { item_types: [ids.block] };
  return {
    string: {
      requiredValidators: {},
      validators: {
        required: {},
        unique: {},
        length: { min: 1, max: 40 },
        format: { custom_pattern: '^[a-z ]+$', description: 'Lowercase letters and spaces' },
        enum: { values: ['alpha', 'beta gamma'] },
      },
      appearances: editors({
        single_line: { heading: true, placeholder: 'A title' },
        string_radio_group: { radios: CHOICES },
        string_select: { options: CHOICES },
      }),
      defaultValue: 'alpha',
    },
    text: {
      requiredValidators: {},
      validators: {
        required: {},
        length: { max: 1000 },
        format: { custom_pattern: '\\S' },
        sanitized_html: { sanitize_before_validation: true },
      },
      appearances: editors({
        markdown: { toolbar: ['bold', 'italic', 'link'] },
        wysiwyg: { toolbar: ['format', 'bold', 'undo', 'redo'] },
        textarea: { placeholder: 'Write here' },
      }),
      defaultValue: 'Some *markdown* text',
    },
    boolean: {
      requiredValidators: {},
      validators: {},
      appearances: editors({
        boolean: {},
        boolean_radio_group: {
          positive_radio: { label: 'Yes' },
          negative_radio: { label: 'No', hint: 'The default' },
        },
      }),
      defaultValue: true,
    },
    integer: {
      requiredValidators: {},
      validators: { required: {}, number_range: { min: 0, max: 100 } },
      appearances: editors({ integer: { placeholder: '0' } }),
      defaultValue: 42,
    },
    float: {
      requiredValidators: {},
      validators: { required: {}, number_range: { min: -1.5, max: 99.5 } },
      appearances: editors({ float: { placeholder: '0.0' } }),
      defaultValue: 3.25,
    },
    date: {
      requiredValidators: {},
      validators: { required: {}, date_range: { min: '2020-01-01', max: '2030-12-31' } },
      appearances: editors({ date_picker: {} }),
      defaultValue: '2024-05-17',
    },
    date_time: {
      requiredValidators: {},
      validators: {
        required: {},
        date_time_range: { min: '2020-01-01T00:00:00Z', max: '2030-12-31T23:59:59Z' },
      },
      appearances: editors({ date_time_picker: {} }),
      defaultValue: '2024-05-17T10:30:00+00:00',
    },
    color: {
      requiredValidators: {},
      validators: { required: {} },
      appearances: editors({
        color_picker: { enable_alpha: true, preset_colors: ['#FF8000', '#00000080'] },
      }),
      defaultValue: { red: 255, green: 128, blue: 0, alpha: 255 },
    },
    json: {
      requiredValidators: {},
      validators: { required: {} },
      appearances: editors({
        json: {},
        string_multi_select: { options: CHOICES },
        string_checkbox_group: { options: CHOICES },
      }),
      defaultValue: '["alpha"]',
    },
    lat_lon: {
      requiredValidators: {},
      validators: { required: {} },
      appearances: editors({ map: {} }),
      defaultValue: { latitude: 45.4642, longitude: 9.19 },
    },
    seo: {
      requiredValidators: {},
      validators: {
        required_seo_fields: { title: true, image: true },
        file_size: { min_value: 1, min_unit: 'KB', max_value: 5, max_unit: 'MB' },
        image_dimensions: { width_min_value: 200, height_max_value: 4000 },
        image_aspect_ratio: { eq_ar_numerator: 16, eq_ar_denominator: 9 },
        title_length: { max: 60 },
        description_length: { min: 50, max: 160 },
      },
      appearances: editors({
        seo: { fields: ['title', 'description', 'image'], previews: ['google', 'twitter'] },
      }),
      defaultValue: null,
    },
    slug: {
      requiredValidators: {},
      validators: {
        required: {},
        unique: {},
        length: { min: 3, max: 80 },
        slug_format: { predefined_pattern: 'webpage_slug' },
        slug_title_field: { title_field_id: ids.titleField },
      },
      appearances: editors({
        slug: { url_prefix: 'https://example.com/', placeholder: 'my-page' },
      }),
      defaultValue: null,
    },
    video: {
      requiredValidators: {},
      validators: { required: {} },
      appearances: editors({ video: {} }),
      defaultValue: null,
    },
    file: {
      requiredValidators: {},
      validators: {
        required: {},
        file_size: { max_value: 10, max_unit: 'MB' },
        image_dimensions: { width_min_value: 100, width_max_value: 5000 },
        image_aspect_ratio: {
          min_ar_numerator: 1,
          min_ar_denominator: 2,
          max_ar_numerator: 2,
          max_ar_denominator: 1,
        },
        extension: { predefined_list: 'image' },
        required_alt_title: { alt: true },
      },
      appearances: editors({ file: {} }),
      defaultValue: null,
    },
    gallery: {
      requiredValidators: {},
      validators: {
        size: { min: 1, max: 10 },
        file_size: { min_value: 10, min_unit: 'B' },
        image_dimensions: { height_min_value: 10 },
        image_aspect_ratio: { max_ar_numerator: 3, max_ar_denominator: 1 },
        extension: { extensions: ['jpg', 'png'] },
        required_alt_title: { title: true, alt: false },
      },
      appearances: editors({ gallery: {} }),
      defaultValue: null,
    },
    link: {
      requiredValidators: { item_item_type: linkTo },
      validators: {
        item_item_type: {
          ...linkTo,
          on_publish_with_unpublished_references_strategy: 'publish_references',
          on_reference_unpublish_strategy: 'unpublish',
          on_reference_delete_strategy: 'fail',
        },
        required: {},
        unique: {},
      },
      appearances: editors({ link_select: {}, link_embed: {} }),
      defaultValue: null,
    },
    links: {
      requiredValidators: { items_item_type: linkTo },
      validators: { items_item_type: linkTo, size: { min: 1, max: 5 } },
      appearances: editors({ links_select: {}, links_embed: {} }),
      defaultValue: null,
    },
    rich_text: {
      requiredValidators: { rich_text_blocks: blocks },
      validators: { rich_text_blocks: blocks, size: { max: 3 } },
      appearances: editors({ rich_text: { start_collapsed: true } }),
      defaultValue: null,
    },
    single_block: {
      requiredValidators: { single_block_blocks: blocks },
      validators: { single_block_blocks: blocks, required: {} },
      appearances: editors({
        framed_single_block: { start_collapsed: true },
        frameless_single_block: { start_collapsed: false },
      }),
      defaultValue: null,
    },
    structured_text: {
      requiredValidators: { structured_text_blocks: blocks, structured_text_links: linkTo },
      validators: {
        structured_text_blocks: blocks,
        structured_text_links: { ...linkTo, on_reference_unpublish_strategy: 'fail' },
        required: {},
        length: { max: 5000 },
        structured_text_inline_blocks: blocks,
      },
      appearances: editors({
        structured_text: {
          nodes: ['heading', 'link', 'list'],
          marks: ['strong', 'emphasis'],
          heading_levels: [2, 3],
          blocks_start_collapsed: true,
          show_links_target_blank: false,
          show_links_meta_editor: true,
        },
      }),
      defaultValue: null,
    },
  };
}
