import assert from 'node:assert/strict';
import { test } from 'node:test';
import { finalPermissions, ownPermissions } from '../../src/domain/auth/permissions.ts';
import { roleGraph } from '../../src/domain/auth/role-graph.ts';

const STORED = [
  {},
  { can_edit_schema: true, environments_access: 'sandbox_only' },
  {
    can_edit_site: true,
    environments_access: 'all',
    positive_item_type_permissions: [
      { item_type: '12', environment: 'main', action: 'read', localization_scope: 'all' },
      { item_type: '12', environment: 'main', action: 'read', localization_scope: 'all' },
    ],
    negative_item_type_permissions: [{ item_type: '13', environment: 'main', action: 'all' }],
  },
];

test("a role's own permissions from its stored text are its final permissions, kept frozen", () => {
  for (const attributes of STORED) {
    const text = JSON.stringify(attributes);
    const own = ownPermissions(text);
    const graph = roleGraph([{ id: '7', attributes, inherits_permissions_from: [] }]);
    assert.deepEqual(own, finalPermissions('7', graph));
    assert.equal(ownPermissions(text), own, 'derived once per text');
    assert.ok(Object.isFrozen(own) && Object.isFrozen(own.positive_item_type_permissions));
  }
  assert.notEqual(
    ownPermissions(JSON.stringify(STORED[1])),
    ownPermissions(JSON.stringify(STORED[2])),
  );
});
