import { type RoleAttributes, roleAttributes } from '../domain/auth/role-attributes.ts';
import type { RoleView } from '../domain/auth/roles.ts';
import { type Resource, refs } from './jsonapi.ts';

export function presentRole({ row, finalPermissions }: RoleView): Resource {
  return {
    type: 'role',
    id: row.id,
    attributes: {
      name: row.name,
      ...roleAttributes(row.attributes as Partial<RoleAttributes>),
    },
    relationships: {
      inherits_permissions_from: { data: refs('role', row.inherits_permissions_from) },
    },
    meta: { final_permissions: finalPermissions },
  };
}
