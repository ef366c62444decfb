import type { FieldRow } from '../../db/schema.ts';
import { checkApiKey } from '../api-key.ts';
import { DomainError, type Issues } from '../errors.ts';
import {
  MAX_ENUM_VALUES,
  MAX_FIELD_JSON_LENGTH,
  MAX_HINT_LENGTH,
  MAX_NAME_LENGTH,
  MAX_VALIDATOR_ITEM_TYPES,
} from '../limits.ts';
import {
  type Appearance,
  convertFieldType,
  convertLocalization,
  defaultAppearance,
  emptyDefaultValue,
  type FieldDefinition,
  type FieldType,
  isFieldType,
} from '../schema/field-types/index.ts';
import { isPlainObject } from '../schema/field-types/problems.ts';
import { checkMaxLength, checkRequiredText } from '../text-checks.ts';
import {
  CONTENT_LINK_OPTIONAL_TYPES,
  DEEP_FILTERING_TYPES,
  type FieldAttributes,
  type FieldInput,
  RESERVED_FIELD_API_KEYS,
} from './attributes.ts';
import type { FieldDraft } from './repo.ts';

/** The part of a stored field the field-type registry checks. */
export function definitionOf(row: FieldDraft): FieldDefinition {
  if (!isFieldType(row.field_type)) throw new Error(`field ${row.id} has unknown type`);
  return {
    field_type: row.field_type,
    localized: row.localized,
    validators: row.validators,
    appearance: row.appearance as Appearance,
    default_value: row.default_value,
  };
}

/**
 * The appearance sent, under either spelling; the correct one wins. The legacy
 * `type` is dropped: the editor says how the field is shown.
 */
function sentAppearance(a: FieldAttributes): Appearance | undefined {
  const sent = a.appearance ?? a.appeareance;
  if (!sent) return undefined;
  const { type: _legacyType, ...appearance } = sent;
  return { ...appearance, addons: appearance.addons ?? [] };
}

/** Does the request touch what the field-type registry checks? */
export function touchesDefinition(a: FieldAttributes): boolean {
  return (
    a.field_type !== undefined ||
    a.localized !== undefined ||
    a.validators !== undefined ||
    sentAppearance(a) !== undefined ||
    a.default_value !== undefined
  );
}

/** A new field's definition: what was sent, the type's defaults for the rest. */
export function newDefinition(
  fieldType: FieldType,
  a: FieldAttributes,
  locales: string[],
): FieldDefinition {
  const localized = a.localized ?? false;
  return {
    field_type: fieldType,
    localized,
    validators: a.validators ?? {},
    appearance: sentAppearance(a) ?? defaultAppearance(fieldType),
    default_value:
      a.default_value !== undefined ? a.default_value : emptyDefaultValue(localized, locales),
  };
}

/**
 * The definition an update asks for: a type change and a localization toggle convert
 * the current one first, then sent values replace theirs. Null when
 * the type conversion is not allowed (reported on `field_type`).
 */
export function updatedDefinition(
  issues: Issues,
  current: FieldDefinition,
  a: FieldAttributes,
  locales: string[],
): FieldDefinition | null {
  let next = current;
  if (a.field_type !== undefined && a.field_type !== current.field_type) {
    const converted = convertFieldType(current, a.field_type);
    if (!converted) {
      issues.add(
        'field_type',
        'VALIDATION_INVALID',
        `a ${current.field_type} field cannot be converted to ${a.field_type}`,
      );
      return null;
    }
    next = converted;
  }
  if (a.localized !== undefined && a.localized !== next.localized) {
    next = convertLocalization(next, a.localized, locales);
  }
  const appearance = sentAppearance(a);
  return {
    ...next,
    validators: a.validators ?? next.validators,
    appearance: appearance ?? next.appearance,
    default_value: a.default_value !== undefined ? a.default_value : next.default_value,
  };
}

/**
 * Lays a request over the current field (or a blank one): omitted attributes keep their
 * value, null clears. A type change that makes a flag impossible resets that flag
 * unless the request sets it.
 */
export function applyFieldInput(
  base: FieldDraft,
  input: FieldInput,
  definition: FieldDefinition,
): FieldDraft {
  const a = input.attributes;
  const next: FieldDraft = { ...base, ...definition };
  if (a.label !== undefined) next.label = a.label;
  if (a.api_key !== undefined) next.api_key = a.api_key;
  if (a.hint !== undefined) next.hint = a.hint;
  if (a.deep_filtering_enabled !== undefined)
    next.deep_filtering_enabled = a.deep_filtering_enabled;
  else if (!DEEP_FILTERING_TYPES.includes(next.field_type)) next.deep_filtering_enabled = false;
  if (a.content_link_enabled !== undefined) next.content_link_enabled = a.content_link_enabled;
  else if (!CONTENT_LINK_OPTIONAL_TYPES.includes(next.field_type)) next.content_link_enabled = true;
  if (input.relationships.fieldset !== undefined) next.fieldset_id = input.relationships.fieldset;
  return next;
}

