import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { ErrorNote, Field, Loaded, TextField, useAction, useAsync } from '../ui.tsx';

const EVENTS: ApiTypes.WebhookCreateSchema['events'] = [
  { entity_type: 'item', event_types: ['create', 'update', 'publish', 'unpublish', 'delete'] },
];

/** Webhooks: list, create (on every record event), and each one's delivery log with resend. */
export function WebhooksSection() {
  const { client } = useSession();
  const webhooks = useAsync(() => client.webhooks.list(), [client]);
  const [open, setOpen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const action = useAction();
  return (
    <Loaded state={webhooks}>
      {(list) => (
        <>
          {list.length === 0 ? <p class="muted">No webhooks.</p> : null}
          {list.map((webhook) => (
            <div class="card" key={webhook.id}>
              <header>
                <strong>{webhook.name}</strong>
                <button
                  type="button"
                  class="ghost"
                  aria-expanded={open === webhook.id}
                  onClick={() => setOpen(open === webhook.id ? null : webhook.id)}
                >
                  Delivery log of {webhook.name}
                </button>
              </header>
              <p class="muted">{webhook.url}</p>
              {open === webhook.id ? <DeliveryLog webhookId={webhook.id} /> : null}
            </div>
          ))}
          <h2>New webhook</h2>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              action.run(async () => {
                await client.webhooks.create({
                  name,
                  url,
                  headers: {},
                  events: EVENTS,
                  custom_payload: null,
                  http_basic_user: null,
                  http_basic_password: null,
                });
                setName('');
                setUrl('');
                webhooks.reload();
              });
            }}
          >
            <TextField label="Name" required value={name} onInput={setName} />
            <Field label="URL" hint="Called on every record event">
              {(id) => (
                <input
                  id={id}
                  type="url"
                  required
                  value={url}
                  onInput={(e) => setUrl(e.currentTarget.value)}
                />
              )}
            </Field>
            <ErrorNote error={action.error} />
            <button type="submit" disabled={action.busy}>
              Create webhook
            </button>
          </form>
        </>
      )}
    </Loaded>
  );
}

function DeliveryLog(props: { webhookId: string }) {
  const { client } = useSession();
  const calls = useAsync(
    () => client.webhookCalls.list({ filter: { fields: { webhook_id: { eq: props.webhookId } } } }),
    [client, props.webhookId],
  );
  const action = useAction();
  return (
    <>
      <div class="row">
        <button type="button" class="ghost" onClick={calls.reload}>
          Refresh log
        </button>
      </div>
      <ErrorNote error={action.error} />
      <Loaded state={calls}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No deliveries yet.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Response</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((call) => (
                    <tr key={call.id}>
                      <td>
                        {call.entity_type} {call.event_type}
                        <br />
                        <small class="muted">{new Date(call.created_at).toLocaleString()}</small>
                      </td>
                      <td data-testid="delivery-status">{call.status}</td>
                      <td>
                        {call.response_status ?? '—'}
                        {call.response_payload ? (
                          <pre>{call.response_payload.slice(0, 500)}</pre>
                        ) : null}
                      </td>
                      <td>
                        <button
                          type="button"
                          class="ghost"
                          disabled={action.busy}
                          onClick={() =>
                            action.run(async () => {
                              await client.webhookCalls.resendWebhook(call.id);
                              calls.reload();
                            })
                          }
                        >
                          Resend
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </>
  );
}
