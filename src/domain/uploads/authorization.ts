import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';

/**
 * What a role's upload permission entries (`positive_upload_permissions` minus
 * `negative_upload_permissions`) allow: an entry names an environment, an action (or
 * `all`), whose uploads (`on_creator`: anyone, self = this token, role = this role's
 * tokens), optionally one upload collection and, for updates, which metadata
 * (`localization_scope`). A negative entry that matches wins.
 */
export type UploadAction =
  | 'read'
  | 'create'
  | 'update'
  | 'replace_asset'
  | 'edit_creator'
  | 'move'
  | 'delete';

/** Whose upload is acted on; absent for a create (the caller will be its creator). */
export type UploadOwner = Readonly<{
  creatorId: string;
  /** The creator token's role; null when unknown (a deleted token). */
  creatorRoleId: string | null;
  /** Its collection and that collection's ancestors, nearest first; empty for none. */
  collectionLineage: readonly string[];
}>;

/** Which metadata an update changes: localized (alt, title, custom data) and the rest. */
export type UpdateReach = Readonly<{ localizedLocales: readonly string[]; notLocalized: boolean }>;

type Entry = {
  action?: unknown;
  environment?: unknown;
  on_creator?: unknown;
  upload_collection?: unknown;
  localization_scope?: unknown;
  locale?: unknown;
};

function actsOn(entry: Entry, action: UploadAction): boolean {
  if (entry.action === 'all' || entry.action === action) return true;
  return action === 'move' && entry.action === 'move_to_upload_collection';
}

function reachesOwner(entry: Entry, actor: Actor, owner: UploadOwner | undefined): boolean {
  const creator = entry.on_creator ?? 'anyone';
  if (creator === 'anyone' || owner === undefined) return true;
  if (creator === 'self') return owner.creatorId === actor.token.id;
  return owner.creatorRoleId === actor.token.role_id;
}

function reachesCollection(entry: Entry, owner: UploadOwner | undefined): boolean {
  const collection = entry.upload_collection ?? null;
  return collection === null || (owner?.collectionLineage.includes(collection as string) ?? false);
}

/** Whether an entry's localization scope covers all of what an update changes. */
function coversContent(entry: Entry, reach: UpdateReach | undefined): boolean {
  const scope = entry.localization_scope ?? 'all';
  if (reach === undefined || scope === 'all') return true;
  if (scope === 'not_localized') return reach.localizedLocales.length === 0;
  if (reach.notLocalized) return false;
  return entry.locale == null || reach.localizedLocales.every((locale) => locale === entry.locale);
}

/** For a deny entry: whether it touches any of what an update changes. */
function touchesContent(entry: Entry, reach: UpdateReach | undefined): boolean {
  const scope = entry.localization_scope ?? 'all';
  if (reach === undefined || scope === 'all') return true;
  if (scope === 'not_localized') return reach.notLocalized;
  return entry.locale == null
    ? reach.localizedLocales.length > 0
    : reach.localizedLocales.includes(entry.locale as string);
}

export function mayOnUpload(
  actor: Actor,
  environmentId: string,
  action: UploadAction,
  owner?: UploadOwner,
  reach?: UpdateReach,
): boolean {
  const matches = (entry: Entry) =>
    entry.environment === environmentId &&
    actsOn(entry, action) &&
    reachesOwner(entry, actor, owner) &&
    reachesCollection(entry, owner);
  const { positive, negative } = actor.uploadPermissions;
  const allowed = (positive as Entry[]).some((e) => matches(e) && coversContent(e, reach));
  return allowed && !(negative as Entry[]).some((e) => matches(e) && touchesContent(e, reach));
}

export function assertMayOnUpload(
  actor: Actor,
  environmentId: string,
  action: UploadAction,
  owner?: UploadOwner,
  reach?: UpdateReach,
): void {
  if (!mayOnUpload(actor, environmentId, action, owner, reach)) {
    throw new DomainError(
      'INSUFFICIENT_PERMISSIONS',
      `The token's role may not ${action.replace('_', ' ')} this upload`,
      { action },
    );
  }
}

/**
 * Whose uploads a list may show: every one, or only those of the given creators (the
 * caller's token, its role's tokens), or none. Collection-scoped read entries are
 * checked per upload by the caller of `mayOnUpload`.
 */
export function readableCreators(
  actor: Actor,
  environmentId: string,
): 'anyone' | { self: boolean; role: boolean } {
  const entries = (actor.uploadPermissions.positive as Entry[]).filter(
    (e) =>
      e.environment === environmentId &&
      actsOn(e, 'read') &&
      (e.upload_collection ?? null) === null,
  );
  const denied = (actor.uploadPermissions.negative as Entry[]).some(
    (e) =>
      e.environment === environmentId &&
      actsOn(e, 'read') &&
      (e.on_creator ?? 'anyone') === 'anyone' &&
      (e.upload_collection ?? null) === null,
  );
  if (denied) return { self: false, role: false };
  if (entries.some((e) => (e.on_creator ?? 'anyone') === 'anyone')) return 'anyone';
  return {
    self: entries.some((e) => e.on_creator === 'self'),
    role: entries.some((e) => e.on_creator === 'role'),
  };
}

/**
 * Whether the role may take `action` on any upload of the environment at all: the check
 * a route makes before reading its body; each upload is then checked by its operation.
 */
export function assertMayAtAllOnUploads(
  actor: Actor,
  environmentId: string,
  actions: UploadAction | readonly UploadAction[],
): void {
  const any = typeof actions === 'string' ? [actions] : actions;
  const granted = (actor.uploadPermissions.positive as Entry[]).some(
    (e) => e.environment === environmentId && any.some((action) => actsOn(e, action)),
  );
  if (!granted) {
    throw new DomainError(
      'INSUFFICIENT_PERMISSIONS',
      `The token's role may not ${any.map((a) => a.replace('_', ' ')).join(' or ')} uploads`,
      { action: any.join(',') },
    );
  }
}
