import type { RawApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { navigate, useLocation } from '../router.ts';
import { displayValue, type Model, type ModelField, titleField } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Link, Loaded, useAsync } from '../ui.tsx';
import { BulkActions } from './record-bulk-actions.tsx';
import { listQuery, loadListSchema, loadRecords, PAGE_SIZE } from './record-list-data.ts';
import { useOrdering } from './record-ordering.tsx';
import { ReparentButton } from './record-reparent.tsx';
import { treeOrder } from './record-tree.ts';

const ORDERS = [
  ['_updated_at_DESC', 'Recently updated'],
  ['_updated_at_ASC', 'Least recently updated'],
  ['_created_at_DESC', 'Newest'],
  ['_created_at_ASC', 'Oldest'],
] as const;
/** Sortable and tree models also list by hand-set position, where rows can be moved. */
const MANUAL_ORDER = 'position_ASC';
const STATUSES = ['', 'draft', 'updated', 'published'] as const;

/**
 * A model's records, a page at a time: search, status, order and page live in the URL's
 * query so a list can be shared and the back button restores it.
 */
export function RecordList(props: { modelId: string }) {
  const { client, environment } = useSession();
  const { path, search } = useLocation();
  const list = listQuery(search);
  const { query, status, order, page } = list;
  const [draft, setDraft] = useState(query);
  const schema = useAsync(() => loadListSchema(client, props.modelId), [client, props.modelId]);
  const records = useAsync(
    () => loadRecords(client, props.modelId, list),
    [client, props.modelId, query, status, order, page],
  );
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === '' || (key === 'page' && value === '0')) next.delete(key);
      else next.set(key, value);
    }
    const queryString = next.toString();
    navigate(`${path}${queryString ? `?${queryString}` : ''}`, true);
  };
  return (
    <Loaded state={schema}>
      {({ model, fields }) => {
        const title = titleField(model, fields);
        return (
          <>
            <div class="row spread">
              <h1>{model.name}</h1>
              <Link class="button" to={`editor/${environment}/item_types/${model.id}/items/new`}>
                New record
              </Link>
            </div>
            <form
              class="row"
              onSubmit={(event) => {
                event.preventDefault();
                update({ q: draft, page: '0' });
              }}
            >
              <label for="record-search">Search</label>
              <input
                id="record-search"
                type="search"
                value={draft}
                onInput={(event) => setDraft(event.currentTarget.value)}
              />
              <button type="submit">Search</button>
              <label for="record-status">Status</label>
              <select
                id="record-status"
                value={status}
                onChange={(event) => update({ status: event.currentTarget.value, page: '0' })}
              >
                {STATUSES.map((value) => (
                  <option key={value} value={value}>
                    {value === '' ? 'Any' : value}
                  </option>
                ))}
              </select>
              <label for="record-order">Sort</label>
              <select
                id="record-order"
                value={order}
                onChange={(event) => update({ order: event.currentTarget.value, page: '0' })}
              >
                {model.sortable || model.tree ? (
                  <option value={MANUAL_ORDER}>Manual order</option>
                ) : null}
                {ORDERS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </form>
            <Loaded state={records}>
              {(result) => {
                const total = result.meta.total_count;
                const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
                return (
                  <>
                    <RecordTable
                      model={model}
                      title={title}
                      records={result.data}
                      total={total}
                      manualOrder={order === MANUAL_ORDER && (model.sortable || model.tree)}
                      reload={records.reload}
                    />
                    <nav class="pagination" aria-label="Pages">
                      <button
                        type="button"
                        class="ghost"
                        disabled={page === 0}
                        onClick={() => update({ page: String(page - 1) })}
                      >
                        Previous
                      </button>
                      <span>
                        Page {page + 1} of {pages}
                      </span>
                      <button
                        type="button"
                        class="ghost"
                        disabled={page + 1 >= pages}
                        onClick={() => update({ page: String(page + 1) })}
                      >
                        Next
                      </button>
                    </nav>
                  </>
                );
              }}
            </Loaded>
          </>
        );
      }}
    </Loaded>
  );
}

