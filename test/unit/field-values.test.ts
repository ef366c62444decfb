import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateId } from '../../src/domain/ids.ts';
import { emptyValue } from '../../src/domain/schema/field-types/empty-values.ts';
import {
  checkRecordValue,
  checkRecordValues,
  FIELD_TYPES,
  type FieldType,
  isBlank,
  noReferences,
  RECORD_VALUE_RULES,
  RECORD_VALUE_SHAPES,
  type RecordField,
  type RecordValueCheck,
  recordLocales,
  VALIDATOR_RULES,
  type ValidatorName,
} from '../../src/domain/schema/field-types/index.ts';

const LOCALES = ['en', 'it', 'fr'];
const [REC1, REC2, BLOCK1, MODEL, BLOCK_MODEL, UPLOAD] = Array.from({ length: 6 }, generateId);

function field(
  field_type: FieldType,
  overrides: Partial<Omit<RecordField, 'field_type'>> = {},
): RecordField {
  return {
    id: 'field-id-1',
    api_key: `my_${field_type}`,
    label: `My ${field_type}`,
    field_type,
    localized: false,
    validators: {},
    ...overrides,
  };
}

function check(
  definition: RecordField,
  value: unknown,
  recordLocalesList: readonly string[] = LOCALES,
): RecordValueCheck {
  return checkRecordValue(definition, value, {
    locales: LOCALES,
    recordLocales: recordLocalesList,
  });
}

function fragmentsIn(message: string | undefined, fragments: readonly string[]): void {
  for (const fragment of fragments)
    assert.ok(message?.includes(fragment), `"${message}" lacks "${fragment}"`);
}

const newBlock = (attributes: Record<string, unknown> = {}) => ({
  type: 'item',
  attributes,
  relationships: { item_type: { data: { type: 'item_type', id: BLOCK_MODEL } } },
});

const span = (value: string, marks?: string[]) => ({
  type: 'span',
  value,
  ...(marks ? { marks } : {}),
});
const paragraph = (...children: unknown[]) => ({ type: 'paragraph', children });
const dast = (...children: unknown[]) => ({
  schema: 'dast',
  document: { type: 'root', children },
});

const RICH_DOCUMENT = dast(
  { type: 'heading', level: 2, children: [span('Title', ['strong'])] },
  paragraph(
    span('see '),
    {
      type: 'link',
      url: 'https://example.com',
      meta: [{ id: 'rel', value: 'nofollow' }],
      children: [span('here')],
    },
    { type: 'itemLink', item: REC1, children: [span('a record')] },
    { type: 'inlineItem', item: REC2 },
    { type: 'inlineBlock', item: BLOCK1 },
  ),
  {
    type: 'list',
    style: 'bulleted',
    children: [
      {
        type: 'listItem',
        children: [
          paragraph(span('one')),
          {
            type: 'list',
            style: 'numbered',
            children: [{ type: 'listItem', children: [paragraph(span('1.1'))] }],
          },
        ],
      },
    ],
  },
  { type: 'blockquote', attribution: 'Someone', children: [paragraph(span('quoted'))] },
  { type: 'code', code: 'let x = 1;', language: 'js', highlight: [0] },
  { type: 'thematicBreak' },
  { type: 'block', item: newBlock({ title: 'inline block object' }) },
);

type ShapeSamples = {
  accepted: unknown[];
  /** Each refused value with a fragment its message must contain. */
  refused: [unknown, string][];
};

