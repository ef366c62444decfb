import { useState } from 'preact/hooks';
import { navigate, useLocation } from '../router.ts';
import { displayValue, titleField } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { Link, Loaded, useAsync } from '../ui.tsx';
import { listQuery, loadListSchema, loadRecords, PAGE_SIZE } from './record-list-data.ts';

const ORDERS = [
  ['_updated_at_DESC', 'Recently updated'],
  ['_updated_at_ASC', 'Least recently updated'],
  ['_created_at_DESC', 'Newest'],
  ['_created_at_ASC', 'Oldest'],
] as const;
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
                    <div class="table-wrap">
                      <table>
                        <caption class="muted">
                          {total} record{total === 1 ? '' : 's'}
                        </caption>
                        <thead>
                          <tr>
                            <th scope="col">{title?.label ?? 'Record'}</th>
                            <th scope="col">Status</th>
                            <th scope="col">Updated</th>
                          </tr>
                        </thead>
                        <tbody>
                          {result.data.map((record) => {
                            const shown = title
                              ? displayValue(record.attributes[title.api_key], title.localized)
                              : '';
                            return (
                              <tr key={record.id}>
                                <td>
                                  <Link
                                    to={`editor/${environment}/item_types/${model.id}/items/${record.id}/edit`}
                                  >
                                    {shown || `#${record.id}`}
                                  </Link>
                                </td>
                                <td>
                                  <span class={`badge ${record.meta.status}`}>
                                    {record.meta.status}
                                  </span>
                                </td>
                                <td>{new Date(record.meta.updated_at).toLocaleString()}</td>
                              </tr>
                            );
                          })}
                        </tbody>
                      </table>
                    </div>
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