/**
 * A page of records: each can be selected for a bulk action and, listed in manual order,
 * moved by drag and drop or its Move buttons. A tree model's records in manual order are
 * shown as a tree (children indented under their parent) and each can move under another.
 */
function RecordTable(props: {
  model: Model;
  title: ModelField | undefined;
  records: RawApiTypes.Item[];
  total: number;
  manualOrder: boolean;
  reload: () => void;
}) {
  const { environment } = useSession();
  const { model, title } = props;
  const asTree = props.manualOrder && model.tree;
  const placed = asTree
    ? treeOrder(props.records)
    : props.records.map((record) => ({ record, depth: 0 }));
  const records = placed.map(({ record }) => record);
  const [selected, setSelected] = useState<string[]>([]);
  const ordering = useOrdering(records, props.reload);
  const onPage = records.map((record) => record.id);
  const allSelected = onPage.length > 0 && onPage.every((id) => selected.includes(id));
  const toggle = (id: string, checked: boolean) =>
    setSelected((current) =>
      checked ? [...current, id] : current.filter((entry) => entry !== id),
    );
  const name = (record: RawApiTypes.Item) =>
    (title ? displayValue(record.attributes[title.api_key], title.localized) : '') ||
    `#${record.id}`;
  return (
    <>
      {selected.length > 0 ? (
        <BulkActions
          model={model}
          selected={selected}
          onDone={() => {
            setSelected([]);
            props.reload();
          }}
        />
      ) : null}
      <ErrorNote error={ordering.action.error} />
      <div class="table-wrap">
        <table>
          <caption class="muted">
            {props.total} record{props.total === 1 ? '' : 's'}
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all records on this page"
                  checked={allSelected}
                  onChange={(event) => setSelected(event.currentTarget.checked ? onPage : [])}
                />
              </th>
              <th scope="col">{title?.label ?? 'Record'}</th>
              <th scope="col">Status</th>
              {model.workflow ? <th scope="col">Stage</th> : null}
              <th scope="col">Updated</th>
              {props.manualOrder ? <th scope="col">Order</th> : null}
            </tr>
          </thead>
          <tbody>
            {placed.map(({ record, depth }, index) => (
              <tr key={record.id} {...(props.manualOrder ? ordering.rowProps(record) : {})}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${name(record)}`}
                    checked={selected.includes(record.id)}
                    onChange={(event) => toggle(record.id, event.currentTarget.checked)}
                  />
                </td>
                <td class={depth > 0 ? 'tree-child' : undefined} style={indent(depth)}>
                  {depth > 0 ? <span aria-hidden="true">↳ </span> : null}
                  <Link to={`editor/${environment}/item_types/${model.id}/items/${record.id}/edit`}>
                    {name(record)}
                  </Link>
                </td>
                <td>
                  <span class={`badge ${record.meta.status}`}>{record.meta.status}</span>
                </td>
                {model.workflow ? <td data-testid="record-stage">{record.meta.stage}</td> : null}
                <td>{new Date(record.meta.updated_at).toLocaleString()}</td>
                {props.manualOrder ? (
                  <td class="row">
                    <button
                      type="button"
                      class="ghost"
                      disabled={ordering.action.busy || !ordering.canMove(index, -1)}
                      onClick={() => ordering.moveUp(index)}
                    >
                      ↑<span class="sr-only"> Move {name(record)} up</span>
                    </button>
                    <button
                      type="button"
                      class="ghost"
                      disabled={ordering.action.busy || !ordering.canMove(index, 1)}
                      onClick={() => ordering.moveDown(index)}
                    >
                      ↓<span class="sr-only"> Move {name(record)} down</span>
                    </button>
                    {asTree ? (
                      <ReparentButton
                        record={record}
                        rows={records}
                        name={name}
                        onMoved={props.reload}
                      />
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A tree record's name sits a step further in per ancestor shown above it. */
function indent(depth: number) {
  return depth > 0 ? { paddingLeft: `${depth * 1.25}rem` } : undefined;
}
