/**
 * The field-type registry: per field type, the validators, editors and default values it
 * accepts, with the checks and conversions the fields service runs. Pure: the
 * service loads what the checks need (FieldCheckContext) and reports the Issues.
 */
import type { Issues } from '../../errors.ts';
import { checkDefaultValue } from './default-values.ts';
import { checkAppearance } from './editors.ts';
import { Problems } from './problems.ts';
import type { FieldCheckContext, FieldDefinition } from './types.ts';
import { checkValidators } from './validators.ts';

export { type BlockRef, noReferences, type ValueReferences } from './block-refs.ts';
export { convertFieldType, convertValue } from './conversion.ts';
export { convertLocalization, emptyDefaultValue } from './default-values.ts';
export { defaultAppearance } from './editors.ts';
export { emptyValue, isListType, orEmpty, withEmptyValues } from './empty-values.ts';
export {
  type DeferredCheck,
  isBlank,
  RECORD_VALUE_RULES,
  type RecordValueCode,
  validatorCode,
} from './record-value-rules.ts';
export { RECORD_VALUE_SHAPES } from './record-value-shapes.ts';
export {
  checkRecordValue,
  checkRecordValues,
  type FieldDeferredCheck,
  type RecordField,
  type RecordLocalesOptions,
  type RecordValueCheck,
  type RecordValueContext,
  type RecordValueIssue,
  recordLocales,
} from './record-values.ts';
export {
  type Appearance,
  FIELD_TYPES,
  type FieldCheckContext,
  type FieldDefinition,
  type FieldType,
  isFieldType,
} from './types.ts';
export { referencedItemTypeIds, VALIDATOR_RULES, type ValidatorName } from './validators.ts';

/**
 * Checks validators, appearance and default_value of a field; each failing attribute adds
 * one issue ('validators' | 'appearance' | 'default_value'). Returns what gets stored:
 * validator and editor defaults filled, localized defaults keyed by every site locale.
 */
export function checkFieldDefinition(
  issues: Issues,
  definition: FieldDefinition,
  context: FieldCheckContext,
): FieldDefinition {
  const validatorProblems = new Problems();
  const validators = checkValidators(
    validatorProblems,
    definition.field_type,
    definition.validators,
    context,
  );
  validatorProblems.reportTo(issues, 'validators');

  const appearanceProblems = new Problems();
  const appearance = checkAppearance(
    appearanceProblems,
    definition.field_type,
    definition.appearance,
    context.plugins,
  );
  appearanceProblems.reportTo(issues, 'appearance');

  const defaultValueProblems = new Problems();
  const default_value = checkDefaultValue(defaultValueProblems, definition, context.locales);
  defaultValueProblems.reportTo(issues, 'default_value');

  return { ...definition, validators, appearance, default_value };
}
