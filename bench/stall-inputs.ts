// Benchmark: the hostile inputs of issue 23 (items 1, 3, 4) through the official client on
// loopback, against an in-process server on a fresh database
// (FIELDHOUSE_TEST_DB=embedded|postgres): how long each request takes, and how long a
// `/healthz` sent while it is in flight takes to answer (the stall others see).
// Usage: FIELDHOUSE_TEST_DB=embedded npx tsx bench/stall-inputs.ts
import { startTestServer } from '../test/support/server.ts';

const server = await startTestServer();
const client = server.client();

let models = 0;
async function modelWith(field: Record<string, unknown>): Promise<string> {
  models += 1;
  const model = await client.itemTypes.create({
    name: `Stall ${models}`,
    api_key: `stall${models}`,
  });
  await client.fields.create(model.id, { label: 'Value', api_key: 'value', ...field } as never);
  return model.id;
}

async function measure(label: string, call: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  const request = call().then(
    () => 'answered',
    (error: { response?: { status?: number } }) => `refused ${error.response?.status ?? error}`,
  );
  const healthz = fetch(`${server.baseUrl}/healthz`).then(() => performance.now() - started);
  const outcome = await request;
  const elapsed = performance.now() - started;
  console.log(
    `${label}: ${outcome} in ${elapsed.toFixed(0)} ms; /healthz answered after ${(await healthz).toFixed(0)} ms`,
  );
}

const item = (modelId: string, value: string) =>
  client.items.create({ item_type: { type: 'item_type', id: modelId }, value } as never);

const titled = await modelWith({ field_type: 'string' });
await item(titled, `${'a'.repeat(1501)}x`);
await measure('1. matches ^(a*)(a*)\\1\\2x$ over 1,502 characters', () =>
  client.items.list({
    filter: { type: titled, fields: { value: { matches: { pattern: '^(a*)(a*)\\1\\2x$' } } } },
  } as never),
);

const html = await modelWith({
  field_type: 'text',
  validators: { sanitized_html: { sanitize_before_validation: false } },
});
for (const [label, value] of [
  ['3. sanitized_html, 64,000 spaces', ' '.repeat(64_000)],
  ['3. sanitized_html, 128,000 spaces', ' '.repeat(128_000)],
  ['3. sanitized_html, " href=" and 128,000 spaces', `" href="${' '.repeat(128_000)}`],
] as const)
  await measure(label, () => item(html, value));

const format = await modelWith({
  field_type: 'string',
  validators: { format: { custom_pattern: '^(a+)+$' } },
});
for (const count of [28, 40])
  await measure(`4. format ^(a+)+$ against "a"×${count} + "!"`, () =>
    item(format, `${'a'.repeat(count)}!`),
  );

await server.close();