/** For every field type: values its shape accepts and refuses (besides null, always accepted). */
const SHAPES: Record<FieldType, ShapeSamples> = {
  string: {
    accepted: ['hello', ''],
    refused: [
      [42, 'must be a string'],
      [['a'], 'must be a string'],
    ],
  },
  text: { accepted: ['# Markdown\n\ntext'], refused: [[true, 'must be a string']] },
  boolean: {
    accepted: [true, false],
    refused: [
      ['true', 'boolean'],
      [0, 'boolean'],
    ],
  },
  integer: {
    accepted: [42, -3, 0],
    refused: [
      [1.5, 'integer'],
      ['42', 'integer'],
      [2 ** 60, 'integer'],
    ],
  },
  float: {
    accepted: [1.5, 0, -2],
    refused: [
      ['1.5', 'number'],
      [Number.POSITIVE_INFINITY, 'number'],
    ],
  },
  date: {
    accepted: ['2024-02-29'],
    refused: [
      ['2023-02-29', 'YYYY-MM-DD'],
      ['2024-01-01T00:00:00Z', 'YYYY-MM-DD'],
    ],
  },
  date_time: {
    accepted: ['2024-05-17T10:30:00Z', '2024-05-17T10:30:00+02:00', '2024-05-17T10:30:00.123Z'],
    refused: [
      ['2024-05-17', 'ISO 8601'],
      ['yesterday', 'ISO 8601'],
    ],
  },
  color: {
    accepted: [{ red: 1, green: 2, blue: 3, alpha: 255 }],
    refused: [
      [{ red: 256, green: 0, blue: 0, alpha: 255 }, '0 to 255'],
      [{ red: 1, green: 2, blue: 3 }, '{red, green, blue, alpha}'],
      ['#ffffff', '{red, green, blue, alpha}'],
    ],
  },
  json: {
    accepted: ['{"a":1}', '[1,2]', '"text"'],
    refused: [
      ['{a:1}', 'valid JSON'],
      [{ a: 1 }, 'string containing JSON'],
    ],
  },
  lat_lon: {
    accepted: [{ latitude: 45.46, longitude: 9.19 }],
    refused: [
      [{ latitude: 91, longitude: 0 }, '±90'],
      [{ lat: 1, lng: 2 }, '{latitude, longitude}'],
    ],
  },
  seo: {
    accepted: [
      { title: 'T', description: 'D', twitter_card: 'summary', no_index: false },
      { title: null, image: null },
      { image: UPLOAD },
      {},
    ],
    refused: [
      [{ title: 1 }, 'invalid "title"'],
      [{ twitter_card: 'big' }, 'invalid "twitter_card"'],
      [{ titel: 'x' }, 'unknown keys "titel"'],
      ['title', 'must be {title?'],
      [{ image: 'not an id' }, 'invalid "image"'],
    ],
  },
  slug: { accepted: ['my-post'], refused: [[5, 'must be a string']] },
  link: {
    accepted: [REC1],
    refused: [
      ['not-an-id', 'id of a record'],
      [5, 'id of a record'],
    ],
  },
  links: {
    accepted: [[REC1, REC2], [], [REC1, REC1]],
    refused: [
      [REC1, 'array of record ids'],
      [['x'], 'entry 0: "x" is not a record id'],
    ],
  },
  file: {
    accepted: [
      {
        upload_id: UPLOAD,
        alt: 'Alt',
        title: null,
        custom_data: {},
        focal_point: { x: 0.5, y: 0.5 },
        poster_time: null,
      },
    ],
    refused: [
      [{ upload_id: UPLOAD, color: 'red' }, 'unknown keys "color"'],
      [{ alt: 'no upload id' }, 'needs "upload_id"'],
      [{ upload_id: UPLOAD, focal_point: { x: 2, y: 0 } }, 'invalid "focal_point"'],
      [UPLOAD, 'must be {upload_id'],
    ],
  },
  gallery: {
    accepted: [
      [],
      [
        {
          upload_id: UPLOAD,
          alt: null,
          title: 'T',
          custom_data: { k: 'v' },
          focal_point: null,
          poster_time: null,
        },
      ],
    ],
    refused: [
      [[{ upload_id: 'x y' }], 'entry 0: has an invalid "upload_id"'],
      [[{}], 'entry 0: needs "upload_id"'],
      [{ upload_id: UPLOAD }, 'must be an array of uploads'],
    ],
  },
  video: {
    accepted: [
      {
        url: 'https://www.youtube.com/watch?v=abc',
        width: 640,
        height: 360,
        provider: 'youtube',
        provider_uid: 'abc',
        thumbnail_url: 'https://i.ytimg.com/vi/abc/hqdefault.jpg',
        title: 'A video',
      },
    ],
    refused: [
      [{ url: 'https://vimeo.com/1', provider: 'vimeo', provider_uid: '1' }, 'needs "width"'],
      [
        {
          url: 'https://example.com/v',
          width: 1,
          height: 1,
          provider: 'dailymotion',
          provider_uid: 'x',
          thumbnail_url: 'https://example.com/t.jpg',
          title: '',
        },
        'invalid "provider"',
      ],
    ],
  },
  rich_text: {
    accepted: [
      [BLOCK1, newBlock({ title: 'x' }), { type: 'item', id: BLOCK1, attributes: {} }],
      [],
    ],
    refused: [
      [[{ type: 'item', attributes: {} }], 'must name its block model'],
      [['nope'], 'block id "nope" is not a valid id'],
      [BLOCK1, 'must be an array of blocks'],
    ],
  },
  single_block: {
    accepted: [BLOCK1, newBlock()],
    refused: [
      [[BLOCK1], 'a block must be a block id or a block object'],
      [{ type: 'item' }, 'needs an "attributes" object'],
      [{ ...newBlock(), extra: 1 }, 'unknown keys'],
      [{ type: 'item', id: BLOCK1, attributes: {}, relationships: {} }, '"relationships" must be'],
      [
        {
          type: 'item',
          attributes: {},
          relationships: { item_type: { data: { type: 'item_type', id: 'x' } } },
        },
        'block model id "x" is not a valid id',
      ],
      [{ type: 'item', id: 'x', attributes: {} }, 'block id "x" is not a valid id'],
    ],
  },
  structured_text: {
    accepted: [RICH_DOCUMENT, dast(paragraph(span('')))],
    refused: [
      [{ document: { type: 'root', children: [paragraph(span('x'))] } }, 'must be a dast document'],
      [dast(), '"children" must be a non-empty array'],
      [
        dast({ type: 'heading', level: 7, children: [span('x')] }),
        '"level" must be an integer from 1 to 6',
      ],
      [dast(paragraph(paragraph(span('x')))), 'a paragraph node cannot contain a paragraph node'],
      [
        dast({ type: 'list', style: 'bulleted', children: [paragraph(span('x'))] }),
        'a list node cannot contain a paragraph',
      ],
      [dast(paragraph({ type: 'block', item: BLOCK1 })), 'cannot contain a block node'],
      [dast(span('loose')), 'a root node cannot contain a span node'],
      [
        dast(paragraph({ type: 'span', value: 'x', bold: true })),
        '"bold" is not an attribute of span nodes',
      ],
      [dast(paragraph({ type: 'link', children: [span('x')] })), '"url" is required'],
      [dast({ type: 'video' }), 'unknown node type "video"'],
      [
        dast(paragraph({ type: 'itemLink', item: 'x', children: [span('x')] })),
        '"item" must be a record id',
      ],
      [
        { schema: 'dast', document: { type: 'paragraph', children: [span('x')] } },
        'top node must be of type "root"',
      ],
    ],
  },
};

