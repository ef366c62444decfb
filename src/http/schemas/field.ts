import { type Static, Type } from '@sinclair/typebox';
import { DomainError } from '../../domain/errors.ts';
import type { FieldInput, NewFieldInput } from '../../domain/fields/attributes.ts';
import { FIELD_TYPES } from '../../domain/schema/field-types/index.ts';
import {
  Enum,
  NoMembers,
  NullableString,
  Position,
  ResourceDocument,
  relationshipIds,
  ToOne,
} from '../jsonapi.ts';
import { Component } from './component.ts';

const AnyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object' });

const addon = Component(
  'FieldAppearanceAddon',
  Type.Object(
    { id: Type.String(), parameters: AnyObject, field_extension: Type.Optional(Type.String()) },
    { additionalProperties: false },
  ),
);

/**
 * The legacy `type` (`"title"`, `"textarea"`, …) older DatoCMS fields still return and
 * generated migrations replay: accepted and ignored.
 */
const legacyType = Type.Optional(Type.String());

/** `{editor, parameters, addons, field_extension?}`: all three required when sent. */
const Appearance = Component(
  'FieldAppearance',
  Type.Object(
    {
      editor: Type.String(),
      parameters: AnyObject,
      addons: Type.Array(addon),
      field_extension: Type.Optional(Type.String()),
      type: legacyType,
    },
    { additionalProperties: false },
  ),
);

/** The legacy `appeareance`: the client types it without addons. */
const LegacyAppearance = Component(
  'FieldLegacyAppearance',
  Type.Object(
    {
      editor: Type.String(),
      parameters: AnyObject,
      addons: Type.Optional(Type.Array(addon)),
      field_extension: Type.Optional(Type.String()),
      type: legacyType,
    },
    { additionalProperties: false },
  ),
);

/** Any JSON value; its shape for the field type is the registry's to check. */
const DefaultValue = Type.Unsafe<unknown>({});

const FieldType = Component('FieldType', Enum(FIELD_TYPES));

const optionalAttributes = {
  localized: Type.Optional(Type.Boolean()),
  validators: Type.Optional(AnyObject),
  appearance: Type.Optional(Appearance),
  appeareance: Type.Optional(LegacyAppearance),
  position: Type.Optional(Position()),
  hint: Type.Optional(NullableString()),
  default_value: Type.Optional(DefaultValue),
  deep_filtering_enabled: Type.Optional(Type.Boolean()),
  content_link_enabled: Type.Optional(Type.Boolean()),
};

const relationships = Type.Object(
  { fieldset: Type.Optional(ToOne('fieldset')) },
  { additionalProperties: false },
);

export const CreateFieldBody = ResourceDocument({
  attributes: Type.Object(
    {
      label: Type.String(),
      field_type: FieldType,
      api_key: Type.String(),
      ...optionalAttributes,
    },
    { additionalProperties: false },
  ),
  relationships,
  meta: NoMembers,
});

export const UpdateFieldBody = ResourceDocument({
  attributes: Type.Object(
    {
      label: Type.Optional(Type.String()),
      field_type: Type.Optional(FieldType),
      api_key: Type.Optional(Type.String()),
      ...optionalAttributes,
    },
    { additionalProperties: false },
  ),
  relationships,
  meta: NoMembers,
});

type CreateBody = Static<typeof CreateFieldBody>;
type UpdateBody = Static<typeof UpdateFieldBody>;

/** A create needs label, field_type and api_key, so `attributes` cannot be left out. */
export function newFieldInput(body: CreateBody): NewFieldInput {
  const attributes = body.data.attributes;
  if (!attributes) {
    const message = "/data: must have required property 'attributes'";
    throw new DomainError('INVALID_FORMAT', message, { messages: [message] });
  }
  return {
    id: body.data.id,
    attributes,
    relationships: relationshipIds(body.data.relationships),
  };
}

/** `data.id` of an update repeats the path identifier (an id or model::field): not an input. */
export function fieldInput(body: UpdateBody): FieldInput {
  return {
    attributes: body.data.attributes ?? {},
    relationships: relationshipIds(body.data.relationships),
  };
}
