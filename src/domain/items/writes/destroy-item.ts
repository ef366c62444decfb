import type { Scope } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import type { UnreadWrite } from '../../../db/query/carried-writes.ts';
import { removeRecord } from '../../positions/record-positions.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { eventEntityOf, storedSnapshot } from '../event-entities.ts';
import { findRecordOrFail } from '../find-item.ts';
import { emitItemEvent } from '../record-events.ts';
import type { RecordView } from '../record-view.ts';
import { excludePlacement, excludeSingleton } from './record-exclusion.ts';
import { withSingletonItem } from './singleton-state.ts';

export async function destroyItem(
  scope: Scope,
  id: string,
  gate?: RecordGate,
): Promise<RecordView> {
  return inEnvironmentTransaction(
    scope,
    async (tx) => {
      const trx = tx.db;
      const {
        row,
        context: { model, fields, state: stateBefore },
        creator,
      } = await findRecordOrFail(tx, id);
      // The caller's permission, judged on the record as the transaction finds it.
      await gate?.(tx, [id]);
      let state = stateBefore;
      const snapshot = await storedSnapshot(trx, row, fields);
      await excludeSingleton(trx, model);
      await excludePlacement(trx, model);
      if (model.sortable || model.tree)
        await removeRecord(trx, model, id, { parentId: row.parent_id, position: row.position });
      // The delete (which takes the record's versions and blocks with it) is the change's
      // last write, with its singleton model's update: its event's statement carries them.
      // What the event reads first is unchanged by them: the records naming this one as
      // parent keep naming it (a parent is no foreign key).
      const writes: UnreadWrite[] = [trx.deleteFrom('items').where('id', '=', id)];
      // The model as the schema cache holds it may predate its singleton record's create,
      // committed since this change began (record changes run concurrently): the update
      // names the record itself.
      if (model.singleton) {
        writes.push(
          trx
            .updateTable('item_types')
            .set({ singleton_item_id: null, has_singleton_item: false })
            .where('id', '=', model.id)
            .where('singleton_item_id', '=', id),
        );
        state = withSingletonItem(state, null);
      }
      const entity = eventEntityOf(row, model, fields, snapshot);
      await emitItemEvent(tx, state, 'delete', entity, undefined, creator, { writes });
      return entity.plain;
    },
    RECORD_CHANGE,
  );
}