describe('record value shapes', () => {
  test('every field type has a shape and samples', () => {
    assert.deepEqual(Object.keys(RECORD_VALUE_SHAPES).sort(), [...FIELD_TYPES].sort());
    assert.deepEqual(Object.keys(SHAPES).sort(), [...FIELD_TYPES].sort());
  });

  for (const type of FIELD_TYPES) {
    describe(type, () => {
      test('accepts null (kept as the type’s empty value) and its sample values, unchanged', () => {
        for (const value of [null, ...SHAPES[type].accepted]) {
          const result = check(field(type), value);
          assert.deepEqual(result.issues, [], `${type} ${JSON.stringify(value)}`);
          assert.deepEqual(result.value, value ?? emptyValue(type));
        }
      });

      test('refuses values of the wrong shape, naming the field', () => {
        for (const [value, fragment] of SHAPES[type].refused) {
          const { issues } = check(field(type), value);
          assert.equal(
            issues.length,
            1,
            `${type} ${JSON.stringify(value)}: ${JSON.stringify(issues)}`,
          );
          const [issue] = issues;
          assert.equal(issue?.code, 'VALIDATION_INVALID');
          assert.equal(issue?.field, `my_${type}`);
          assert.equal(issue?.locale, undefined);
          fragmentsIn(issue?.message, [fragment]);
        }
      });

      test('localized: checked in each of the record locales, issues naming the locale', () => {
        const localized = field(type, { localized: true });
        const accepted = SHAPES[type].accepted[0] ?? null;
        const ok = check(localized, { en: accepted, it: null }, ['en', 'it']);
        assert.deepEqual(ok.issues, []);
        assert.deepEqual(ok.value, { en: accepted ?? emptyValue(type), it: emptyValue(type) });

        const [refused, fragment] = SHAPES[type].refused[0] ?? [];
        const bad = check(localized, { en: accepted, it: refused }, ['en', 'it']);
        assert.equal(bad.issues.length, 1, JSON.stringify(bad.issues));
        assert.equal(bad.issues[0]?.locale, 'it');
        assert.equal(bad.issues[0]?.code, 'VALIDATION_INVALID');
        fragmentsIn(bad.issues[0]?.message, [fragment ?? '']);

        const unwrapped = check(localized, accepted === null ? 'plain' : accepted, ['en']);
        assert.equal(unwrapped.issues[0]?.code, 'VALIDATION_INVALID');
        fragmentsIn(unwrapped.issues[0]?.message, ['object keyed by locale']);
      });
    });
  }

  test('structured text collects its block, inline block and record references', () => {
    const definition = field('structured_text', {
      validators: {
        structured_text_blocks: { item_types: [BLOCK_MODEL] },
        structured_text_inline_blocks: { item_types: [BLOCK_MODEL] },
        structured_text_links: { item_types: [MODEL] },
      },
    });
    const { issues, deferred } = check(definition, RICH_DOCUMENT);
    assert.deepEqual(issues, []);
    assert.deepEqual(
      deferred.map((d) => ({ ...d, field_id: undefined })),
      [
        {
          validator: 'structured_text_blocks',
          blocks: [newBlock({ title: 'inline block object' })],
          item_types: [BLOCK_MODEL],
          field: 'my_structured_text',
          field_id: undefined,
        },
        {
          validator: 'structured_text_inline_blocks',
          blocks: [BLOCK1],
          item_types: [BLOCK_MODEL],
          field: 'my_structured_text',
          field_id: undefined,
        },
        {
          validator: 'structured_text_links',
          ids: [REC1, REC2],
          item_types: [MODEL],
          field: 'my_structured_text',
          field_id: undefined,
        },
      ],
    );
  });

  test('a structured text nested beyond 64 levels is refused, not walked', () => {
    let list: Record<string, unknown> = { type: 'list', style: 'bulleted', children: [] };
    const root = list;
    for (let depth = 0; depth < 40; depth++) {
      const inner = { type: 'list', style: 'bulleted', children: [] as unknown[] };
      (list.children as unknown[]).push({ type: 'listItem', children: [inner] });
      list = inner;
    }
    (list.children as unknown[]).push({ type: 'listItem', children: [paragraph(span('deep'))] });
    const { issues } = check(field('structured_text'), dast(root));
    fragmentsIn(issues[0]?.message, ['nests deeper than 64 levels']);
  });
});