export type FieldRuleContext = {
  isCreate: boolean;
  /** The model's other fields. */
  siblings: readonly Pick<FieldRow, 'id' | 'api_key' | 'label'>[];
  /** Ids of the model's fieldsets. */
  fieldsetIds: ReadonlySet<string>;
};

/** The per-attribute rules of a field, in declaration order. */
export function checkFieldAttributes(
  issues: Issues,
  draft: FieldDraft,
  a: FieldAttributes,
  ctx: FieldRuleContext,
): void {
  if (ctx.isCreate || a.label !== undefined) checkRequiredText(issues, 'label', draft.label);
  if (ctx.isCreate || a.api_key !== undefined) {
    checkApiKey(issues, draft.api_key, {
      reserved: RESERVED_FIELD_API_KEYS,
      taken: ctx.siblings.some((field) => field.api_key === draft.api_key),
    });
  }
  checkMaxLength(issues, 'hint', draft.hint, MAX_HINT_LENGTH);
  checkFieldSizes(issues, draft);
  if (draft.deep_filtering_enabled && !DEEP_FILTERING_TYPES.includes(draft.field_type)) {
    issues.add(
      'deep_filtering_enabled',
      'VALIDATION_INVALID',
      `only ${DEEP_FILTERING_TYPES.join(', ')} fields can enable deep filtering`,
    );
  }
  if (!draft.content_link_enabled && !CONTENT_LINK_OPTIONAL_TYPES.includes(draft.field_type)) {
    issues.add(
      'content_link_enabled',
      'VALIDATION_INVALID',
      `only ${CONTENT_LINK_OPTIONAL_TYPES.join(', ')} fields can disable content links`,
    );
  }
  if (draft.fieldset_id !== null && !ctx.fieldsetIds.has(draft.fieldset_id)) {
    issues.add('fieldset', 'VALIDATION_INVALID', 'must be a fieldset of the same model');
  }
}

/** Which list of one validator's parameters is too long, or null. */
function validatorSizeProblem(name: string, params: unknown): string | null {
  if (!isPlainObject(params)) return null;
  const { item_types: itemTypes, values } = params;
  if (Array.isArray(itemTypes) && itemTypes.length > MAX_VALIDATOR_ITEM_TYPES)
    return `item_types: at most ${MAX_VALIDATOR_ITEM_TYPES} ids`;
  if (name !== 'enum' || !Array.isArray(values)) return null;
  if (values.length > MAX_ENUM_VALUES) return `values: at most ${MAX_ENUM_VALUES} values`;
  if (values.some((value) => typeof value === 'string' && value.length > MAX_NAME_LENGTH))
    return `values: each must be at most ${MAX_NAME_LENGTH} characters`;
  return null;
}

/**
 * The JSON attributes are bounded as a whole, and the lists a client may grow inside
 * validators one by one, before the field-type registry walks them.
 */
function checkFieldSizes(issues: Issues, draft: FieldDraft): void {
  for (const attribute of ['validators', 'appearance', 'default_value'] as const) {
    const json = JSON.stringify(draft[attribute]) ?? '';
    if (json.length > MAX_FIELD_JSON_LENGTH) {
      const message = `must be at most ${MAX_FIELD_JSON_LENGTH} characters as JSON`;
      issues.add(attribute, 'VALIDATION_LENGTH', message);
    }
  }
  if (issues.has('validators') || !isPlainObject(draft.validators)) return;
  for (const [name, params] of Object.entries(draft.validators)) {
    const problem = validatorSizeProblem(name, params);
    if (problem) {
      issues.add('validators', 'VALIDATION_LENGTH', `${name}.${problem}`);
      return;
    }
  }
}

function sameLabel(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Two fields of one model may not share a label (case-insensitive). */
export function checkLabelClash(draft: FieldDraft, siblings: FieldRuleContext['siblings']): void {
  const clash = siblings.find((field) => sameLabel(field.label, draft.label));
  if (clash) {
    throw new DomainError(
      'CLASHING_FIELD_LABELS',
      `another field of this model (${clash.api_key}) is labelled "${clash.label}"`,
      { label: draft.label, field_id: clash.id },
    );
  }
}

/** The smallest N for which "<label> (copy #N)" and "<api_key>_copyN" are both free. */
export function freeCopyNumber(
  source: Pick<FieldRow, 'label' | 'api_key'>,
  fields: FieldRuleContext['siblings'],
): number {
  for (let n = 1; ; n++) {
    const label = `${source.label} (copy #${n})`;
    const apiKey = `${source.api_key}_copy${n}`;
    if (!fields.some((f) => sameLabel(f.label, label) || f.api_key === apiKey)) return n;
  }
}
