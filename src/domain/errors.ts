/** Framework-free failures. Only http/errors.ts knows which status each code gets. */

export type ErrorCode =
  | 'INVALID_FIELD'
  | 'INVALID_FORMAT'
  | 'INVALID_JSON_BODY'
  | 'INVALID_TYPE'
  | 'INVALID_ATTRIBUTES'
  | 'INVALID_PARAMS'
  | 'INVALID_FILTER_FIELDS_PARAM'
  | 'INVALID_RELATIONSHIP'
  | 'INVALID_ORDERING'
  | 'DUPLICATE_POSITIONS_FOUND'
  | 'NOT_FOUND'
  | 'INVALID_ENDPOINT'
  | 'INVALID_AUTHORIZATION_HEADER'
  | 'INVALID_SITE'
  | 'INSUFFICIENT_PERMISSIONS'
  | 'INVALID_ACCEPT_HEADER'
  | 'INVALID_CONTENT_TYPE_HEADER'
  | 'INVALID_API_VERSION'
  | 'INVALID_ENVIRONMENT'
  | 'INVALID_X_INCLUDE_DRAFTS_HEADER'
  | 'INVALID_X_VISUAL_EDITING_HEADER'
  | 'RATE_LIMIT_EXCEEDED'
  | 'LIMIT_EXCEEDED'
  | 'REQUEST_BODY_TOO_LARGE'
  | 'INVALID_REQUEST'
  | 'REQUEST_HEADERS_TOO_LARGE'
  | 'REQUEST_TIMEOUT'
  | 'ITEM_TYPE_CANNOT_BE_CHANGED'
  | 'INVALID_ORDERING_FOR_SORTABLE_ITEM_TYPE'
  | 'INVALID_ORDERING_FOR_SINGLETON_ITEM_TYPE'
  | 'MODULAR_BLOCK_IN_USE'
  | 'REQUIRED_BY_ASSOCIATION'
  | 'DUPLICATE_SINGLETON'
  | 'CANNOT_CREATE_OR_DESTROY_SCHEMA_MENU_ITEM_LINKED_TO_ITEM_TYPE'
  | 'KIND_CANNOT_BE_CHANGED'
  | 'NON_EDITABLE_ACCESS_TOKEN'
  | 'MISSING_LOCALES'
  | 'CLASHING_FIELD_LABELS'
  | 'STALE_ITEM_VERSION'
  | 'ITEM_TYPE_IS_SINGLETON'
  | 'UNPUBLISHED_PARENT'
  | 'PUBLISHED_CHILDREN'
  | 'MISSING_UPLOAD_IDS'
  | 'MAINTENANCE_MODE'
  | 'ENVIRONMENT_IN_READ_ONLY_MODE'
  | 'ENVIRONMENT_NOT_READY'
  | 'CANNOT_DESTROY_PRIMARY_ENVIRONMENT'
  | 'CANNOT_DESTROY_FORKING_ORIGIN'
  | 'ALREADY_PRIMARY_ENVIRONMENT'
  | 'SERVICE_UNAVAILABLE'
  | 'EXCEPTION';

export type ValidationCode =
  | 'VALIDATION_REQUIRED'
  | 'VALIDATION_FORMAT'
  | 'VALIDATION_INCLUSION'
  | 'VALIDATION_EXCLUSION'
  | 'VALIDATION_INVALID'
  | 'VALIDATION_LENGTH'
  | 'VALIDATION_UNIQUENESS'
  // Record values: one code per validator (VALIDATION_<NAME>) and locale problems.
  | `VALIDATION_${Uppercase<string>}`
  | 'INVALID_LOCALES';

export type RecordType =
  | 'ItemType'
  | 'Field'
  | 'Fieldset'
  | 'Webhook'
  | 'MenuItem'
  | 'SchemaMenuItem'
  | 'Workflow'
  | 'Site'
  | 'Role'
  | 'AccessToken'
  | 'Environment'
  | 'Item'
  | 'ScheduledPublication'
  | 'ScheduledUnpublishing'
  | 'Plugin'
  | 'ItemTypeFilter'
  | 'UploadFilter'
  | 'Upload'
  | 'UploadCollection';

export type FieldIssue = {
  field: string;
  code: ValidationCode;
  message: string;
  /** Record value issues name the field and locale precisely. */
  field_id?: string;
  field_label?: string;
  field_type?: string;
  locale?: string;
  validator?: string;
  required_locales?: string[];
};

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** One or more attributes failed validation; each becomes its own INVALID_FIELD entry. */
export class ValidationFailed extends DomainError {
  constructor(
    readonly recordType: RecordType,
    readonly issues: FieldIssue[],
  ) {
    super('INVALID_FIELD', issues.map((i) => `${i.field}: ${i.message}`).join('; '));
  }
}

export class NotFound extends DomainError {
  constructor(what: string, id: string) {
    super('NOT_FOUND', `${what} ${JSON.stringify(id)} not found`);
  }
}

/** Collects attribute issues in declaration order, then fails them all at once. */
export class Issues {
  readonly list: FieldIssue[] = [];

  constructor(readonly recordType: RecordType) {}

  add(field: string, code: ValidationCode, message: string): void {
    if (!this.list.some((issue) => issue.field === field)) this.list.push({ field, code, message });
  }

  has(field: string): boolean {
    return this.list.some((issue) => issue.field === field);
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new ValidationFailed(this.recordType, this.list);
  }
}

export function uniquenessFailure(recordType: RecordType, field: string): ValidationFailed {
  return new ValidationFailed(recordType, [
    { field, code: 'VALIDATION_UNIQUENESS', message: 'is already taken' },
  ]);
}
