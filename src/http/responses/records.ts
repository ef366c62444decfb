import { type TSchema, Type } from '@sinclair/typebox';
import {
  AnyResource,
  Json,
  Many,
  One,
  RefOne,
  ResourceOf,
  Text,
  Time,
} from '../schemas/documents.ts';

/** A record's values, keyed by field api_key (and `parent_id`, `position` in trees). */
const Values = Type.Record(Type.String(), Json, {
  description:
    "The record's values by field api_key; `position` and `parent_id` when its model is sortable or a tree",
});

export const ItemResource = ResourceOf('item', {
  attributes: Values,
  relationships: { item_type: RefOne('item_type'), creator: RefOne('access_token') },
  meta: {
    created_at: Time(),
    updated_at: Time(),
    published_at: Time(),
    first_published_at: Time(),
    publication_scheduled_at: Time(),
    unpublishing_scheduled_at: Time(),
    status: Text(),
    is_valid: Type.Boolean(),
    is_current_version_valid: Type.Boolean(),
    is_published_version_valid: Type.Union([Type.Boolean(), Type.Null()]),
    current_version: Text(),
    stage: Text(),
    has_children: Type.Union([Type.Boolean(), Type.Null()]),
  },
});
export const ItemDocument = One(ItemResource);
export const ItemList = Many(ItemResource, { paginated: true });
/** A duplicate includes the blocks it copied. */
export const DuplicatedItemDocument = One(ItemResource, {
  included: AnyResource,
  name: 'DuplicatedItemDocument',
});

/** A bulk change: the records changed and how many were and were not. */
export const BulkItemsDocument = Type.Object({
  data: Type.Array(ItemResource),
  meta: Type.Object({ successful: Type.Integer(), failed: Type.Integer() }),
});

const ItemVersionResource = ResourceOf('item_version', {
  attributes: Values,
  relationships: {
    item_type: RefOne('item_type'),
    item: RefOne('item'),
    editor: RefOne('access_token'),
  },
  meta: {
    created_at: Time(),
    is_valid: Type.Boolean(),
    is_published: Type.Boolean(),
    published_from: Time(),
    published_until: Time(),
    is_current: Type.Boolean(),
  },
});
export const ItemVersionDocument = One(ItemVersionResource);
export const ItemVersionList = Many(ItemVersionResource, { paginated: true });

/** The record's current version against its published one, locale by locale. */
export const PublicationStateDocument = One(
  ResourceOf('item_current_vs_published_state', {
    attributes: {
      current_version_invalid_locales: Type.Array(Type.String()),
      current_version_non_localized_fields_invalid: Type.Boolean(),
    },
    relationships: {
      scheduled_publication: RefOne('scheduled_publication'),
      scheduled_unpublishing: RefOne('scheduled_unpublishing'),
      published_version: RefOne('item_version'),
    },
  }),
  { included: AnyResource },
);

const ScheduleResource = (type: string, attributes: Record<string, TSchema>) =>
  ResourceOf(type, { attributes, relationships: { item: RefOne('item') } });

export const ScheduledPublicationDocument = One(
  ScheduleResource('scheduled_publication', {
    publication_scheduled_at: Time(),
    selective_publication: Json,
  }),
  { included: ItemResource },
);
export const ScheduledUnpublishingDocument = One(
  ScheduleResource('scheduled_unpublishing', {
    unpublishing_scheduled_at: Time(),
    content_in_locales: Type.Union([Type.Array(Type.String()), Type.Null()]),
  }),
  { included: ItemResource },
);
