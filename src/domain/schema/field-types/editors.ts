import { FIELD_TYPE_CATALOG } from './catalog.ts';
import {
  bool,
  checkParams,
  choices,
  hexColors,
  list,
  type ParamSpec,
  radio,
  subsetOf,
  text,
} from './params.ts';
import { isPlainObject, type Problems, quoteList } from './problems.ts';
import type { Appearance, FieldType } from './types.ts';

const MARKDOWN_TOOLBAR = [
  'heading',
  'bold',
  'italic',
  'strikethrough',
  'code',
  'unordered_list',
  'ordered_list',
  'quote',
  'link',
  'image',
  'fullscreen',
];

const WYSIWYG_TOOLBAR = [
  'format',
  'bold',
  'italic',
  'strikethrough',
  'code',
  'ordered_list',
  'unordered_list',
  'quote',
  'table',
  'link',
  'image',
  'show_source',
  'undo',
  'redo',
  'align_left',
  'align_center',
  'align_right',
  'align_justify',
  'outdent',
  'indent',
  'fullscreen',
];

/** The client typings' default wysiwyg toolbar. */
const WYSIWYG_DEFAULT_TOOLBAR = [
  'format',
  'bold',
  'italic',
  'strikethrough',
  'ordered_list',
  'unordered_list',
  'quote',
  'table',
  'link',
  'image',
  'show_source',
  'fullscreen',
];

const SEO_FIELDS = ['title', 'description', 'image', 'no_index', 'twitter_card'];
const SEO_PREVIEWS = ['google', 'twitter', 'slack', 'whatsapp', 'telegram', 'facebook', 'linkedin'];
// The client's types list six nodes, the default; the real API also returns and accepts
// the record nodes `inlineItem` and `itemLink` (seen in migrations generated from real
// projects), so they are allowed but not defaulted.
const DEFAULT_STRUCTURED_TEXT_NODES = [
  'blockquote',
  'code',
  'heading',
  'link',
  'list',
  'thematicBreak',
];
const STRUCTURED_TEXT_NODES = [...DEFAULT_STRUCTURED_TEXT_NODES, 'inlineItem', 'itemLink'];
const STRUCTURED_TEXT_MARKS = [
  'strong',
  'emphasis',
  'underline',
  'strikethrough',
  'code',
  'highlight',
];
const HEADING_LEVELS = [1, 2, 3, 4, 5, 6];

const NO_PARAMETERS: ParamSpec = { checks: {} };
// The client's types give the link editors no parameters, but DatoCMS returns
// `{filters: []}` on link fields and generated migrations replay it. What a non-empty list
// holds is not documented: it is stored as sent.
const LINK_PICKER: ParamSpec = { checks: { filters: list } };
const PLACEHOLDER: ParamSpec = { checks: { placeholder: text } };
const OPTIONS: ParamSpec = { checks: { options: choices }, required: ['options'] };

/**
 * Every built-in editor with its parameters. Defaults are those stated in the
 * client typings (src/fieldTypes/appearance/*.ts); parameters without one stay optional.
 */
export const EDITOR_RULES = {
  single_line: { checks: { heading: bool, placeholder: text }, defaults: { heading: false } },
  string_radio_group: { checks: { radios: choices }, required: ['radios'] },
  string_select: OPTIONS,
  markdown: {
    checks: { toolbar: subsetOf(MARKDOWN_TOOLBAR) },
    defaults: { toolbar: MARKDOWN_TOOLBAR },
  },
  wysiwyg: {
    checks: { toolbar: subsetOf(WYSIWYG_TOOLBAR) },
    defaults: { toolbar: WYSIWYG_DEFAULT_TOOLBAR },
  },
  textarea: PLACEHOLDER,
  boolean: NO_PARAMETERS,
  boolean_radio_group: {
    checks: { positive_radio: radio, negative_radio: radio },
    required: ['positive_radio', 'negative_radio'],
  },
  integer: PLACEHOLDER,
  float: PLACEHOLDER,
  date_picker: NO_PARAMETERS,
  date_time_picker: NO_PARAMETERS,
  color_picker: {
    checks: { enable_alpha: bool, preset_colors: hexColors },
    defaults: { enable_alpha: false, preset_colors: [] },
  },
  json: NO_PARAMETERS,
  string_multi_select: OPTIONS,
  string_checkbox_group: OPTIONS,
  map: NO_PARAMETERS,
  seo: {
    checks: { fields: subsetOf(SEO_FIELDS), previews: subsetOf(SEO_PREVIEWS) },
    defaults: { fields: SEO_FIELDS, previews: SEO_PREVIEWS },
  },
  slug: { checks: { url_prefix: text, placeholder: text } },
  video: NO_PARAMETERS,
  file: NO_PARAMETERS,
  gallery: NO_PARAMETERS,
  link_select: LINK_PICKER,
  link_embed: LINK_PICKER,
  links_select: LINK_PICKER,
  links_embed: LINK_PICKER,
  rich_text: { checks: { start_collapsed: bool }, defaults: { start_collapsed: false } },
  framed_single_block: { checks: { start_collapsed: bool }, defaults: { start_collapsed: false } },
  frameless_single_block: { checks: { start_collapsed: bool } },
  structured_text: {
    checks: {
      nodes: subsetOf(STRUCTURED_TEXT_NODES),
      marks: subsetOf(STRUCTURED_TEXT_MARKS),
      heading_levels: subsetOf(HEADING_LEVELS),
      blocks_start_collapsed: bool,
      show_links_target_blank: bool,
      show_links_meta_editor: bool,
    },
    defaults: {
      nodes: DEFAULT_STRUCTURED_TEXT_NODES,
      marks: STRUCTURED_TEXT_MARKS,
      heading_levels: HEADING_LEVELS,
      blocks_start_collapsed: false,
      show_links_target_blank: true,
      show_links_meta_editor: false,
    },
  },
} satisfies Record<string, ParamSpec>;

