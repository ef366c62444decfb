import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from '../../../db/environment-scope.ts';
import type { EnvironmentDatabase } from '../../../db/schema.ts';
import type { Actor } from '../../actor.ts';
import { roleTokenIds } from './access.ts';
import {
  type CreatorReach,
  everyRecord,
  grantOf,
  grantsEverything,
  needsRoleTokens,
  type Reach,
} from './permission-entries.ts';

export type ItemsWhere = (
  eb: ExpressionBuilder<EnvironmentDatabase, 'items'>,
) => Expression<SqlBool>;

/**
 * The records a list may show: those the role may read, as a condition the list's
 * statement carries (access.ts decides the same on records already read). Null when it
 * reads every record of the environment (the common case: no query cost); else a
 * condition per model.
 */
export async function readableRecords(actor: Actor, scope: Scope): Promise<ItemsWhere | null> {
  const environmentId = scope.environment.id;
  if (grantsEverything(actor, environmentId, 'read')) return null;

  const models = await scope.db.selectFrom('item_types').select(['id', 'workflow_id']).execute();
  const grants = models.map((model) => ({
    model,
    grant: grantOf(actor, environmentId, { action: 'read' }, model),
  }));
  const needsRole = grants.some(({ grant }) => needsRoleTokens(grant));
  const roleTokens = needsRole ? await roleTokenIds(scope, actor) : [];
  return (eb) => {
    // Never null: a record without a creator is no one's, one without a stage on none
    // (a null inside NOT would keep it out).
    const creatorIs = (creator: CreatorReach): Expression<SqlBool> => {
      if (creator === 'anyone') return sql<SqlBool>`true`;
      const known = eb('creator_id', 'is not', null);
      if (creator === 'self') return eb.and([known, eb('creator_id', '=', actor.token.id)]);
      return roleTokens.length > 0
        ? eb.and([known, eb('creator_id', 'in', roleTokens)])
        : sql<SqlBool>`false`;
    };
    const reachedBy = (list: readonly Reach[]): Expression<SqlBool> => {
      if (everyRecord(list)) return sql<SqlBool>`true`;
      const conditions = list.map(({ creator, stage }) =>
        stage === null
          ? creatorIs(creator)
          : eb.and([eb('stage', 'is not', null), eb('stage', '=', stage), creatorIs(creator)]),
      );
      return conditions.length > 0 ? eb.or(conditions) : sql<SqlBool>`false`;
    };
    const perModel = grants
      .filter(({ grant }) => grant.allow.length > 0 && !everyRecord(grant.deny))
      .map(({ model, grant }) =>
        eb.and([
          eb('item_type_id', '=', model.id),
          reachedBy(grant.allow),
          eb.not(reachedBy(grant.deny)),
        ]),
      );
    return perModel.length > 0 ? eb.or(perModel) : sql<SqlBool>`false`;
  };
}
