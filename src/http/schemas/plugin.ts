import { Type } from '@sinclair/typebox';
import { Enum, NoMembers, NullableString, ResourceDocument } from '../jsonapi.ts';

const FIELD_TYPES = [
  'boolean',
  'date',
  'date_time',
  'float',
  'integer',
  'string',
  'text',
  'lat_lon',
  'json',
  'seo',
  'link',
  'links',
  'video',
  'color',
  'slug',
  'rich_text',
  'file',
  'gallery',
] as const;

const Permissions = Type.Array(Enum(['currentUserAccessToken']));
const Parameters = Type.Record(Type.String(), Type.Unknown());
const ParameterDefinitions = Type.Object(
  { global: Type.Array(Type.Unknown()), instance: Type.Array(Type.Unknown()) },
  { additionalProperties: false },
);

export const CreatePluginBody = ResourceDocument({
  attributes: Type.Object(
    {
      package_name: Type.Optional(NullableString()),
      name: Type.Optional(Type.String()),
      description: Type.Optional(NullableString()),
      url: Type.Optional(Type.String()),
      permissions: Type.Optional(Permissions),
      plugin_type: Type.Optional(Enum(['field_editor', 'sidebar', 'field_addon'])),
      field_types: Type.Optional(Type.Array(Enum(FIELD_TYPES))),
      parameter_definitions: Type.Optional(ParameterDefinitions),
      package_version: Type.Optional(NullableString()),
    },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});

export const UpdatePluginBody = ResourceDocument({
  attributes: Type.Object(
    {
      name: Type.Optional(Type.String()),
      description: Type.Optional(NullableString()),
      url: Type.Optional(Type.String()),
      parameters: Type.Optional(Parameters),
      package_version: Type.Optional(NullableString()),
      permissions: Type.Optional(Permissions),
    },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: Type.Object({}, { additionalProperties: true }),
});
