import { FIELD_TYPE_CATALOG } from './catalog.ts';
import { instantOf } from './iso-dates.ts';
import {
  bool,
  checkParams,
  float,
  idList,
  integer,
  isoDate,
  isoDateTime,
  oneOf,
  optionalStringList,
  type ParamSpec,
  regexp,
  stringList,
  text,
} from './params.ts';
import { isPlainObject, type Problems, quoteList } from './problems.ts';
import type { FieldCheckContext, FieldType } from './types.ts';

type Params = Record<string, unknown>;

/** A rule between parameters ("at least one of", "min ≤ max"…); runs once each value is valid. */
type CrossCheck = (params: Params) => string | null;

/** A rule against the rest of the schema (referenced item types, sibling fields). */
type ContextCheck = (params: Params, context: FieldCheckContext) => string[];

type ValidatorRule = ParamSpec & {
  readonly cross?: readonly CrossCheck[];
  readonly context?: ContextCheck;
};

/**
 * Whether a parameter is in use. An empty list is not: DatoCMS returns
 * `{extensions: [], predefined_list: "image"}`.
 */
const given = (params: Params, key: string) => {
  const value = params[key];
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
};

function atLeastOne(...keys: string[]): CrossCheck {
  return (p) =>
    keys.some((key) => given(p, key)) ? null : `needs at least one of ${quoteList(keys)}`;
}

function exactlyOne(a: string, b: string): CrossCheck {
  return (p) => (given(p, a) !== given(p, b) ? null : `needs exactly one of "${a}" or "${b}"`);
}

function notAbove(low: string, high: string, measure = (v: unknown) => v as number): CrossCheck {
  return (p) =>
    !given(p, low) || !given(p, high) || measure(p[low]) <= measure(p[high])
      ? null
      : `"${low}" must not be greater than "${high}"`;
}

/** Value/unit or numerator/denominator pairs: each given whole, at least one given. */
function completePairs(pairs: readonly (readonly [string, string])[]): CrossCheck {
  return (p) => {
    for (const [a, b] of pairs) {
      if (given(p, a) !== given(p, b)) return `"${a}" and "${b}" must be given together`;
    }
    return pairs.some(([a]) => given(p, a))
      ? null
      : `needs at least one complete pair of ${pairs.map(([a, b]) => `"${a}"/"${b}"`).join(', ')}`;
  };
}

const UNIT_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 * 1024 };

function fileSizeBytes(kind: 'min' | 'max'): (p: Params) => number {
  return (p) => (p[`${kind}_value`] as number) * (UNIT_BYTES[p[`${kind}_unit`] as string] ?? 1);
}

/** item_types must name existing item types of the wanted kind. */
function referencesItemTypes(kind: 'models' | 'blocks'): ContextCheck {
  return (params, context) =>
    (params.item_types as string[]).flatMap((id) => {
      const itemType = context.itemTypes.get(id);
      if (!itemType) return [`item type "${id}" does not exist`];
      if (kind === 'models' && itemType.modular_block)
        return [`"${id}" is a block model; only non-block models can be referenced here`];
      if (kind === 'blocks' && !itemType.modular_block)
        return [`"${id}" is not a block model; only block models can be embedded here`];
      return [];
    });
}

const titleFieldIsSiblingString: ContextCheck = (params, context) => {
  const id = params.title_field_id as string;
  const field = context.siblingFields.find((sibling) => sibling.id === id);
  if (!field) return [`"title_field_id": field "${id}" is not a field of this model`];
  if (field.field_type !== 'string')
    return [`"title_field_id": field "${id}" is a ${field.field_type} field, not a string field`];
  return [];
};

const nonNegative = integer(0);
const positive = integer(1);

const minMaxLength: ValidatorRule = {
  checks: { min: nonNegative, max: nonNegative },
  cross: [atLeastOne('min', 'max'), notAbove('min', 'max')],
};

function dateRange(check: typeof isoDate): ValidatorRule {
  return {
    checks: { min: check, max: check },
    cross: [atLeastOne('min', 'max'), notAbove('min', 'max', (v) => instantOf(v as string))],
  };
}

