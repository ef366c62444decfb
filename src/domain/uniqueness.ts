import { violatedUniqueConstraint } from '../db/transaction.ts';
import { type RecordType, uniquenessFailure } from './errors.ts';

/**
 * Every unique constraint and the attribute it guards. Constraint names are the same
 * in every environment schema, so one table serves all of them.
 */
const UNIQUE_CONSTRAINTS: Readonly<Record<string, { recordType: RecordType; field: string }>> = {
  item_types_pkey: { recordType: 'ItemType', field: 'id' },
  item_types_api_key_key: { recordType: 'ItemType', field: 'api_key' },
  item_types_name_key: { recordType: 'ItemType', field: 'name' },
  fields_pkey: { recordType: 'Field', field: 'id' },
  fields_item_type_api_key_key: { recordType: 'Field', field: 'api_key' },
  fieldsets_pkey: { recordType: 'Fieldset', field: 'id' },
  workflows_pkey: { recordType: 'Workflow', field: 'id' },
  workflows_api_key_key: { recordType: 'Workflow', field: 'api_key' },
  webhooks_name_key: { recordType: 'Webhook', field: 'name' },
  roles_name_key: { recordType: 'Role', field: 'name' },
  access_tokens_name_key: { recordType: 'AccessToken', field: 'name' },
  // The CLI reads a taken environment id as a uniqueness error on `name`.
  environments_pkey: { recordType: 'Environment', field: 'name' },
};

/**
 * A unique index caught a race the checks could not see: report it as the checks
 * would. Any other error goes on unchanged.
 */
export function rethrowUniqueness(error: unknown): never {
  const constraint = violatedUniqueConstraint(error);
  const guarded = constraint === null ? undefined : UNIQUE_CONSTRAINTS[constraint];
  if (guarded) throw uniquenessFailure(guarded.recordType, guarded.field);
  throw error;
}