type ValidatorCase = {
  type: FieldType;
  params: Record<string, unknown>;
  pass: unknown;
  fail: unknown;
  /** A fragment of the failure message; or, for checks handed to the service, what is handed. */
  expect: string | Record<string, unknown>;
};

const UPLOAD_VALUE = { upload_id: UPLOAD };

/** One passing and one failing value per validator of the registry. */
const VALIDATORS: Record<ValidatorName, ValidatorCase> = {
  required: { type: 'string', params: {}, pass: 'x', fail: '', expect: 'must be present' },
  unique: { type: 'string', params: {}, pass: null, fail: 'taken?', expect: { value: 'taken?' } },
  length: {
    type: 'string',
    params: { min: 2, max: 3 },
    pass: 'abc',
    fail: 'abcd',
    expect: 'at most 3',
  },
  format: {
    type: 'string',
    params: { predefined_pattern: 'email' },
    pass: 'a@example.com',
    fail: 'not an email',
    expect: 'email',
  },
  enum: {
    type: 'string',
    params: { values: ['a', 'b'] },
    pass: 'b',
    fail: 'c',
    expect: '"a", "b"',
  },
  number_range: {
    type: 'float',
    params: { min: 0, max: 1 },
    pass: 0.5,
    fail: 1.5,
    expect: 'at most 1',
  },
  date_range: {
    type: 'date',
    params: { min: '2024-01-01' },
    pass: '2024-01-01',
    fail: '2023-12-31',
    expect: 'before 2024-01-01',
  },
  date_time_range: {
    type: 'date_time',
    params: { max: '2024-01-01T00:00:00Z' },
    pass: '2023-12-31T23:59:59Z',
    fail: '2024-01-01T01:00:00+00:00',
    expect: 'after 2024-01-01T00:00:00Z',
  },
  slug_format: {
    type: 'slug',
    params: { predefined_pattern: 'webpage_slug' },
    pass: 'my-first_post-2',
    fail: 'My Post',
    expect: 'web page slug',
  },
  slug_title_field: {
    type: 'slug',
    params: { title_field_id: 'f' },
    pass: 'any thing',
    fail: null,
    expect: '',
  },
  item_item_type: {
    type: 'link',
    params: { item_types: [MODEL] },
    pass: null,
    fail: REC1,
    expect: { ids: [REC1], item_types: [MODEL] },
  },
  items_item_type: {
    type: 'links',
    params: { item_types: [MODEL] },
    pass: [],
    fail: [REC1, REC2],
    expect: { ids: [REC1, REC2], item_types: [MODEL] },
  },
  size: {
    type: 'links',
    params: { min: 1, multiple_of: 2 },
    pass: [REC1, REC2],
    fail: [REC1],
    expect: 'multiple of 2',
  },
  extension: {
    type: 'file',
    params: { predefined_list: 'image' },
    pass: null,
    fail: UPLOAD_VALUE,
    expect: { uploads: [UPLOAD_VALUE], params: { predefined_list: 'image' } },
  },
  file_size: {
    type: 'gallery',
    params: { max_value: 1, max_unit: 'MB' },
    pass: [],
    fail: [UPLOAD_VALUE, UPLOAD_VALUE],
    expect: { uploads: [UPLOAD_VALUE, UPLOAD_VALUE], params: { max_value: 1, max_unit: 'MB' } },
  },
  image_dimensions: {
    type: 'seo',
    params: { width_min_value: 100 },
    pass: { title: 'no image' },
    fail: { image: UPLOAD },
    expect: { uploads: [UPLOAD_VALUE], params: { width_min_value: 100 } },
  },
  image_aspect_ratio: {
    type: 'file',
    params: { eq_ar_numerator: 16, eq_ar_denominator: 9 },
    pass: null,
    fail: UPLOAD_VALUE,
    expect: { uploads: [UPLOAD_VALUE], params: { eq_ar_numerator: 16, eq_ar_denominator: 9 } },
  },
  required_alt_title: {
    type: 'file',
    params: { alt: true },
    pass: null,
    fail: UPLOAD_VALUE,
    expect: { uploads: [UPLOAD_VALUE], params: { alt: true } },
  },
  required_seo_fields: {
    type: 'seo',
    params: { title: true, description: true },
    pass: { title: 'T', description: 'D' },
    fail: { title: 'T', description: '' },
    expect: 'must have description set',
  },
  title_length: {
    type: 'seo',
    params: { max: 5 },
    pass: { title: 'short' },
    fail: { title: 'too long' },
    expect: 'title: length must be at most 5',
  },
  description_length: {
    type: 'seo',
    params: { min: 3 },
    pass: { description: 'long enough' },
    fail: { description: 'no' },
    expect: 'description: length must be at least 3',
  },
  rich_text_blocks: {
    type: 'rich_text',
    params: { item_types: [BLOCK_MODEL] },
    pass: [],
    fail: [BLOCK1, newBlock()],
    expect: { blocks: [BLOCK1, newBlock()], item_types: [BLOCK_MODEL] },
  },
  single_block_blocks: {
    type: 'single_block',
    params: { item_types: [BLOCK_MODEL] },
    pass: null,
    fail: BLOCK1,
    expect: { blocks: [BLOCK1], item_types: [BLOCK_MODEL] },
  },
  structured_text_blocks: {
    type: 'structured_text',
    params: { item_types: [BLOCK_MODEL] },
    pass: dast(paragraph(span('no blocks'))),
    fail: dast({ type: 'block', item: BLOCK1 }),
    expect: { blocks: [BLOCK1], item_types: [BLOCK_MODEL] },
  },
  structured_text_inline_blocks: {
    type: 'structured_text',
    params: { item_types: [BLOCK_MODEL] },
    pass: dast({ type: 'block', item: BLOCK1 }),
    fail: dast(paragraph({ type: 'inlineBlock', item: BLOCK1 })),
    expect: { blocks: [BLOCK1], item_types: [BLOCK_MODEL] },
  },
  structured_text_links: {
    type: 'structured_text',
    params: { item_types: [MODEL] },
    pass: dast(paragraph(span('no links'))),
    fail: dast(paragraph({ type: 'inlineItem', item: REC2 })),
    expect: { ids: [REC2], item_types: [MODEL] },
  },
  sanitized_html: {
    type: 'text',
    params: { sanitize_before_validation: false },
    pass: '<p onclick-free="1">Hello <a href="https://x.y">x</a></p>',
    fail: '<p>Hi</p><script>alert(1)</script>',
    expect: 'a script or embedding element',
  },
};