function linkRule(onReferenceUnpublish: 'fail' | 'delete_references'): ValidatorRule {
  return {
    checks: {
      item_types: idList,
      on_publish_with_unpublished_references_strategy: oneOf(['fail', 'publish_references']),
      on_reference_unpublish_strategy: oneOf(['fail', 'unpublish', 'delete_references']),
      on_reference_delete_strategy: oneOf(['fail', 'delete_references']),
    },
    required: ['item_types'],
    defaults: {
      on_publish_with_unpublished_references_strategy: 'fail',
      on_reference_unpublish_strategy: onReferenceUnpublish,
      on_reference_delete_strategy: 'delete_references',
    },
    context: referencesItemTypes('models'),
  };
}

const blocksRule: ValidatorRule = {
  checks: { item_types: idList },
  required: ['item_types'],
  context: referencesItemTypes('blocks'),
};

/** Every validator and its parameter rules (the client's typings). */
export const VALIDATOR_RULES = {
  required: { checks: {} },
  unique: { checks: {} },
  length: {
    checks: { min: nonNegative, eq: nonNegative, max: nonNegative },
    cross: [atLeastOne('min', 'eq', 'max'), notAbove('min', 'max')],
  },
  format: {
    checks: {
      custom_pattern: regexp,
      predefined_pattern: oneOf(['email', 'url']),
      description: text,
    },
    cross: [
      exactlyOne('custom_pattern', 'predefined_pattern'),
      (p) =>
        given(p, 'description') && !given(p, 'custom_pattern')
          ? '"description" is only allowed together with "custom_pattern"'
          : null,
    ],
  },
  enum: { checks: { values: stringList }, required: ['values'] },
  sanitized_html: {
    checks: { sanitize_before_validation: bool },
    defaults: { sanitize_before_validation: false },
  },
  number_range: {
    checks: { min: float, max: float },
    cross: [atLeastOne('min', 'max'), notAbove('min', 'max')],
  },
  date_range: dateRange(isoDate),
  date_time_range: dateRange(isoDateTime),
  size: {
    checks: { min: nonNegative, eq: nonNegative, max: nonNegative, multiple_of: positive },
    cross: [atLeastOne('min', 'eq', 'max', 'multiple_of'), notAbove('min', 'max')],
  },
  file_size: {
    checks: {
      min_value: nonNegative,
      min_unit: oneOf(['B', 'KB', 'MB']),
      max_value: nonNegative,
      max_unit: oneOf(['B', 'KB', 'MB']),
    },
    cross: [
      completePairs([
        ['min_value', 'min_unit'],
        ['max_value', 'max_unit'],
      ]),
      (p) =>
        given(p, 'min_value') &&
        given(p, 'max_value') &&
        fileSizeBytes('min')(p) > fileSizeBytes('max')(p)
          ? 'the minimum size must not be greater than the maximum size'
          : null,
    ],
  },
  image_dimensions: {
    checks: {
      width_min_value: nonNegative,
      width_max_value: nonNegative,
      height_min_value: nonNegative,
      height_max_value: nonNegative,
    },
    cross: [
      atLeastOne('width_min_value', 'width_max_value', 'height_min_value', 'height_max_value'),
      notAbove('width_min_value', 'width_max_value'),
      notAbove('height_min_value', 'height_max_value'),
    ],
  },
  image_aspect_ratio: {
    checks: {
      min_ar_numerator: positive,
      min_ar_denominator: positive,
      eq_ar_numerator: positive,
      eq_ar_denominator: positive,
      max_ar_numerator: positive,
      max_ar_denominator: positive,
    },
    cross: [
      completePairs([
        ['min_ar_numerator', 'min_ar_denominator'],
        ['eq_ar_numerator', 'eq_ar_denominator'],
        ['max_ar_numerator', 'max_ar_denominator'],
      ]),
    ],
  },
  extension: {
    checks: {
      extensions: optionalStringList,
      predefined_list: oneOf(['image', 'transformable_image', 'video', 'document']),
    },
    cross: [exactlyOne('extensions', 'predefined_list')],
  },
  required_alt_title: {
    checks: { title: bool, alt: bool },
    cross: [atLeastOne('title', 'alt')],
  },
  required_seo_fields: {
    checks: { title: bool, description: bool, image: bool, twitter_card: bool },
    cross: [atLeastOne('title', 'description', 'image', 'twitter_card')],
  },
  title_length: minMaxLength,
  description_length: minMaxLength,
  slug_format: {
    checks: { custom_pattern: regexp, predefined_pattern: oneOf(['webpage_slug']) },
    cross: [exactlyOne('custom_pattern', 'predefined_pattern')],
  },
  slug_title_field: {
    checks: { title_field_id: text },
    required: ['title_field_id'],
    context: titleFieldIsSiblingString,
  },
  item_item_type: linkRule('fail'),
  items_item_type: linkRule('fail'),
  rich_text_blocks: blocksRule,
  single_block_blocks: blocksRule,
  structured_text_blocks: blocksRule,
  structured_text_inline_blocks: blocksRule,
  structured_text_links: linkRule('delete_references'),
} satisfies Record<string, ValidatorRule>;

