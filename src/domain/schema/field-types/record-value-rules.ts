import type { BlockRef, UploadMention, ValueReferences } from './block-refs.ts';
import { dastTextLength } from './dast.ts';
import { unsafeHtml } from './html-safety.ts';
import { isPlainObject } from './problems.ts';
import { matchesUserPattern } from './user-pattern.ts';
import type { ValidatorName } from './validators.ts';
import { VALUE_RULES, type ValueRule } from './value-validators.ts';

type Params = Record<string, unknown>;

/**
 * The `code` of a record value issue. A failed validator reports `VALIDATION_<NAME>`
 * (DatoCMS's VALIDATION_REQUIRED / VALIDATION_LENGTH / VALIDATION_FORMAT keep their names;
 * for the others no public DatoCMS example was found, so the pattern is our PROPOSAL);
 * `unique` reports VALIDATION_UNIQUENESS like every other uniqueness failure; a value of the
 * wrong shape VALIDATION_INVALID; a localized value with the wrong locales INVALID_LOCALES.
 */
export type RecordValueCode =
  | 'VALIDATION_INVALID'
  | 'INVALID_LOCALES'
  | 'VALIDATION_UNIQUENESS'
  | `VALIDATION_${Uppercase<Exclude<ValidatorName, 'unique'>>}`;

export function validatorCode(name: ValidatorName): RecordValueCode {
  return name === 'unique' ? 'VALIDATION_UNIQUENESS' : `VALIDATION_${uppercase(name)}`;
}

function uppercase<Name extends string>(name: Name): Uppercase<Name> {
  return name.toUpperCase() as Uppercase<Name>;
}

/**
 * A check only the records service can run, against the database: it returns what to look
 * up, and the service reports the failure (with validatorCode(validator)).
 */
export type DeferredCheck =
  /** No other record of the model may hold the same value (in the same locale). */
  | { validator: 'unique'; value: unknown }
  /** The records must exist in the environment and be of one of `item_types`. */
  | {
      validator: 'item_item_type' | 'items_item_type' | 'structured_text_links';
      ids: string[];
      item_types: string[];
    }
  /** Blocks named by id must exist; every block must be of one of `item_types`. */
  | {
      validator:
        | 'rich_text_blocks'
        | 'single_block_blocks'
        | 'structured_text_blocks'
        | 'structured_text_inline_blocks';
      blocks: BlockRef[];
      item_types: string[];
    }
  /** Checked against each upload's metadata (size, dimensions, format, default alt/title). */
  | {
      validator: UploadValidatorName;
      uploads: UploadMention[];
      params: Params;
    };

/** The validators judged against the metadata of the uploads a value names. */
export type UploadValidatorName =
  | 'file_size'
  | 'image_dimensions'
  | 'image_aspect_ratio'
  | 'extension'
  | 'required_alt_title';

export type RuleInput = {
  /** Already fits the field type's shape; null only for rules that see `presence`. */
  value: unknown;
  /** The validator's stored (checked, defaulted) parameters. */
  params: Params;
  /** What the value references (records, blocks, uploads), collected by the shape check. */
  refs: ValueReferences;
};

/** A problem message ("must …"), a check handed to the records service, or nothing. */
export type RuleOutcome = { problem: string } | { defer: DeferredCheck } | null;

export type RecordValueRule = {
  /** `values`: runs on non-null values only. `presence`: runs on null (empty) values too. */
  sees: 'values' | 'presence';
  check: (input: RuleInput) => RuleOutcome;
};

/** The rules shared with default values (value-validators.ts), looked up once. */
function shared(
  name: 'enum' | 'length' | 'format' | 'number_range' | 'date_range' | 'date_time_range',
): ValueRule {
  const rule = VALUE_RULES[name];
  if (!rule) throw new Error(`value-validators.ts has no "${name}" rule`);
  return rule;
}

const problem = (message: string | null): RuleOutcome => (message ? { problem: message } : null);

/** A pure check on a non-null value. */
function onValue(check: (value: unknown, params: Params) => string | null): RecordValueRule {
  return { sees: 'values', check: ({ value, params }) => problem(check(value, params)) };
}

