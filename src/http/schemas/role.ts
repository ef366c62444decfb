import { type TBoolean, type TOptional, Type } from '@sinclair/typebox';
import {
  ENVIRONMENTS_ACCESS,
  ROLE_FLAGS,
  type RoleFlag,
} from '../../domain/auth/role-attributes.ts';
import { Enum, NullableEnum, NullableString, ResourceDocument, ToMany } from '../jsonapi.ts';
import { Component } from './component.ts';

const ITEM_TYPE_ACTIONS = [
  'all',
  'read',
  'create',
  'update',
  'publish',
  'duplicate',
  'delete',
  'edit_creator',
  'take_over',
  'move_to_stage',
] as const;
const UPLOAD_ACTIONS = [
  'all',
  'read',
  'create',
  'update',
  'delete',
  'edit_creator',
  'replace_asset',
  'move',
] as const;
const CREATORS = ['anyone', 'self', 'role'] as const;
const LOCALIZATION_SCOPES = ['all', 'localized', 'not_localized'] as const;

const optionalId = Type.Optional(NullableString());

// Entries are stored as sent (Fieldhouse enforces no record-level rules): their keys
// are checked, the per-action combinations the real API also checks are not.
const ItemTypePermission = Component(
  'ItemTypePermission',
  Type.Object(
    {
      action: Enum(ITEM_TYPE_ACTIONS),
      environment: Type.String(),
      item_type: optionalId,
      workflow: optionalId,
      on_stage: optionalId,
      to_stage: optionalId,
      on_creator: Type.Optional(NullableEnum(CREATORS)),
      localization_scope: Type.Optional(NullableEnum(LOCALIZATION_SCOPES)),
      locale: optionalId,
    },
    { additionalProperties: false },
  ),
);

const UploadPermission = Component(
  'UploadPermission',
  Type.Object(
    {
      action: Enum(UPLOAD_ACTIONS),
      environment: Type.String(),
      upload_collection: optionalId,
      move_to_upload_collection: optionalId,
      on_creator: Type.Optional(NullableEnum(CREATORS)),
      localization_scope: Type.Optional(NullableEnum(LOCALIZATION_SCOPES)),
      locale: optionalId,
    },
    { additionalProperties: false },
  ),
);

const BuildTriggerPermission = Component(
  'BuildTriggerPermission',
  Type.Object({ build_trigger: optionalId }, { additionalProperties: false }),
);
const SearchIndexPermission = Component(
  'SearchIndexPermission',
  Type.Object({ search_index: optionalId }, { additionalProperties: false }),
);

const flags = Object.fromEntries(
  ROLE_FLAGS.map((flag) => [flag, Type.Optional(Type.Boolean())]),
) as Record<RoleFlag, TOptional<TBoolean>>;

const optionalAttributes = {
  ...flags,
  environments_access: Type.Optional(Enum(ENVIRONMENTS_ACCESS)),
  positive_item_type_permissions: Type.Optional(Type.Array(ItemTypePermission)),
  negative_item_type_permissions: Type.Optional(Type.Array(ItemTypePermission)),
  positive_upload_permissions: Type.Optional(Type.Array(UploadPermission)),
  negative_upload_permissions: Type.Optional(Type.Array(UploadPermission)),
  positive_build_trigger_permissions: Type.Optional(Type.Array(BuildTriggerPermission)),
  negative_build_trigger_permissions: Type.Optional(Type.Array(BuildTriggerPermission)),
  positive_search_index_permissions: Type.Optional(Type.Array(SearchIndexPermission)),
  negative_search_index_permissions: Type.Optional(Type.Array(SearchIndexPermission)),
};

const relationships = Type.Object(
  { inherits_permissions_from: Type.Optional(ToMany('role')) },
  { additionalProperties: false },
);

// The client lets callers pass a found role back whole; its computed meta is ignored.
const meta = Type.Object(
  { final_permissions: Type.Optional(Type.Unknown()) },
  { additionalProperties: false },
);

export const CreateRoleBody = ResourceDocument({
  attributes: Type.Object(
    { name: Type.String(), ...optionalAttributes },
    { additionalProperties: false },
  ),
  relationships,
  meta,
});

export const UpdateRoleBody = ResourceDocument({
  attributes: Type.Object(
    { name: Type.Optional(Type.String()), ...optionalAttributes },
    { additionalProperties: false },
  ),
  relationships,
  meta,
});