export type ValidatorName = keyof typeof VALIDATOR_RULES;

/** The validators whose `item_types` parameter names item types. */
const REFERENCING_VALIDATORS: readonly ValidatorName[] = [
  'item_item_type',
  'items_item_type',
  'rich_text_blocks',
  'single_block_blocks',
  'structured_text_blocks',
  'structured_text_inline_blocks',
  'structured_text_links',
];

export function referencedItemTypeIds(validators: Record<string, unknown>): string[] {
  if (!isPlainObject(validators)) return [];
  const ids = new Set<string>();
  for (const [name, params] of Object.entries(validators)) {
    if (!(REFERENCING_VALIDATORS as readonly string[]).includes(name)) continue;
    const itemTypes = isPlainObject(params) ? params.item_types : undefined;
    if (!Array.isArray(itemTypes)) continue;
    for (const id of itemTypes) if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}

/** One validator's parameters: errors, or the parameters to store (defaults filled). */
function checkValidator(
  rule: ValidatorRule,
  raw: unknown,
  context: FieldCheckContext,
): { params: Params; errors: string[] } {
  const { params, errors } = checkParams(rule, raw);
  if (errors.length > 0) return { params, errors };
  const crossErrors = (rule.cross ?? []).flatMap((check) => check(params) ?? []);
  if (crossErrors.length > 0) return { params, errors: crossErrors };
  return { params, errors: rule.context?.(params, context) ?? [] };
}

/**
 * Checks the validators object of a field: names allowed and required for the type, each
 * validator's parameters and references. Returns the valid validators, normalized.
 */
export function checkValidators(
  problems: Problems,
  fieldType: FieldType,
  raw: unknown,
  context: FieldCheckContext,
): Record<string, Params> {
  if (!isPlainObject(raw)) {
    problems.invalid('must be an object mapping validator names to their parameters');
    return {};
  }
  const { requiredValidators, otherValidators } = FIELD_TYPE_CATALOG[fieldType];
  const available: readonly string[] = [...requiredValidators, ...otherValidators];
  for (const name of Object.keys(raw)) {
    if (available.includes(name)) continue;
    problems.invalid(
      Object.hasOwn(VALIDATOR_RULES, name)
        ? `the "${name}" validator is not available for ${fieldType} fields (available: ${quoteList(available)})`
        : `unknown validator "${name}"`,
    );
  }
  for (const name of requiredValidators) {
    if (!Object.hasOwn(raw, name))
      problems.required(`${fieldType} fields require the "${name}" validator`);
  }
  if (context.isBlockModel && Object.hasOwn(raw, 'unique'))
    problems.invalid('the "unique" validator is not available on fields of block models');

  const normalized: Record<string, Params> = {};
  for (const [name, params] of Object.entries(raw)) {
    if (!available.includes(name)) continue;
    const rule: ValidatorRule = VALIDATOR_RULES[name as ValidatorName];
    const checked = checkValidator(rule, params, context);
    for (const error of checked.errors) problems.invalid(`validator "${name}": ${error}`);
    if (checked.errors.length === 0) normalized[name] = checked.params;
  }
  return normalized;
}