export type EditorName = keyof typeof EDITOR_RULES;

/** The type's default editor with its default parameters and no addons. */
export function defaultAppearance(fieldType: FieldType): Appearance {
  const editor = FIELD_TYPE_CATALOG[fieldType].defaultEditor;
  return { editor, parameters: checkParams(EDITOR_RULES[editor], {}).params, addons: [] };
}

const APPEARANCE_KEYS = ['editor', 'parameters', 'addons', 'field_extension'];

/**
 * Checks an appearance: a built-in editor of the type with its parameters (defaults
 * filled), or a plugin installed in the field's environment (`plugins`: the ids of the
 * environment's plugins the appearance names), whose parameters and field_extension are
 * stored as sent. Addons must each name an installed plugin. Returns it normalized.
 */
export function checkAppearance(
  problems: Problems,
  fieldType: FieldType,
  raw: unknown,
  plugins: ReadonlySet<string>,
): Appearance {
  if (!isPlainObject(raw)) {
    problems.invalid('must be an object with "editor", "parameters" and "addons"');
    return defaultAppearance(fieldType);
  }
  for (const key of Object.keys(raw)) {
    if (!APPEARANCE_KEYS.includes(key))
      problems.invalid(`unknown key "${key}" (accepted: ${quoteList(APPEARANCE_KEYS)})`);
  }
  const { editor, parameters, field_extension } = raw;
  const editors: readonly string[] = FIELD_TYPE_CATALOG[fieldType].editors;
  if (typeof editor !== 'string') {
    problems.invalid('"editor" must be a string');
    return defaultAppearance(fieldType);
  }
  const addons = checkAddons(problems, raw.addons, plugins);
  if (editors.includes(editor)) {
    if (field_extension !== undefined)
      problems.invalid('"field_extension" only applies to plugin editors');
    const checked = checkParams(EDITOR_RULES[editor as EditorName], parameters);
    for (const error of checked.errors) problems.invalid(`editor "${editor}": ${error}`);
    return { editor, parameters: checked.params, addons };
  }
  if (!plugins.has(editor)) {
    problems.invalid(
      `"${editor}" is not a built-in editor for ${fieldType} fields (available: ${quoteList(editors)}) nor a plugin of this environment`,
    );
    return defaultAppearance(fieldType);
  }
  if (!isPlainObject(parameters))
    problems.invalid(`editor "${editor}": parameters must be an object`);
  if (field_extension !== undefined && typeof field_extension !== 'string')
    problems.invalid('"field_extension" must be a string');
  return {
    editor,
    parameters: isPlainObject(parameters) ? parameters : {},
    addons,
    ...(typeof field_extension === 'string' ? { field_extension } : {}),
  };
}

const ADDON_KEYS = ['id', 'parameters', 'field_extension'];

/** Each addon names an installed plugin; its parameters are the plugin's, stored as sent. */
function checkAddons(
  problems: Problems,
  raw: unknown,
  plugins: ReadonlySet<string>,
): Appearance['addons'] {
  if (!Array.isArray(raw)) {
    problems.invalid('"addons" must be an array');
    return [];
  }
  const addons: Appearance['addons'] = [];
  raw.forEach((addon: unknown, index) => {
    const where = `addon ${index}`;
    if (!isPlainObject(addon) || typeof addon.id !== 'string') {
      problems.invalid(`${where} must be an object with a string "id"`);
      return;
    }
    const unknownKey = Object.keys(addon).find((key) => !ADDON_KEYS.includes(key));
    if (unknownKey !== undefined)
      problems.invalid(
        `${where}: unknown key "${unknownKey}" (accepted: ${quoteList(ADDON_KEYS)})`,
      );
    if (!plugins.has(addon.id))
      problems.invalid(`${where}: "${addon.id}" is not a plugin of this environment`);
    const parameters = addon.parameters ?? {};
    if (!isPlainObject(parameters)) problems.invalid(`${where}: parameters must be an object`);
    const { field_extension } = addon;
    if (field_extension !== undefined && typeof field_extension !== 'string')
      problems.invalid(`${where}: "field_extension" must be a string`);
    addons.push({
      id: addon.id,
      parameters: isPlainObject(parameters) ? parameters : {},
      ...(typeof field_extension === 'string' ? { field_extension } : {}),
    });
  });
  return addons;
}

/** Ids an appearance names that are not built-in editors: candidates for plugin ids. */
export function referencedPluginIds(fieldType: FieldType, appearance: unknown): string[] {
  if (!isPlainObject(appearance)) return [];
  const ids: string[] = [];
  const { editor, addons } = appearance;
  const editors: readonly string[] = FIELD_TYPE_CATALOG[fieldType].editors;
  if (typeof editor === 'string' && !editors.includes(editor)) ids.push(editor);
  if (Array.isArray(addons)) {
    for (const addon of addons as unknown[])
      if (isPlainObject(addon) && typeof addon.id === 'string') ids.push(addon.id);
  }
  return [...new Set(ids)];
}
