import type { FieldRow, ItemTypeRow } from '../../db/schema.ts';
import { checkApiKey } from '../api-key.ts';
import { DomainError, Issues } from '../errors.ts';
import { MAX_HINT_LENGTH } from '../limits.ts';
import { checkMaxLength, checkRequiredText } from '../text-checks.ts';
import {
  BLOCK_FORBIDDEN_FLAGS,
  BLOCK_FORBIDDEN_RELATIONSHIPS,
  ELIGIBLE_FIELD_TYPES,
  FIELD_RELATIONSHIPS,
  type FieldRelationship,
  type ItemTypeInput,
  RESERVED_API_KEYS,
} from './attributes.ts';

export type ItemTypeDraft = Omit<ItemTypeRow, 'seq' | 'created_at'>;

/** What the rules need to know beyond the model itself, gathered by the service. */
export type RuleContext = {
  isCreate: boolean;
  /** Fields of this model (none on create). */
  fields: Pick<FieldRow, 'id' | 'field_type'>[];
  workflowExists: boolean;
  nameTaken: boolean;
  apiKeyTaken: boolean;
};

export function newItemTypeDraft(id: string, draftModeDefault: boolean): ItemTypeDraft {
  return {
    id,
    name: '',
    api_key: '',
    singleton: false,
    sortable: false,
    tree: false,
    modular_block: false,
    draft_mode_active: draftModeDefault,
    draft_saving_active: false,
    all_locales_required: false,
    ordering_direction: null,
    ordering_meta: null,
    collection_appearance: 'compact',
    hint: null,
    inverse_relationships_enabled: false,
    has_singleton_item: false,
    ordering_field_id: null,
    presentation_title_field_id: null,
    presentation_image_field_id: null,
    title_field_id: null,
    image_preview_field_id: null,
    excerpt_field_id: null,
    workflow_id: null,
    singleton_item_id: null,
  };
}

/** Merges a request into the current state: omitted attributes keep their value. */
export function applyItemTypeInput(base: ItemTypeDraft, input: ItemTypeInput): ItemTypeDraft {
  const { attributes: a, relationships: r } = input;
  const next: ItemTypeDraft = { ...base };
  for (const key of [
    'name',
    'api_key',
    'singleton',
    'sortable',
    'tree',
    'modular_block',
    'draft_mode_active',
    'draft_saving_active',
    'all_locales_required',
    'ordering_direction',
    'ordering_meta',
    'hint',
    'inverse_relationships_enabled',
  ] as const) {
    if (a[key] !== undefined) (next as Record<string, unknown>)[key] = a[key];
  }
  // The correctly spelled attribute wins over the legacy alias when both are sent.
  const appearance = a.collection_appearance ?? a.collection_appeareance;
  if (appearance !== undefined) next.collection_appearance = appearance;
  for (const [relationship, column] of Object.entries(FIELD_RELATIONSHIPS)) {
    const value = r[relationship as FieldRelationship];
    if (value !== undefined) next[column] = value;
  }
  if (r.workflow !== undefined) next.workflow_id = r.workflow;
  // A block model has none of these; omitting them on a block means "off".
  if (next.modular_block && base.modular_block !== next.modular_block) {
    for (const flag of BLOCK_FORBIDDEN_FLAGS) if (a[flag] === undefined) next[flag] = false;
  }
  return next;
}

/**
 * Checks the merged state and fixes up what follows from it (ordering direction,
 * singleton item). Throws a ValidationFailed listing every failing attribute.
 */