/** Empty for `required`: null, an empty string or an empty list (gallery, links, blocks). */
export function isBlank(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

function bounds(count: number, params: Params, unit: string): string | null {
  const { min, eq, max, multiple_of: multipleOf } = params as Record<string, number | undefined>;
  if (eq !== undefined && count !== eq) return `must have exactly ${eq} ${unit} (has ${count})`;
  if (min !== undefined && count < min) return `must have at least ${min} ${unit} (has ${count})`;
  if (max !== undefined && count > max) return `must have at most ${max} ${unit} (has ${count})`;
  if (multipleOf !== undefined && count % multipleOf !== 0)
    return `must have a multiple of ${multipleOf} ${unit} (has ${count})`;
  return null;
}

const length = shared('length');

/** title_length / description_length: the SEO value's title or description, when set. */
function seoTextLength(key: 'title' | 'description'): RecordValueRule {
  return onValue((value, params) => {
    const text = isPlainObject(value) ? value[key] : undefined;
    if (typeof text !== 'string') return null;
    const failure = length(text, params);
    return failure ? `${key}: ${failure}` : null;
  });
}

/** DatoCMS's predefined "webpage_slug" format (PROPOSAL: its exact pattern is undocumented). */
const WEBPAGE_SLUG = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;

const SEO_PARTS = ['title', 'description', 'image', 'twitter_card'] as const;

function recordsToCheck(
  validator: 'item_item_type' | 'items_item_type' | 'structured_text_links',
): RecordValueRule {
  return {
    sees: 'values',
    check: ({ params, refs }) =>
      refs.records.length === 0
        ? null
        : {
            defer: {
              validator,
              ids: [...new Set(refs.records)],
              item_types: params.item_types as string[],
            },
          },
  };
}

function blocksToCheck(
  validator:
    | 'rich_text_blocks'
    | 'single_block_blocks'
    | 'structured_text_blocks'
    | 'structured_text_inline_blocks',
): RecordValueRule {
  return {
    sees: 'values',
    check: ({ params, refs }) => {
      const blocks =
        validator === 'structured_text_inline_blocks' ? refs.inlineBlocks : refs.blocks;
      return blocks.length === 0
        ? null
        : { defer: { validator, blocks, item_types: params.item_types as string[] } };
    },
  };
}

function uploadsToCheck(validator: UploadValidatorName): RecordValueRule {
  return {
    sees: 'values',
    check: ({ params, refs }) =>
      refs.uploads.length === 0 ? null : { defer: { validator, uploads: refs.uploads, params } },
  };
}

/**
 * A decision for EVERY validator of the registry (the `satisfies` below fails to compile when
 * validators.ts gains one without an entry here): what it means for a record value.
 */
export const RECORD_VALUE_RULES = {
  required: {
    sees: 'presence',
    check: ({ value }) => problem(isBlank(value) ? 'must be present' : null),
  },
  // Needs every other record of the model: the records service queries it (and holds it
  // under concurrent writes); here the value to look up is handed over.
  unique: { sees: 'values', check: ({ value }) => ({ defer: { validator: 'unique', value } }) },
  // Strings count characters; structured text counts the characters of its text (spans and
  // code), not of the JSON (PROPOSAL: DatoCMS does not document it).
  length: onValue((value, params) =>
    typeof value === 'string'
      ? length(value, params)
      : bounds(dastTextLength(value), params, 'characters of text'),
  ),
  format: onValue(shared('format')),
  enum: onValue(shared('enum')),
  number_range: onValue(shared('number_range')),
  date_range: onValue(shared('date_range')),
  date_time_range: onValue(shared('date_time_range')),
  slug_format: onValue((value, params) => {
    const slug = value as string;
    if (typeof params.custom_pattern === 'string')
      return matchesUserPattern(params.custom_pattern, slug) === false
        ? `must match the pattern /${params.custom_pattern}/`
        : null;
    return WEBPAGE_SLUG.test(slug)
      ? null
      : 'must be a web page slug: lowercase letters, digits, "_" and single "-" between them';
  }),
  // Names the string field the editor derives the slug from; it says nothing about the value.
  slug_title_field: { sees: 'values', check: () => null },
  item_item_type: recordsToCheck('item_item_type'),
  items_item_type: recordsToCheck('items_item_type'),
  structured_text_links: recordsToCheck('structured_text_links'),
  rich_text_blocks: blocksToCheck('rich_text_blocks'),
  single_block_blocks: blocksToCheck('single_block_blocks'),
  structured_text_blocks: blocksToCheck('structured_text_blocks'),
  structured_text_inline_blocks: blocksToCheck('structured_text_inline_blocks'),
  size: onValue((value, params) =>
    bounds(
      (value as unknown[]).length,
      params,
      (value as unknown[]).length === 1 ? 'item' : 'items',
    ),
  ),
  file_size: uploadsToCheck('file_size'),
  image_dimensions: uploadsToCheck('image_dimensions'),
  image_aspect_ratio: uploadsToCheck('image_aspect_ratio'),
  extension: uploadsToCheck('extension'),
  required_alt_title: uploadsToCheck('required_alt_title'),
  required_seo_fields: {
    sees: 'presence',
    check: ({ value, params }) => {
      const seo = isPlainObject(value) ? value : {};
      const missing = SEO_PARTS.filter((part) => params[part] === true && isBlank(seo[part]));
      return problem(missing.length > 0 ? `must have ${missing.join(', ')} set` : null);
    },
  },
  title_length: seoTextLength('title'),
  description_length: seoTextLength('description'),
  // With sanitize_before_validation the value was cleaned before the rules ran
  // (record-values.ts), so this only refuses what is left.
  sanitized_html: onValue((value) => unsafeHtml(value as string)),
} satisfies Record<ValidatorName, RecordValueRule>;
