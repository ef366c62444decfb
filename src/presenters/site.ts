import type { SiteView, SiteWithSchema } from '../domain/site/site-view.ts';
import { presentField } from './field.ts';
import { presentFieldset } from './fieldset.ts';
import { presentItemType } from './item-type.ts';
import { isoTime, type Resource, refs } from './jsonapi.ts';
import { presentKeptList } from './kept.ts';

// The client types the owner as never null; a self-hosted project has one implicit owner.
const OWNER = { type: 'account', id: '1' };

/** The project's site row combined with one environment's settings. */
export function presentSite({ project, settings, itemTypeIds }: SiteView): Resource {
  const row = { ...project, ...settings, id: project.id };
  return {
    type: 'site',
    id: String(row.id),
    attributes: {
      name: row.name,
      domain: null,
      google_maps_api_token: null,
      imgix_host: null,
      internal_domain: null,
      locales: row.locales,
      timezone: row.timezone,
      no_index: row.no_index,
      favicon: row.favicon,
      last_data_change_at: isoTime(settings.last_data_change_at ?? project.last_data_change_at),
      require_2fa: row.require_2fa,
      ip_tracking_enabled: row.ip_tracking_enabled,
      force_use_of_sandbox_environments: row.force_use_of_sandbox_environments,
      assets_cdn_default_settings: { image: {}, video: {} },
      // A custom theme may be sent without type or hue; the bootstrap theme has no logo.
      theme: { type: 'custom', hue: null, logo: null, ...row.theme },
      global_seo: row.global_seo,
    },
    relationships: {
      item_types: { data: refs('item_type', itemTypeIds) },
      account: { data: null },
      owner: { data: OWNER },
    },
    meta: {
      created_at: isoTime(row.created_at),
      draft_mode_default: row.draft_mode_default,
      custom_upload_storage_settings: false,
      // Every opt-in behaviour of the real API is simply how Fieldhouse works.
      improved_timezone_management: true,
      improved_hex_management: true,
      improved_gql_multilocale_fields: true,
      improved_gql_visibility_control: true,
      improved_boolean_fields: true,
      improved_validation_at_publishing: true,
      improved_exposure_of_inline_blocks_in_cda: true,
      improved_items_listing: true,
      milliseconds_in_datetime: true,
      non_localized_focal_points: true,
      allow_custom_theme: true,
    },
  };
}

/** The site document: the models, their fields and fieldsets in `included` when asked. */
export function presentSiteWithSchema({ site, models, fields, fieldsets }: SiteWithSchema) {
  const data = presentSite(site);
  if (!models) return { data };
  return {
    data,
    included: [
      ...presentKeptList(models, presentItemType),
      ...(fields ?? []).map(presentField),
      ...(fieldsets ?? []).map(presentFieldset),
    ],
  };
}