export function validateItemType(
  before: ItemTypeDraft | null,
  next: ItemTypeDraft,
  input: ItemTypeInput,
  ctx: RuleContext,
): ItemTypeDraft {
  const issues = new Issues('ItemType');
  const { attributes: a } = input;

  if (before && before.modular_block !== next.modular_block) {
    throw new DomainError(
      'ITEM_TYPE_CANNOT_BE_CHANGED',
      'modular_block cannot be changed after a model is created',
      { field: 'modular_block' },
    );
  }

  if (checkRequiredText(issues, 'name', next.name) && ctx.nameTaken)
    issues.add('name', 'VALIDATION_UNIQUENESS', 'is already taken');
  checkApiKey(issues, next.api_key, { reserved: RESERVED_API_KEYS, taken: ctx.apiKeyTaken });

  if (next.modular_block) {
    for (const flag of BLOCK_FORBIDDEN_FLAGS) {
      if (next[flag]) issues.add(flag, 'VALIDATION_INVALID', 'must be false for a block model');
    }
    if (next.ordering_direction !== null)
      issues.add('ordering_direction', 'VALIDATION_INVALID', 'must be null for a block model');
    if (next.ordering_meta !== null)
      issues.add('ordering_meta', 'VALIDATION_INVALID', 'must be null for a block model');
    for (const relationship of BLOCK_FORBIDDEN_RELATIONSHIPS) {
      if (next[FIELD_RELATIONSHIPS[relationship]] !== null)
        issues.add(relationship, 'VALIDATION_INVALID', 'must be null for a block model');
    }
    if (next.workflow_id !== null)
      issues.add('workflow', 'VALIDATION_INVALID', 'must be null for a block model');
  }

  // sortable with tree, and draft_saving_active without draft_mode_active, are stored as
  // sent: DatoCMS documents neither as refused (docs/compatibility.md).
  checkMaxLength(issues, 'hint', next.hint, MAX_HINT_LENGTH);

  checkFieldRelationships(next, ctx, issues);
  if (next.workflow_id !== null && !ctx.workflowExists && !issues.has('workflow'))
    issues.add('workflow', 'VALIDATION_INVALID', 'workflow not found');

  const hasOrdering = next.ordering_field_id !== null || next.ordering_meta !== null;
  if (next.ordering_field_id !== null && next.ordering_meta !== null)
    issues.add('ordering_meta', 'VALIDATION_INVALID', 'cannot be set together with ordering_field');
  if (!hasOrdering && next.ordering_direction !== null) {
    if (a.ordering_direction !== undefined)
      issues.add(
        'ordering_direction',
        'VALIDATION_INVALID',
        'needs an ordering_field or ordering_meta',
      );
    else next.ordering_direction = null; // the ordering was just cleared
  }
  if (hasOrdering && next.ordering_direction === null) next.ordering_direction = 'asc';

  applySingletonItem(next, input);
  issues.throwIfAny();

  if (hasOrdering && (next.sortable || next.tree)) {
    throw new DomainError(
      'INVALID_ORDERING_FOR_SORTABLE_ITEM_TYPE',
      'a sortable or tree model is ordered by hand and cannot have an ordering field or meta',
    );
  }
  if (hasOrdering && next.singleton) {
    throw new DomainError(
      'INVALID_ORDERING_FOR_SINGLETON_ITEM_TYPE',
      'a singleton model cannot have an ordering field or meta',
    );
  }
  return next;
}

function checkFieldRelationships(next: ItemTypeDraft, ctx: RuleContext, issues: Issues): void {
  const fieldsById = new Map(ctx.fields.map((field) => [field.id, field]));
  for (const [relationship, column] of Object.entries(FIELD_RELATIONSHIPS)) {
    const fieldId = next[column];
    if (fieldId === null || issues.has(relationship)) continue;
    const field = fieldsById.get(fieldId);
    if (!field) {
      issues.add(relationship, 'VALIDATION_INVALID', 'must be a field of this model');
    } else if (
      !ELIGIBLE_FIELD_TYPES[relationship as FieldRelationship].includes(field.field_type)
    ) {
      issues.add(
        relationship,
        'VALIDATION_INVALID',
        `a ${field.field_type} field cannot be used as ${relationship}`,
      );
    }
  }
}

/**
 * `has_singleton_item` is set directly through the update, as DatoCMS lets it be: no record
 * is needed to set it true. A model that is not a singleton has no singleton
 * record, so leaving singleton mode clears both.
 */
function applySingletonItem(next: ItemTypeDraft, input: ItemTypeInput): void {
  if (!next.singleton) {
    next.singleton_item_id = null;
    next.has_singleton_item = false;
    return;
  }
  const requested = input.meta.has_singleton_item ?? input.attributes.has_singleton_item;
  if (requested !== undefined) next.has_singleton_item = requested;
}
