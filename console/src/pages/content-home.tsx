import { useSession } from '../session.ts';
import { Link, Loaded, useAsync } from '../ui.tsx';

/** Content: the models a record can be made of (blocks live inside records, not here). */
export function ContentHome() {
  const { client, environment } = useSession();
  const models = useAsync(() => client.itemTypes.list(), [client]);
  return (
    <>
      <h1>Content</h1>
      <Loaded state={models}>
        {(list) => {
          const records = list.filter((model) => !model.modular_block);
          if (records.length === 0) {
            return (
              <p>
                No models yet.{' '}
                <Link to={`editor/${environment}/schema`}>Create one in the schema</Link>.
              </p>
            );
          }
          return (
            <nav aria-label="Models">
              <ul class="sidebar">
                {records.map((model) => (
                  <li key={model.id}>
                    <Link to={`editor/${environment}/item_types/${model.id}/items`}>
                      {model.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          );
        }}
      </Loaded>
    </>
  );
}
