import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rightsBeyond } from '../../src/domain/auth/rights-within.ts';
import { ADMIN_ROLE_ATTRIBUTES, roleAttributes } from '../../src/domain/auth/role-attributes.ts';

const read = {
  action: 'read',
  environment: 'main',
  on_creator: 'anyone',
  localization_scope: 'all',
};

describe('rightsBeyond', () => {
  test('flags: the target may hold only flags the caller holds', () => {
    const caller = roleAttributes({ can_manage_users: true, can_manage_menu: true });
    assert.deepEqual(rightsBeyond(caller, roleAttributes({ can_manage_menu: true })), []);
    assert.deepEqual(
      rightsBeyond(caller, roleAttributes({ can_edit_schema: true, can_manage_webhooks: true })),
      ['can_edit_schema', 'can_manage_webhooks'],
    );
  });

  test('environments: no kind of environment the caller cannot reach', () => {
    const cases: [string, string, boolean][] = [
      ['all', 'all', true],
      ['all', 'sandbox_only', true],
      ['primary_only', 'primary_only', true],
      ['primary_only', 'none', true],
      ['primary_only', 'all', false],
      ['primary_only', 'sandbox_only', false],
      ['sandbox_only', 'primary_only', false],
      ['none', 'primary_only', false],
    ];
    for (const [own, wanted, within] of cases) {
      const beyond = rightsBeyond(
        roleAttributes({ environments_access: own as never }),
        roleAttributes({ environments_access: wanted as never }),
      );
      assert.deepEqual(beyond, within ? [] : ['environments_access'], `${own} → ${wanted}`);
    }
  });

  test('the Admin role covers any record and upload permission in its environment', () => {
    const target = roleAttributes({
      positive_item_type_permissions: [
        { ...read, item_type: '12' },
        { action: 'update', environment: 'main', localization_scope: 'localized', locale: 'en' },
      ],
      positive_upload_permissions: [{ action: 'read', environment: 'main', on_creator: 'self' }],
    });
    assert.deepEqual(rightsBeyond(ADMIN_ROLE_ATTRIBUTES, target), []);
    const elsewhere = roleAttributes({
      positive_item_type_permissions: [{ ...read, environment: 'sandbox' }],
    });
    assert.deepEqual(rightsBeyond(ADMIN_ROLE_ATTRIBUTES, elsewhere), [
      'positive_item_type_permissions',
    ]);
  });

  test('a restricted positive entry covers only what it restricts to', () => {
    const caller = roleAttributes({
      positive_item_type_permissions: [{ ...read, item_type: '7', on_creator: 'self' }],
    });
    const beyond = (entry: Record<string, unknown>) =>
      rightsBeyond(caller, roleAttributes({ positive_item_type_permissions: [entry] }));
    assert.deepEqual(beyond({ ...read, item_type: '7', on_creator: 'self' }), []);
    for (const wider of [
      { ...read, item_type: '7' },
      { ...read, on_creator: 'self' },
      { ...read, item_type: '8', on_creator: 'self' },
      { ...read, item_type: '7', on_creator: 'self', action: 'all' },
    ]) {
      assert.deepEqual(beyond(wider), ['positive_item_type_permissions'], JSON.stringify(wider));
    }
  });

  test('the target must take away at least what the caller takes away', () => {
    const deleteAll = { action: 'delete', environment: 'main' };
    const caller = roleAttributes({
      positive_upload_permissions: [{ action: 'all', environment: 'main' }],
      negative_upload_permissions: [deleteAll],
    });
    const target = (negatives: Record<string, unknown>[]) =>
      roleAttributes({
        positive_upload_permissions: [{ action: 'read', environment: 'main' }],
        negative_upload_permissions: negatives,
      });
    assert.deepEqual(rightsBeyond(caller, target([deleteAll])), []);
    assert.deepEqual(rightsBeyond(caller, target([{ action: 'all', environment: 'main' }])), []);
    assert.deepEqual(rightsBeyond(caller, target([])), ['negative_upload_permissions']);
    assert.deepEqual(rightsBeyond(caller, target([{ ...deleteAll, on_creator: 'self' }])), [
      'negative_upload_permissions',
    ]);
  });

  test('build trigger and search index lists: null means every one', () => {
    const caller = roleAttributes({ positive_build_trigger_permissions: [{ build_trigger: '3' }] });
    const one = roleAttributes({ positive_build_trigger_permissions: [{ build_trigger: '3' }] });
    const every = roleAttributes({ positive_build_trigger_permissions: [{ build_trigger: null }] });
    assert.deepEqual(rightsBeyond(caller, one), []);
    assert.deepEqual(rightsBeyond(caller, every), ['positive_build_trigger_permissions']);
    assert.deepEqual(rightsBeyond(every, one), []);
    assert.deepEqual(
      rightsBeyond(
        roleAttributes({}),
        roleAttributes({ positive_search_index_permissions: [{ search_index: null }] }),
      ),
      ['positive_search_index_permissions'],
    );
  });
});
