import type { FieldRow } from '../../db/schema.ts';
import type { ModelView } from '../schema/model-state.ts';

/** A field as stored, less what the database adds (a new field is shown before it is written). */
export type FieldView = Omit<FieldRow, 'seq' | 'created_at'>;

/** A changed field, with its model as the change left it and the fields it shifted. */
export type FieldChange = { field: FieldView; model: ModelView; shifted: FieldView[] };
