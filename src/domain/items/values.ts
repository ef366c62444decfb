import { sql } from 'kysely';
import { excludeRecordKeys } from '../../db/environment-locks.ts';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import { anyText } from '../../db/query/any-text.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { type FieldIssue, type ValidationCode, ValidationFailed } from '../errors.ts';
import { emptyValue } from '../schema/field-types/empty-values.ts';
import { validatorCode } from '../schema/field-types/record-value-rules.ts';
import {
  checkRecordValues,
  type FieldDeferredCheck,
  type RecordValueIssue,
} from '../schema/field-types/record-values.ts';
import type { BlockSession } from './blocks/blocks.ts';
import type { ItemField } from './model-fields.ts';
import { uploadIssues } from './record-uploads.ts';

export type ValuesToCheck = {
  /** A record's model, or a block's block model. */
  model: Pick<ItemTypeRow, 'id' | 'all_locales_required'>;
  fields: readonly ItemField[];
  /** The environment's locales, in order. */
  locales: readonly string[];
  /** The record being written (its own values never clash with themselves). */
  itemId: string;
  /** The whole record's values by api_key: stored or default values already filled in. */
  attributes: Record<string, unknown>;
  /** The api_keys whose value is the field's default (a create's omitted fields). */
  defaulted?: ReadonlySet<string>;
  /** An update's sent api_keys (the others keep their stored values and locales). */
  sent?: ReadonlySet<string>;
  /** The record's blocks, when its model (or block model) has fields holding blocks. */
  blocks?: BlockSession;
  /** The level of the values' holder in the record: 0 for the record, a block's level. */
  depth?: number;
};

function fieldIssue(issue: RecordValueIssue): FieldIssue {
  return { ...issue, code: issue.code as ValidationCode };
}

/** The issue of a failed deferred check, named like the registry's own issues. */
function deferredIssue(check: FieldDeferredCheck, field: ItemField, message: string): FieldIssue {
  return {
    field: field.api_key,
    field_id: field.id,
    ...(check.locale ? { locale: check.locale } : {}),
    field_label: field.label,
    field_type: field.field_type,
    code: validatorCode(check.validator) as ValidationCode,
    validator: check.validator,
    message,
  };
}

/**
 * Whether a record of the model other than `exceptId` holds `value` at `path` (field id,
 * then locale): what `unique` and a duplicate's copy suffix both ask.
 */
export async function valueTaken(
  db: EnvQueryable,
  itemTypeId: string,
  path: readonly string[],
  value: unknown,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('items')
    .select('id')
    .where('item_type_id', '=', itemTypeId)
    .where(sql<boolean>`item_values #> ${[...path]} = ${JSON.stringify(value)}::jsonb`);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** What two changes storing the same unique value of a model both name. */
function uniqueValueKey(modelId: string, path: readonly string[], value: unknown): string {
  return `unique:${modelId}:${path.join('/')}:${JSON.stringify(value)}`;
}

/** Runs one check that needs the database; a problem message, or null. */
async function runDeferred(
  db: EnvQueryable,
  input: ValuesToCheck,
  check: FieldDeferredCheck,
): Promise<string | null> {
  switch (check.validator) {
    case 'unique': {
      // Record writes run concurrently: a change storing this value holds its key until
      // it commits, so the read below (a fresh snapshot, after the wait) sees it.
      const path = check.locale ? [check.field_id, check.locale] : [check.field_id];
      await excludeRecordKeys(db, [uniqueValueKey(input.model.id, path, check.value)]);
      const clash = await valueTaken(db, input.model.id, path, check.value, input.itemId);
      return clash ? 'is already taken by another record' : null;
    }
    case 'item_item_type':
    case 'items_item_type':
    case 'structured_text_links': {
      if (check.ids.length === 0) return null;
      // Key-share locks: a concurrent destroy of a target waits for this change to commit,
      // and a target deleted by a change that commits first is missing here.
      const found = await db
        .selectFrom('items')
        .select(['id', 'item_type_id'])
        .where(anyText('id', check.ids))
        .forKeyShare()
        .execute();
      const modelOf = new Map(found.map((row) => [row.id, row.item_type_id]));
      const missing = check.ids.filter((id) => !modelOf.has(id));
      if (missing.length > 0) return `links to missing record(s) ${missing.join(', ')}`;
      const wrong = check.ids.filter((id) => !check.item_types.includes(modelOf.get(id) ?? ''));
      if (wrong.length > 0)
        return `links to record(s) ${wrong.join(', ')} of a model the field does not allow`;
      return null;
    }
    case 'rich_text_blocks':
    case 'single_block_blocks':
    case 'structured_text_blocks':
    case 'structured_text_inline_blocks': {
      // Blocks that failed their own checks are still objects here, already reported.
      const wrong = check.blocks.filter((ref) => {
        const modelId = typeof ref === 'string' ? input.blocks?.modelOf(ref) : undefined;
        return modelId !== undefined && !check.item_types.includes(modelId);
      });
      return wrong.length > 0
        ? `holds block(s) ${wrong.join(', ')} of a block model the field does not allow`
        : null;
    }
    default:
      // Upload checks run together, against one read of the uploads (record-uploads.ts).
      return null;
  }
}

/**
 * Checks a record's values against its fields (registry shapes and validators, then the
 * checks that need the database) and returns them keyed by field id, ready to store.
 * Every issue is reported at once as INVALID_FIELD.
 */
export async function checkItemValues(
  db: EnvQueryable,
  input: ValuesToCheck,
  unknownKeys: readonly string[],
): Promise<Record<string, unknown>> {
  const blockIssues: FieldIssue[] = [];
  // Blocks sent inline are checked and given ids first: the values below name blocks by id.
  const attributes = input.blocks
    ? await input.blocks.resolve(input.fields, input.attributes, blockIssues, input.depth)
    : input.attributes;
  const checked = checkRecordValues(input.fields, attributes, {
    locales: input.locales,
    allLocalesRequired: input.model.all_locales_required,
    ...(input.defaulted ? { defaulted: input.defaulted } : {}),
    ...(input.sent ? { sent: input.sent } : {}),
  });
  const issues: FieldIssue[] = unknownKeys.map((key) => ({
    field: key,
    code: 'VALIDATION_INVALID',
    message: 'the model has no field with this api_key',
  }));
  issues.push(...checked.issues.map(fieldIssue), ...blockIssues);
  issues.push(
    ...(await uploadIssues(
      db,
      input.fields,
      input.locales,
      checked.uploads,
      checked.deferred.filter((check) => 'uploads' in check),
    )),
  );
  const byId = new Map(input.fields.map((field) => [field.id, field]));
  for (const check of checked.deferred) {
    const field = byId.get(check.field_id);
    const problem = field ? await runDeferred(db, input, check) : null;
    if (field && problem) issues.push(deferredIssue(check, field, problem));
  }
  if (issues.length > 0) throw new ValidationFailed('Item', issues);
  const values: Record<string, unknown> = {};
  for (const field of input.fields)
    values[field.id] = checked.values[field.api_key] ?? emptyValue(field.field_type);
  return values;
}
