import { sql } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import { preparedShape } from '../../db/query/prepared.ts';
import type { FieldIssue, ValidationCode } from '../errors.ts';
import { validatorCode } from '../schema/field-types/record-value-rules.ts';
import type {
  FieldDeferredCheck,
  FieldUploadMention,
} from '../schema/field-types/record-values.ts';
import { type UploadFacts, uploadProblem } from '../schema/field-types/upload-rules.ts';
import type { ItemField } from './model-fields.ts';

type UploadCheck = Extract<FieldDeferredCheck, { uploads: unknown }>;

/**
 * The stored metadata of uploads by id: one statement of fixed shape (the ids as one array
 * parameter), prepared once per connection, since every write naming uploads runs it.
 */
const uploadsByIds = preparedShape((db: EnvQueryable, ids: string[]) =>
  db
    .selectFrom('uploads')
    .select(['id', 'path', 'size', 'mime_type', 'format', 'is_image', 'width', 'height'])
    .select('default_field_metadata')
    .where(sql<boolean>`id = ANY(${ids}::text[])`),
);

/** The metadata of the named uploads of the environment, in one read. */
async function uploadFacts(db: EnvQueryable, ids: string[]): Promise<Map<string, UploadFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await uploadsByIds(db, ids);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        path: row.path,
        size: Number(row.size),
        mimeType: row.mime_type,
        format: row.format,
        isImage: row.is_image,
        width: row.width,
        height: row.height,
        defaultFieldMetadata: row.default_field_metadata,
      },
    ]),
  );
}

function naming(field: ItemField, locale: string | undefined) {
  return {
    field: field.api_key,
    field_id: field.id,
    ...(locale ? { locale } : {}),
    field_label: field.label,
    field_type: field.field_type,
  };
}

/**
 * The issues of the uploads a record's values name: each must be an upload of this
 * environment (else VALIDATION_INVALID on the field and locale naming it), and each
 * upload validator of the field judges the uploads' stored metadata. One read for all.
 */
export async function uploadIssues(
  db: EnvQueryable,
  fields: readonly ItemField[],
  locales: readonly string[],
  mentions: readonly FieldUploadMention[],
  checks: readonly UploadCheck[],
): Promise<FieldIssue[]> {
  if (mentions.length === 0) return [];
  const facts = await uploadFacts(db, [...new Set(mentions.map((m) => m.upload_id))]);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const issues: FieldIssue[] = [];
  const missingBy = new Map<string, { mention: FieldUploadMention; ids: string[] }>();
  for (const mention of mentions) {
    if (facts.has(mention.upload_id)) continue;
    const key = `${mention.field_id}\u0000${mention.locale ?? ''}`;
    const entry = missingBy.get(key) ?? { mention, ids: [] };
    if (!entry.ids.includes(mention.upload_id)) entry.ids.push(mention.upload_id);
    missingBy.set(key, entry);
  }
  for (const { mention, ids } of missingBy.values()) {
    const field = byId.get(mention.field_id);
    if (!field) continue;
    issues.push({
      ...naming(field, mention.locale),
      code: 'VALIDATION_INVALID',
      message: `names upload(s) ${ids.join(', ')}, which do not exist in this environment`,
    });
  }
  for (const check of checks) {
    const field = byId.get(check.field_id);
    if (!field) continue;
    const locale = check.locale ?? locales[0] ?? '';
    const problems = check.uploads.flatMap((mention) => {
      const upload = facts.get(mention.upload_id);
      const problem =
        upload && uploadProblem(check.validator, check.params, mention, upload, locale);
      return problem ? [`upload ${mention.upload_id} ${problem}`] : [];
    });
    if (problems.length > 0)
      issues.push({
        ...naming(field, check.locale),
        code: validatorCode(check.validator) as ValidationCode,
        validator: check.validator,
        message: problems.join('; '),
      });
  }
  return issues;
}
