import { deepFreeze } from '../domain/caches/deep-freeze.ts';

// What each presenter made of each kept value. Kept values (schema documents, record
// views) are deep-frozen by the caches and shared by every request that reads them.
const presentedOf = new WeakMap<object, Map<(value: never) => unknown, unknown>>();

/**
 * `present(value)`, made once per kept (deep-frozen) value and presenter, then shared,
 * deep-frozen itself: its JSON is then made once too (http/document-json.ts). A value
 * that is not kept is presented afresh.
 */
export function presentKept<V extends object, R>(value: V, present: (value: V) => R): R {
  if (!Object.isFrozen(value)) return present(value);
  let byPresenter = presentedOf.get(value);
  if (!byPresenter) {
    byPresenter = new Map();
    presentedOf.set(value, byPresenter);
  }
  if (byPresenter.has(present)) return byPresenter.get(present) as R;
  const made = deepFreeze(present(value));
  byPresenter.set(present, made);
  return made;
}

/** Each value of a kept list presented, the list made once too (as presentKept). */
export function presentKeptList<V extends object, R>(
  values: readonly V[],
  present: (value: V) => R,
): readonly R[] {
  return presentKept(values, (list) => list.map(present));
}
