import { REACH } from './environment-reach.ts';
import { PERMISSION_LISTS, ROLE_FLAGS, type RoleAttributes } from './role-attributes.ts';

type Entry = Record<string, unknown>;

/** Values of a permission entry that include every other value of the same key. */
const WIDEST: Record<string, string> = {
  action: 'all',
  localization_scope: 'all',
  on_creator: 'anyone',
};

/**
 * Does `wide` grant at least what `narrow` grants? Key by key: the same value, or a
 * null restrictor (every model, workflow, stage, locale, collection…), or the widest
 * value (`action: all`, `localization_scope: all`, `on_creator: anyone`). The
 * environment has no wildcard: an entry is scoped to exactly one.
 */
function covers(wide: Entry, narrow: Entry): boolean {
  const keys = new Set([...Object.keys(wide), ...Object.keys(narrow)]);
  return [...keys].every((key) => {
    const w = wide[key] ?? null;
    const n = narrow[key] ?? null;
    if (w === n) return true;
    if (key === 'environment') return false;
    return w === null || w === WIDEST[key];
  });
}

/**
 * The lists of one permission family (a `positive_…` list and its `negative_…`) in which
 * the target grants more. The family is within the caller's when every positive entry
 * of the target is covered by one of the caller's, and every negative entry of the
 * caller is covered by one of the target's (the target takes away at least as much).
 * As effective = positive − negative, the target's effective set is then a subset of
 * the caller's. It may refuse a role that is narrower in fact (one lacking a negative
 * that none of its positives reach): the safe side.
 */
function familyBeyond(caller: RoleAttributes, target: RoleAttributes, positive: string): string[] {
  const negative = positive.replace('positive_', 'negative_');
  const list = (attributes: RoleAttributes, name: string) =>
    attributes[name as (typeof PERMISSION_LISTS)[number]] as Entry[];
  const beyond: string[] = [];
  const wider = list(target, positive).some(
    (entry) => !list(caller, positive).some((own) => covers(own, entry)),
  );
  if (wider) beyond.push(positive);
  const lifted = list(caller, negative).some(
    (own) => !list(target, negative).some((entry) => covers(entry, own)),
  );
  if (lifted) beyond.push(negative);
  return beyond;
}

/**
 * The attributes in which `target` grants more than `caller`; empty when it is within.
 * Both are final permissions (inherited ones included). Within means: every flag the
 * target has, the caller has; the target reaches no environment kind the caller does
 * not; each permission family is within (see familyBeyond).
 */
export function rightsBeyond(caller: RoleAttributes, target: RoleAttributes): string[] {
  const beyond: string[] = ROLE_FLAGS.filter((flag) => target[flag] && !caller[flag]);
  const reach = REACH[caller.environments_access];
  if ([...REACH[target.environments_access]].some((kind) => !reach.has(kind)))
    beyond.push('environments_access');
  for (const positive of PERMISSION_LISTS.filter((list) => list.startsWith('positive_')))
    beyond.push(...familyBeyond(caller, target, positive));
  return beyond;
}
