import { buildBlockRecord, type Client } from '@datocms/cma-client-node';

/**
 * Builds schema and records through the official client with sensible defaults, each
 * overridable, creating what is missing (a record without a model gets a model with a
 * `title` string field). Names are unique per process so tests can share a server.
 * Tokens: `createApiToken` (api-tokens.ts, through the API) and `tokenWithRole`
 * (limited-token.ts, straight into the database, for roles the API would refuse).
 */
let sequence = 0;
function next(): number {
  sequence++;
  return sequence;
}

type ModelOverrides = Parameters<Client['itemTypes']['create']>[0];
type WebhookBody = Parameters<Client['webhooks']['create']>[0];
type FieldBody = Parameters<Client['fields']['create']>[1];
/** Loosely typed: the field-type-specific unions of the client reject generic overrides. */
type FieldOverrides = Record<string, unknown>;

export async function buildModel(client: Client, overrides: Partial<ModelOverrides> = {}) {
  const n = next();
  return client.itemTypes.create({ name: `Model ${n}`, api_key: `model_n${n}`, ...overrides });
}

/** A field (a `string` unless overridden) on `itemTypeId`, or on a new model. */
export async function buildField(
  client: Client,
  overrides: FieldOverrides & { itemTypeId?: string } = {},
) {
  const { itemTypeId, ...attributes } = overrides;
  const modelId = itemTypeId ?? (await buildModel(client)).id;
  const n = next();
  return client.fields.create(modelId, {
    label: `Field ${n}`,
    api_key: `field_n${n}`,
    field_type: 'string',
    ...attributes,
  } as FieldBody);
}

/**
 * A record of `itemTypeId` (or of a new model with a `title` field, which gets a value
 * unless `attributes` say otherwise).
 */
export async function buildRecord(
  client: Client,
  overrides: { itemTypeId?: string; attributes?: Record<string, unknown> } = {},
) {
  let modelId = overrides.itemTypeId;
  let attributes = overrides.attributes ?? {};
  if (!modelId) {
    modelId = (await buildModel(client)).id;
    await buildField(client, { itemTypeId: modelId, api_key: 'title', label: 'Title' });
    attributes = { title: `Record ${next()}`, ...attributes };
  }
  return client.items.create({ item_type: itemTypeRef(modelId), ...attributes });
}

/** A modular content (`rich_text`) field on `itemTypeId` allowing the block models `blockIds`. */
export async function buildModularContentField(
  client: Client,
  overrides: FieldOverrides & { itemTypeId: string; blockIds: string[] },
) {
  const { blockIds, ...attributes } = overrides;
  return buildField(client, {
    field_type: 'rich_text',
    validators: { rich_text_blocks: { item_types: blockIds } },
    ...attributes,
  });
}

/** A block model (`modular_block: true`), with a `title` string field unless told not to. */
export async function buildBlockModel(
  client: Client,
  overrides: Partial<ModelOverrides> & { withTitle?: boolean } = {},
) {
  const { withTitle = true, ...modelOverrides } = overrides;
  const model = await buildModel(client, { modular_block: true, ...modelOverrides });
  if (withTitle)
    await buildField(client, { itemTypeId: model.id, api_key: 'title', label: 'Title' });
  return model;
}

/** A block model (with a `title`) and a model whose `sections` field holds its blocks. */
export async function buildModelWithBlocks(client: Client) {
  const block = await buildBlockModel(client);
  const model = await buildModel(client);
  await buildModularContentField(client, {
    itemTypeId: model.id,
    api_key: 'sections',
    blockIds: [block.id],
  });
  return { block, model };
}

/**
 * A block in a request, as the client's `buildBlockRecord` makes it: new (of `itemTypeId`)
 * or, with `id`, an update of an existing block.
 */
export function blockInRequest(
  block: { itemTypeId?: string; id?: string; attributes?: Record<string, unknown> } = {},
) {
  return buildBlockRecord({
    ...(block.id ? { id: block.id } : {}),
    ...(block.itemTypeId ? { item_type: { type: 'item_type', id: block.itemTypeId } } : {}),
    ...block.attributes,
  } as Parameters<typeof buildBlockRecord>[0]);
}

/**
 * A webhook's create body: the keys the spec marks required, a unique name, no events and
 * a URL nothing answers (a delivery worker, if one runs, cannot succeed), each overridable.
 */
export function webhookBody(overrides: Partial<WebhookBody> = {}): WebhookBody {
  return {
    name: `Webhook ${next()}`,
    url: 'https://receiver.invalid/hook',
    custom_payload: null,
    headers: {},
    events: [],
    http_basic_user: null,
    http_basic_password: null,
    ...overrides,
  };
}

/** A webhook made from `webhookBody(overrides)`. */
export function buildWebhook(client: Client, overrides: Partial<WebhookBody> = {}) {
  return client.webhooks.create(webhookBody(overrides));
}

/** A record's `item_type` relationship as a request carries it. */
export function itemTypeRef(id: string) {
  return { type: 'item_type' as const, id };
}
