import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { type FieldTypeSamples, samplesFor } from '../support/field-type-samples.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();
let modelId: string;
let blockId: string;
let samples: [string, FieldTypeSamples][];
let created = 0;

before(async () => {
  const model = await client.itemTypes.create({ name: 'Catalogue', api_key: 'catalogue' });
  const block = await client.itemTypes.create({
    name: 'Quote',
    api_key: 'quote',
    modular_block: true,
  });
  const title = await client.fields.create(model.id, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
  });
  modelId = model.id;
  blockId = block.id;
  samples = Object.entries(samplesFor({ model: model.id, block: block.id, titleField: title.id }));
});

type FieldBody = Parameters<Client['fields']['create']>[1];

function createField(fieldType: string, attributes: Record<string, unknown>, itemTypeId = modelId) {
  created++;
  return client.fields.create(itemTypeId, {
    label: `${fieldType} ${created}`,
    api_key: `field${created}`,
    field_type: fieldType,
    ...attributes,
  } as FieldBody);
}

function union(pick: (sample: FieldTypeSamples) => Record<string, unknown>) {
  const all = new Map<string, unknown>();
  for (const [, sample] of samples)
    for (const [k, v] of Object.entries(pick(sample))) all.set(k, v);
  return all;
}

describe('every field type through the official client', () => {
  test('each allowed validator is accepted, alone and all together, and stored', async () => {
    for (const [fieldType, sample] of samples) {
      for (const [name, params] of Object.entries(sample.validators)) {
        const validators = { ...sample.requiredValidators, [name]: params };
        const field = await createField(fieldType, { validators });
        assert.deepEqual(
          Object.keys(field.validators).sort(),
          Object.keys(validators).sort(),
          `${fieldType}.${name}`,
        );
        for (const [param, value] of Object.entries(params)) {
          assert.deepEqual(
            (field.validators as Record<string, Record<string, unknown>>)[name]?.[param],
            value,
            `${fieldType}.${name}.${param}`,
          );
        }
      }
      const all = await createField(fieldType, { validators: sample.validators });
      assert.deepEqual(
        Object.keys(all.validators).sort(),
        Object.keys(sample.validators).sort(),
        fieldType,
      );
    }
  });

  test('each built-in editor is accepted with its parameters', async () => {
    for (const [fieldType, sample] of samples) {
      for (const [editor, appearance] of Object.entries(sample.appearances)) {
        const field = await createField(fieldType, {
          validators: sample.requiredValidators,
          appearance,
        });
        assert.equal(field.appearance.editor, editor, fieldType);
        for (const [param, value] of Object.entries(appearance.parameters)) {
          assert.deepEqual(
            (field.appearance.parameters as Record<string, unknown>)[param],
            value,
            `${editor}.${param}`,
          );
        }
      }
    }
  });

  test('a field created without appearance gets its type default editor', async () => {
    for (const [fieldType, sample] of samples) {
      const field = await createField(fieldType, { validators: sample.requiredValidators });
      assert.ok(
        Object.keys(sample.appearances).includes(field.appearance.editor),
        `${fieldType} → ${field.appearance.editor}`,
      );
      assert.deepEqual(field.appearance.addons, []);
    }
  });

  test('each validator of another type is refused with VALIDATION_INVALID', async () => {
    const allValidators = union((sample) => sample.validators);
    for (const [fieldType, sample] of samples) {
      for (const [name, params] of allValidators) {
        if (name in sample.validators) continue;
        await rejectsWithApiError(
          createField(fieldType, {
            validators: { ...sample.requiredValidators, [name]: params },
          }).then(() => assert.fail(`${fieldType} accepted ${name}`)),
          'INVALID_FIELD',
          { field: 'validators', code: 'VALIDATION_INVALID' },
        );
      }
    }
  });

  test('each editor of another type is refused with VALIDATION_INVALID', async () => {
    const allEditors = union((sample) => sample.appearances);
    for (const [fieldType, sample] of samples) {
      for (const [editor, appearance] of allEditors) {
        if (editor in sample.appearances) continue;
        await rejectsWithApiError(
          createField(fieldType, {
            validators: sample.requiredValidators,
            appearance,
          }).then(() => assert.fail(`${fieldType} accepted ${editor}`)),
          'INVALID_FIELD',
          { field: 'appearance', code: 'VALIDATION_INVALID' },
        );
      }
    }
  });

  test('a missing required validator is refused with VALIDATION_REQUIRED', async () => {
    for (const [fieldType, sample] of samples) {
      for (const name of Object.keys(sample.requiredValidators)) {
        const { [name]: _missing, ...rest } = sample.requiredValidators;
        await rejectsWithApiError(
          createField(fieldType, { validators: rest }).then(() =>
            assert.fail(`${fieldType} without ${name}`),
          ),
          'INVALID_FIELD',
          { field: 'validators', code: 'VALIDATION_REQUIRED' },
        );
      }
    }
  });

  test('default values: the sample is stored, localized under every locale; others only null', async () => {
    for (const [fieldType, sample] of samples) {
      const base = { validators: sample.validators };
      if (sample.defaultValue === null) {
        await rejectsWithApiError(
          createField(fieldType, { ...base, default_value: 'x' }),
          'INVALID_FIELD',
          { field: 'default_value' },
        );
        const field = await createField(fieldType, { ...base, localized: true });
        assert.deepEqual(field.default_value, { en: null }, fieldType);
        continue;
      }
      const plain = await createField(fieldType, { ...base, default_value: sample.defaultValue });
      assert.deepEqual(plain.default_value, sample.defaultValue, fieldType);
      const localized = await createField(fieldType, {
        ...base,
        localized: true,
        default_value: { en: sample.defaultValue },
      });
      assert.deepEqual(localized.default_value, { en: sample.defaultValue }, fieldType);
      await rejectsWithApiError(
        createField(fieldType, {
          ...base,
          localized: true,
          default_value: { fr: sample.defaultValue },
        }),
        'INVALID_FIELD',
        { field: 'default_value' },
      );
    }
  });

  test('unique is not allowed on a block model field', async () => {
    await rejectsWithApiError(
      createField('string', { validators: { unique: {} } }, blockId),
      'INVALID_FIELD',
      { field: 'validators', code: 'VALIDATION_INVALID' },
    );
    const field = await createField('string', { validators: { required: {} } }, blockId);
    assert.deepEqual(field.validators, { required: {} });
  });
});
