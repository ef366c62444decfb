// Benchmark: the hostile inputs of issue 23 (items 1, 3, 4) through the official client on
// loopback, against an in-process server on a fresh database
// (FIELDHOUSE_TEST_DB=embedded|postgres): how long each request takes, and how long a
// `/healthz` sent while it is in flight takes to answer (the stall others see). Then a
// delivery API page of long Markdown texts, with the slowest of the `/healthz` requests
// sent one after another while it runs.
// Usage: FIELDHOUSE_TEST_DB=embedded npx tsx bench/stall-inputs.ts
import { executeQuery } from '@datocms/cda-client';
import { deliveryToken } from '../test/support/delivery-tokens.ts';
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

/** `/healthz` again and again while `call` runs: the slowest answer is the longest stall. */
async function measurePolling(label: string, call: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  let done = false;
  const request = call().then(
    () => 'answered',
    (error: Error) => `refused: ${error.message.slice(0, 80)}`,
  );
  void request.finally(() => {
    done = true;
  });
  let slowest = 0;
  let polls = 0;
  while (!done) {
    const sent = performance.now();
    await fetch(`${server.baseUrl}/healthz`).then((response) => response.text());
    slowest = Math.max(slowest, performance.now() - sent);
    polls += 1;
  }
  const outcome = await request;
  console.log(
    `${label}: ${outcome} in ${(performance.now() - started).toFixed(0)} ms; ${polls} /healthz meanwhile, the slowest ${slowest.toFixed(0)} ms`,
  );
}

/** 200,000 characters of headings, emphasis, code, links, lists and quotes. */
function richMarkdown(): string {
  let text = '';
  for (let n = 0; text.length < 200_000; n++)
    text += `## Heading ${n}\n\nSome *emphasis*, **strong words**, \`code\` and a [link](https://example.com/${n}) in a sentence.\n\n- item one\n- item _two_\n\n> a quoted line\n\n`;
  return text.slice(0, 200_000);
}

const notes = await modelWith({ field_type: 'text' });
for (let index = 0; index < 15; index++) {
  const created = await item(notes, richMarkdown());
  await client.items.publish(created.id);
}
const delivery = {
  token: await deliveryToken(server.db, { preview: false }),
  graphqlEndpointUrl: `${server.baseUrl}/graphql`,
  autoRetry: false,
};
const page = (count: number, markdown: boolean) =>
  executeQuery(
    `{ allStall${models}s(first: ${count}) { value(markdown: ${markdown}) } }`,
    delivery,
  );
// The first query builds the delivery schema: not what is measured.
await page(15, false);
for (const count of [1, 15])
  await measurePolling(`5. ${count} texts of 200,000 characters as Markdown`, () =>
    page(count, true),
  );

await server.close();
