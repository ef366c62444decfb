import type { PluginRow } from '../../db/schema.ts';
import { Issues } from '../errors.ts';
import { MAX_FIELD_JSON_LENGTH, MAX_URL_LENGTH } from '../limits.ts';
import { checkMaxLength, checkRequiredText } from '../text-checks.ts';

/** Attributes a client may send, already shape-checked by the HTTP layer. */
export type PluginInput = {
  id?: string;
  attributes: Partial<{
    package_name: string | null;
    package_version: string | null;
    name: string;
    description: string | null;
    url: string;
    parameters: Record<string, unknown>;
    permissions: string[];
    plugin_type: string;
    field_types: string[];
    parameter_definitions: Record<string, unknown>;
  }>;
};

export type PluginDraft = Omit<PluginRow, 'created_at' | 'seq'>;

export function emptyPlugin(id: string): PluginDraft {
  return {
    id,
    name: '',
    description: null,
    package_name: null,
    package_version: null,
    url: '',
    parameters: {},
    permissions: [],
    plugin_type: null,
    field_types: null,
    parameter_definitions: null,
  };
}

/**
 * A public plugin is installed by its npm package name alone: nothing is downloaded,
 * so its name defaults to the package name and its entry point to the
 * package's location on the jsDelivr npm mirror (PROPOSAL: DatoCMS reads the entry
 * point from the package; we cannot without fetching it).
 */
function packageDefaults(draft: PluginDraft): PluginDraft {
  if (draft.package_name === null || draft.package_name.trim() === '') return draft;
  const version = draft.package_version ? `@${draft.package_version}` : '';
  return {
    ...draft,
    name: draft.name === '' ? draft.package_name : draft.name,
    url:
      draft.url === ''
        ? `https://cdn.jsdelivr.net/npm/${draft.package_name}${version}/`
        : draft.url,
  };
}

/** Merges a request into the current state: omitted attributes keep their value. */
export function applyPluginInput(base: PluginDraft, input: PluginInput): PluginDraft {
  const a = input.attributes;
  return packageDefaults({
    id: base.id,
    name: a.name ?? base.name,
    description: a.description !== undefined ? a.description : base.description,
    package_name: a.package_name !== undefined ? a.package_name : base.package_name,
    package_version: a.package_version !== undefined ? a.package_version : base.package_version,
    url: a.url ?? base.url,
    parameters: a.parameters ?? base.parameters,
    permissions: a.permissions ?? base.permissions,
    plugin_type: a.plugin_type ?? base.plugin_type,
    field_types: a.field_types ?? base.field_types,
    parameter_definitions: a.parameter_definitions ?? base.parameter_definitions,
  });
}

function urlProblem(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:'
      ? null
      : 'must be an http or https URL';
  } catch {
    return 'must be a valid URL';
  }
}

export function validatePlugin(next: PluginDraft): PluginDraft {
  const issues = new Issues('Plugin');
  checkMaxLength(issues, 'package_name', next.package_name, 214);
  checkMaxLength(issues, 'package_version', next.package_version, 64);
  checkRequiredText(issues, 'name', next.name);
  checkMaxLength(issues, 'description', next.description, 10_000);
  if (checkRequiredText(issues, 'url', next.url, { maxLength: MAX_URL_LENGTH })) {
    const problem = urlProblem(next.url);
    if (problem) issues.add('url', 'VALIDATION_FORMAT', problem);
  }
  for (const attribute of ['parameters', 'parameter_definitions'] as const) {
    if (JSON.stringify(next[attribute] ?? null).length > MAX_FIELD_JSON_LENGTH)
      issues.add(
        attribute,
        'VALIDATION_LENGTH',
        `must be at most ${MAX_FIELD_JSON_LENGTH} characters as JSON`,
      );
  }
  issues.throwIfAny();
  return next;
}
