import type { Scope } from '../../db/environment-scope.ts';
import { cachedSchemaRead } from '../caches/caches.ts';
import { cachedModelState, listModelStates, type ModelView, modelView } from './model-state.ts';

// The models as the API shows them, read through the schema cache: the read side of
// models, shared by their routes, the site and records (a duplicate names its model).

export async function listItemTypes(scope: Scope): Promise<readonly ModelView[]> {
  return cachedSchemaRead(scope, 'models', async () =>
    (await listModelStates(scope.db)).map(modelView),
  );
}

export async function findItemType(scope: Scope, idOrApiKey: string): Promise<ModelView> {
  // Through the cached state, which a change to the model then reads first (updateItemType).
  return cachedSchemaRead(scope, `model:${idOrApiKey}`, async () =>
    modelView(await cachedModelState(scope, idOrApiKey)),
  );
}