/** Runs one rule the way checkRecordValue does: shape first (collecting references), then it. */
function runRule(name: ValidatorName, testCase: ValidatorCase, value: unknown) {
  const rule = RECORD_VALUE_RULES[name];
  const refs = noReferences();
  if (value !== null) assert.equal(RECORD_VALUE_SHAPES[testCase.type](value, refs), null);
  if (value === null && rule.sees === 'values') return null;
  return rule.check({ value, params: testCase.params, refs });
}

describe('record value rules', () => {
  test('every validator of the registry has a value rule and a test case', () => {
    const validators = Object.keys(VALIDATOR_RULES).sort();
    assert.deepEqual(Object.keys(RECORD_VALUE_RULES).sort(), validators);
    assert.deepEqual(Object.keys(VALIDATORS).sort(), validators);
  });

  for (const [name, testCase] of Object.entries(VALIDATORS) as [ValidatorName, ValidatorCase][]) {
    test(`${name}: a passing and a failing value`, () => {
      assert.equal(runRule(name, testCase, testCase.pass), null, 'the passing value');
      const outcome = runRule(name, testCase, testCase.fail);
      if (name === 'slug_title_field') {
        // The one validator that says nothing about a value: no value can fail it.
        assert.equal(outcome, null);
        return;
      }
      if (typeof testCase.expect === 'string') {
        assert.ok(outcome && 'problem' in outcome, JSON.stringify(outcome));
        fragmentsIn(outcome.problem, [testCase.expect]);
      } else {
        assert.deepEqual(outcome, { defer: { validator: name, ...testCase.expect } });
      }
    });
  }

  test('checkRecordValue reports a failing validator with its code, field and locale', () => {
    const definition = field('string', {
      api_key: 'title',
      label: 'Title',
      localized: true,
      validators: { required: {}, length: { max: 3 }, enum: { values: ['abc', 'abcd'] } },
    });
    const { issues } = check(definition, { en: 'abcd', it: null }, ['en', 'it']);
    assert.deepEqual(issues, [
      {
        field: 'title',
        field_id: 'field-id-1',
        locale: 'en',
        field_label: 'Title',
        field_type: 'string',
        code: 'VALIDATION_LENGTH',
        message: 'length must be at most 3 characters',
        validator: 'length',
      },
      {
        field: 'title',
        field_id: 'field-id-1',
        locale: 'it',
        field_label: 'Title',
        field_type: 'string',
        code: 'VALIDATION_REQUIRED',
        message: 'must be present',
        validator: 'required',
      },
    ]);
  });

  test('codes: VALIDATION_<VALIDATOR>, and VALIDATION_UNIQUENESS is the service’s', () => {
    const numbers = field('integer', { validators: { number_range: { min: 10 } } });
    assert.equal(check(numbers, 5).issues[0]?.code, 'VALIDATION_NUMBER_RANGE');
    const unique = check(field('slug', { validators: { unique: {} } }), 'taken');
    assert.deepEqual(unique.issues, []);
    assert.deepEqual(unique.deferred, [
      { validator: 'unique', value: 'taken', field: 'my_slug', field_id: 'field-id-1' },
    ]);
  });

  test('a value of the wrong shape is not run through the validators', () => {
    const definition = field('integer', { validators: { required: {}, number_range: { max: 1 } } });
    const { issues } = check(definition, '7');
    assert.deepEqual(
      issues.map((i) => i.code),
      ['VALIDATION_INVALID'],
    );
  });

  test('required: null, empty strings and empty lists are blank; false and 0 are not', () => {
    for (const value of [null, undefined, '', []]) assert.equal(isBlank(value), true);
    for (const value of [false, 0, ' ', {}, [null]]) assert.equal(isBlank(value), false);
    const links = field('single_block', { validators: { required: {} } });
    assert.equal(check(links, null).issues[0]?.code, 'VALIDATION_REQUIRED');
    const flag = field('boolean', { validators: {} });
    assert.deepEqual(check(flag, false).issues, []);
  });

  test('required_seo_fields also fails an empty SEO value', () => {
    const seo = field('seo', { validators: { required_seo_fields: { title: true } } });
    const { issues } = check(seo, null);
    assert.equal(issues[0]?.code, 'VALIDATION_REQUIRED_SEO_FIELDS');
    fragmentsIn(issues[0]?.message, ['must have title set']);
  });

  test('structured text length counts the characters of its text', () => {
    const definition = field('structured_text', { validators: { length: { max: 5 } } });
    assert.deepEqual(check(definition, dast(paragraph(span('abc'), span('de')))).issues, []);
    const { issues } = check(definition, dast(paragraph(span('abc')), paragraph(span('def'))));
    assert.equal(issues[0]?.code, 'VALIDATION_LENGTH');
    fragmentsIn(issues[0]?.message, ['at most 5 characters of text (has 6)']);
  });

  test('sanitized_html: refused as sent, or cleaned first with sanitize_before_validation', () => {
    const html =
      '<p onmouseover="steal()">Hi <a href="javascript:alert(1)">x</a></p><iframe src="//x"></iframe>';
    const strict = field('text', {
      validators: { sanitized_html: { sanitize_before_validation: false } },
    });
    const refused = check(strict, html);
    assert.equal(refused.issues[0]?.code, 'VALIDATION_SANITIZED_HTML');
    assert.equal(refused.value, html);

    const cleaning = field('text', {
      validators: { sanitized_html: { sanitize_before_validation: true } },
    });
    const cleaned = check(cleaning, html);
    assert.deepEqual(cleaned.issues, []);
    assert.equal(cleaned.value, '<p>Hi <a href="">x</a></p>');
    assert.equal(check(cleaning, '<scr<script></script>ipt>alert(1)</script>').value, 'alert(1)');
  });

  test('slug_format with a custom pattern', () => {
    const slug = field('slug', { validators: { slug_format: { custom_pattern: '^[a-z]+$' } } });
    assert.deepEqual(check(slug, 'abc').issues, []);
    assert.equal(check(slug, 'ab-c').issues[0]?.code, 'VALIDATION_SLUG_FORMAT');
  });
});

