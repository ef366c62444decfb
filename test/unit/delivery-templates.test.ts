import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonStringContent } from '../../src/webhook-worker/json-escape.ts';
import { renderPayloadTemplate, renderUrlTemplate } from '../../src/webhook-worker/templates.ts';

const TRICKY = [
  'plain',
  'quote " and \\ backslash',
  'new\nline\r\ttab',
  "slash / amp & lt < gt > apos ' eq =",
  'ünïcödé € 😀 \u2028 \u2029',
  '\ud800 lone surrogate \udfff',
  '{{not a tag}}',
  Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join(''),
];

test('{{x}} produces JSON string content for any value; / and & stay as they are', () => {
  for (const value of TRICKY) {
    const body = renderPayloadTemplate('{"v": "{{v}}"}', { v: value });
    assert.equal(JSON.parse(body).v, value, body);
  }
  assert.equal(jsonStringContent('a/b & c'), 'a/b & c');
  assert.equal(jsonStringContent('say "hi"\n'), 'say \\"hi\\"\\n');
  assert.equal(jsonStringContent('\u0001'), '\\u0001');
});

test('objects, numbers and booleans render as their JSON; triple braces are raw', () => {
  const context = { obj: { a: [1, '"x"'] }, n: 4.5, yes: true, nothing: null };
  const body = renderPayloadTemplate(
    '{"obj": "{{obj}}", "raw": {{{n}}}, "amp": {{& yes}}, "n": {{n}}, "none": "{{nothing}}"}',
    context,
  );
  const parsed = JSON.parse(body);
  assert.deepEqual(JSON.parse(parsed.obj), context.obj);
  assert.equal(parsed.raw, 4.5);
  assert.equal(parsed.amp, true);
  assert.equal(parsed.n, 4.5);
  assert.equal(parsed.none, '');
});

test('sections and dotted names reach the payload context', () => {
  const context = {
    event_type: 'update',
    entity_type: 'item',
    entity: { id: '123213', attributes: { title: 'T' } },
    related_entities: [{ id: '1' }, { id: '2' }],
  };
  assert.equal(
    renderPayloadTemplate(
      '{"message": "{{event_type}} event triggered on {{entity_type}}!", "entity_id": "{{#entity}}{{id}}{{/entity}}"}',
      context,
    ),
    '{"message": "update event triggered on item!", "entity_id": "123213"}',
  );
  assert.equal(
    renderPayloadTemplate(
      '{{entity.attributes.title}}:{{#related_entities}}{{id}},{{/related_entities}}',
      context,
    ),
    'T:1,2,',
  );
});

test('urls percent-encode {{x}}, keep {{{x}}} raw, and must stay absolute http(s)', () => {
  const context = { id: 'a b/c?d&e', path: 'x/y' };
  assert.equal(
    renderUrlTemplate('https://example.com/{{{path}}}/{{id}}', context),
    'https://example.com/x/y/a%20b%2Fc%3Fd%26e',
  );
  assert.throws(() => renderUrlTemplate('{{id}}', context), /not an absolute URL/);
  assert.throws(() => renderUrlTemplate('ftp://example.com/', context), /not an http or https URL/);
});

/** `{{#name}}` nested `depth` times around `inner`. */
function nested(name: string, depth: number, inner: string): string {
  return `${`{{#${name}}}`.repeat(depth)}${inner}${`{{/${name}}}`.repeat(depth)}`;
}

test('nested repeated sections are stopped by counted work, not left to render 2^depth times', () => {
  const context = { related_entities: [{ id: '1' }, { id: '2' }] };
  // 2^22 renders of the innermost section, each at depth 22.
  assert.throws(
    () => renderPayloadTemplate(nested('related_entities', 22, '{{id}}'), context),
    /the custom payload: rendering takes more than 1,000,000 steps/,
  );
  // The issue's template: 48 levels, 2^48 renders.
  assert.throws(
    () => renderPayloadTemplate(nested('related_entities', 48, ''), context),
    /rendering takes more than/,
  );
  assert.throws(
    () => renderUrlTemplate(`https://example.com/${nested('related_entities', 48, 'x')}`, context),
    /the url: rendering takes more than/,
  );
  // The same nesting within the limits renders exactly as Mustache does.
  assert.equal(renderPayloadTemplate(nested('related_entities', 3, '{{id}}'), context), '12121212');
});

test('a render stops once its output passes the size limit', () => {
  const big = 'x'.repeat(100_000);
  const items = Array.from({ length: 100 }, () => ({}));
  for (const template of ['{{#items}}{{big}}{{/items}}', '{{#items}}{{{big}}}{{/items}}']) {
    assert.throws(
      () => renderPayloadTemplate(template, { big, items }),
      /the output is longer than 4,194,304 characters/,
    );
  }
  const text = `{{#items}}${'y'.repeat(100_000)}{{/items}}`;
  assert.throws(() => renderPayloadTemplate(text, { items }), /the output is longer than/);
  assert.equal(renderPayloadTemplate('{{#items}}{{{big}}}{{/items}}', { big, items: [{}] }), big);
});
