import type { ScopedTransaction } from '../../db/environment-scope.ts';
import { emitEvent, type LastWrites } from '../../events/outbox.ts';
import type { TokenView } from '../actor.ts';
import { loadModelState, type ModelState, modelView } from '../schema/model-state.ts';
import { lookUpCreator } from './creator.ts';
import type { EventEntity } from './event-entities.ts';
import { type RecordView, withTreeMeta } from './record-view.ts';

/** The views an event entity holds: plain, and nested when its model holds blocks. */
function views(entity: EventEntity | undefined): RecordView[] {
  if (!entity) return [];
  return entity.nested ? [entity.plain, entity.nested] : [entity.plain];
}

/**
 * Emits a record event whose related entities are the record's relationships, as DatoCMS
 * sends them: its model as it is after the change, then its creator.
 * The model is given by its state when the change holds it already (no read), else by id;
 * the creator likewise, when the change read it (creator.ts), else it is looked up.
 * A record whose model holds blocks is also recorded nested (see eventEntity). `last`:
 * the change's last writes, which the event's statement carries (emitEvent).
 */
export async function emitItemEvent(
  tx: ScopedTransaction,
  model: ModelState | string,
  eventType: 'create' | 'update' | 'delete' | 'publish' | 'unpublish',
  entity: EventEntity,
  previousEntity?: EventEntity,
  creator?: TokenView | null,
  last?: LastWrites,
): Promise<void> {
  // The entity is also what the write answers: its tree meta is filled once, here. It
  // reads the records naming these as parent, which `last` (written after) cannot change:
  // a record is never its own parent.
  await withTreeMeta(tx.db, [entity, previousEntity].flatMap(views));
  await emitEvent(
    tx,
    {
      entityType: 'item',
      eventType,
      record: entity.plain,
      previous: previousEntity?.plain ?? null,
      ...(entity.nested
        ? { nested: entity.nested, nestedPrevious: previousEntity?.nested ?? null }
        : {}),
      model: modelView(typeof model === 'string' ? await loadModelState(tx.db, model) : model),
      creator:
        creator === undefined
          ? await lookUpCreator(tx.project, entity.plain.row.creator_id)
          : creator,
    },
    last,
  );
}