describe('localized values', () => {
  const title = field('string', {
    api_key: 'title',
    localized: true,
    validators: { required: {} },
  });
  const plain = field('integer', { api_key: 'count' });

  test('recordLocales: every site locale when all are required', () => {
    assert.deepEqual(
      recordLocales(
        [title],
        { title: { it: 'x' } },
        { locales: LOCALES, allLocalesRequired: true },
      ),
      LOCALES,
    );
  });

  test('recordLocales: otherwise the keys of the localized values, in site order', () => {
    const options = { locales: LOCALES, allLocalesRequired: false };
    // A locale given null is one of the record's locales; the main one is not implied.
    assert.deepEqual(recordLocales([title], { title: { fr: 'x', it: null } }, options), [
      'it',
      'fr',
    ]);
    // No localized value: every site locale (what the defaults are keyed by).
    assert.deepEqual(recordLocales([title], {}, options), LOCALES);
    // Non-localized values never name a locale.
    assert.deepEqual(recordLocales([plain], { count: { it: 1 } }, options), LOCALES);
    // A defaulted value names none; on an update a kept value names them before sent ones.
    const body = field('string', { api_key: 'body', localized: true });
    const values = { title: { it: 'x' }, body: { en: 'y', fr: null } };
    assert.deepEqual(
      recordLocales([title, body], values, { ...options, defaulted: new Set(['title']) }),
      ['en', 'fr'],
    );
    assert.deepEqual(
      recordLocales([title, body], values, { ...options, sent: new Set(['title']) }),
      ['en', 'fr'],
    );
  });

  test('all locales required: every locale present, a required field needs a value in each', () => {
    const options = { locales: LOCALES, allLocalesRequired: true };
    const { issues, values } = checkRecordValues(
      [title, plain],
      { title: { en: 'Hello', it: 'Ciao', fr: null }, count: 3 },
      options,
    );
    assert.deepEqual(
      issues.map((i) => [i.field, i.locale, i.code]),
      [['title', 'fr', 'VALIDATION_REQUIRED']],
    );
    assert.deepEqual(values, { title: { en: 'Hello', it: 'Ciao', fr: null }, count: 3 });
    const missing = checkRecordValues([title], { title: { en: 'Hello', it: 'Ciao' } }, options);
    assert.deepEqual(
      missing.issues.map((i) => [i.code, i.locale ?? i.required_locales]),
      [
        ['INVALID_LOCALES', LOCALES],
        ['VALIDATION_REQUIRED', 'fr'],
      ],
    );
  });

  test('optional locales: only the record’s locales are checked, the main one included', () => {
    const options = { locales: LOCALES, allLocalesRequired: false };
    const ok = checkRecordValues([title], { title: { it: 'Ciao', en: 'Hi' } }, options);
    assert.deepEqual(ok.issues, []);
    assert.deepEqual(ok.recordLocales, ['en', 'it']);
    assert.deepEqual(ok.values, { title: { en: 'Hi', it: 'Ciao' } });

    const italianOnly = checkRecordValues([title], { title: { it: 'Ciao' } }, options);
    assert.deepEqual(italianOnly.issues, []);
    assert.deepEqual(italianOnly.values, { title: { it: 'Ciao' } });
  });

  test('localized fields that disagree, or unknown locales: INVALID_LOCALES', () => {
    const unknown = check(title, { en: 'x', de: 'y' }, ['en']);
    assert.equal(unknown.issues.length, 1);
    assert.equal(unknown.issues[0]?.code, 'INVALID_LOCALES');
    assert.deepEqual(unknown.issues[0]?.required_locales, ['en']);
    fragmentsIn(unknown.issues[0]?.message, ['unknown locale "de"']);

    const outside = check(title, { en: 'x', it: 'y' }, ['en']);
    assert.equal(outside.issues[0]?.code, 'INVALID_LOCALES');
    fragmentsIn(outside.issues[0]?.message, ['"it"', 'same locales']);

    const body = field('string', { api_key: 'body', localized: true });
    const { issues } = checkRecordValues(
      [title, body],
      { title: { en: 'x', it: 'y' }, body: { en: 'z' } },
      { locales: LOCALES, allLocalesRequired: false },
    );
    assert.deepEqual(
      issues.map((i) => [i.field, i.code, i.required_locales]),
      [['body', 'INVALID_LOCALES', ['en', 'it']]],
    );
  });

  test('a defaulted value takes the record’s locales', () => {
    const { issues, value } = checkRecordValue(
      title,
      { en: 'Default', it: 'Predefinito', fr: null },
      { locales: LOCALES, recordLocales: ['it'], defaulted: true },
    );
    assert.deepEqual(issues, []);
    assert.deepEqual(value, { it: 'Predefinito' });
  });

  test('an empty links, gallery or modular content value is [], in each locale', () => {
    for (const fieldType of ['links', 'gallery', 'rich_text'] as const) {
      assert.deepEqual(check(field(fieldType), null).value, [], fieldType);
      assert.deepEqual(check(field(fieldType), undefined).value, [], fieldType);
      const localized = field(fieldType, { localized: true });
      assert.deepEqual(check(localized, { en: null, it: [] }, ['en', 'it']).value, {
        en: [],
        it: [],
      });
    }
    assert.equal(check(field('link'), null).value, null);
    // An empty list is empty for every rule: `size` judges a list holding something.
    const sized = field('links', { validators: { size: { min: 2 } } });
    assert.deepEqual(check(sized, []).issues, []);
    assert.equal(check(sized, [REC1]).issues[0]?.code, 'VALIDATION_SIZE');
    const required = field('links', { validators: { required: {} } });
    assert.equal(check(required, null).issues[0]?.code, 'VALIDATION_REQUIRED');
  });

  test('an omitted localized value is empty in every record locale', () => {
    const { issues, value } = check(title, undefined, ['en', 'it']);
    assert.deepEqual(value, { en: null, it: null });
    assert.deepEqual(
      issues.map((i) => i.locale),
      ['en', 'it'],
    );
  });

  test('locale keys named like Object.prototype members are just unknown locales', () => {
    const { issues } = check(title, JSON.parse('{"en":"x","__proto__":"y","constructor":"z"}'), [
      'en',
    ]);
    assert.equal(issues[0]?.code, 'INVALID_LOCALES');
    fragmentsIn(issues[0]?.message, ['"__proto__"', '"constructor"']);
  });
});
