import type { PluginRow } from '../db/schema.ts';
import type { Resource } from './jsonapi.ts';

export function presentPlugin(row: PluginRow): Resource {
  return {
    type: 'plugin',
    id: row.id,
    attributes: {
      name: row.name,
      description: row.description,
      package_name: row.package_name,
      package_version: row.package_version,
      url: row.url,
      parameters: row.parameters,
      permissions: row.permissions,
      plugin_type: row.plugin_type,
      field_types: row.field_types,
      parameter_definitions: row.parameter_definitions,
    },
    // Legacy plugins (v1) declare a plugin_type; plugins built on the current SDK do not.
    meta: { version: row.plugin_type === null ? '2' : '1' },
  };
}
