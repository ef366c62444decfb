import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonStringContent } from '../../src/delivery/json-escape.ts';
import { renderPayloadTemplate, renderUrlTemplate } from '../../src/delivery/templates.ts';

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
