import { type Collection, placeCollections } from './collection-tree.ts';

/**
 * A `<select>` of upload collections in tree order, each named by its path
 * ("Photos / Summer"), so a nested collection is recognisable in a closed list. Its first
 * options are `extra` (value, label) pairs, e.g. "None"; `exclude` leaves some out.
 */
export function CollectionSelect(props: {
  id: string;
  collections: readonly Collection[];
  value: string;
  onChange: (value: string) => void;
  extra: readonly (readonly [string, string])[];
  exclude?: readonly string[];
}) {
  const placed = placeCollections(props.collections).filter(
    (entry) => !props.exclude?.includes(entry.collection.id),
  );
  return (
    <select
      id={props.id}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    >
      {props.extra.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
      {placed.map((entry) => (
        <option key={entry.collection.id} value={entry.collection.id}>
          {entry.path}
        </option>
      ))}
    </select>
  );
}
