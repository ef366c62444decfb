import type { Client } from '@datocms/cma-client-browser';
import { preloaded, preloadRoute } from '../preload.ts';
import { modelFields } from '../schema-data.ts';

/**
 * The record list's queries, apart from its view so that the shell (in the first chunk)
 * can start them while the list's own chunk loads: the model with its fields, and a page
 * of records, in parallel.
 */
export const PAGE_SIZE = 25;

export type ListQuery = { query: string; status: string; order: string; page: number };

export function listQuery(search: URLSearchParams): ListQuery {
  return {
    query: search.get('q') ?? '',
    status: search.get('status') ?? '',
    order: search.get('order') ?? '_updated_at_DESC',
    page: Math.max(0, Number(search.get('page') ?? 0) || 0),
  };
}

function schemaKey(modelId: string) {
  return `record-list-schema\n${modelId}`;
}

function recordsKey(modelId: string, list: ListQuery) {
  return `record-list-records\n${modelId}\n${JSON.stringify(list)}`;
}

async function fetchSchema(client: Client, modelId: string) {
  const [model, fields] = await Promise.all([
    client.itemTypes.find(modelId),
    modelFields(client, modelId),
  ]);
  return { model, fields };
}

function fetchRecords(client: Client, modelId: string, list: ListQuery) {
  return client.items.rawList({
    filter: {
      type: modelId,
      ...(list.query ? { query: list.query } : {}),
      ...(list.status ? { fields: { _status: { eq: list.status } } } : {}),
    },
    order_by: list.order,
    page: { offset: list.page * PAGE_SIZE, limit: PAGE_SIZE },
    version: 'current',
  });
}

export function preloadRecordList(client: Client, modelId: string, search: URLSearchParams) {
  const list = listQuery(search);
  preloadRoute({
    [schemaKey(modelId)]: () => fetchSchema(client, modelId),
    [recordsKey(modelId, list)]: () => fetchRecords(client, modelId, list),
  });
}

export function loadListSchema(client: Client, modelId: string) {
  return preloaded(schemaKey(modelId), () => fetchSchema(client, modelId));
}

export function loadRecords(client: Client, modelId: string, list: ListQuery) {
  return preloaded(recordsKey(modelId, list), () => fetchRecords(client, modelId, list));
}
