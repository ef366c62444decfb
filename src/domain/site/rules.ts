import type { SiteSettingsRow } from '../../db/schema.ts';
import type { Permission } from '../actor.ts';
import { DomainError, Issues } from '../errors.ts';
import { MAX_LOCALES } from '../limits.ts';
import { checkRequiredText } from '../text-checks.ts';
import { SETTING_PERMISSIONS, type SiteUpdate } from './attributes.ts';
import { isLocaleCode, isTimezone } from './locales.ts';

/** Each setting sent needs its own role flag; the first one missing refuses the whole change. */
export function checkSettingPermissions(
  update: SiteUpdate,
  permissions: ReadonlySet<Permission>,
): void {
  for (const key of Object.keys(update) as (keyof SiteUpdate)[]) {
    const permission = SETTING_PERMISSIONS[key];
    if (!permissions.has(permission)) {
      throw new DomainError(
        'INSUFFICIENT_PERMISSIONS',
        `The token's role lacks ${permission}, needed to change ${key}`,
      );
    }
  }
}

export function validateSiteUpdate(update: SiteUpdate): void {
  if (update.locales?.length === 0) {
    throw new DomainError('MISSING_LOCALES', 'the site needs at least one locale');
  }
  const issues = new Issues('Site');
  if (update.name !== undefined) checkRequiredText(issues, 'name', update.name);
  const locales = update.locales ?? [];
  const invalid = locales.find((code) => !isLocaleCode(code));
  if (locales.length > MAX_LOCALES)
    issues.add('locales', 'VALIDATION_LENGTH', `must list at most ${MAX_LOCALES} locales`);
  else if (invalid !== undefined)
    issues.add(
      'locales',
      'VALIDATION_FORMAT',
      `"${invalid}" is not a locale code like en or pt-BR`,
    );
  else if (new Set(locales).size !== locales.length)
    issues.add('locales', 'VALIDATION_UNIQUENESS', 'must not repeat a locale');
  if (update.timezone !== undefined && !isTimezone(update.timezone))
    issues.add('timezone', 'VALIDATION_INCLUSION', 'must be an IANA time zone like Europe/Rome');
  issues.throwIfAny();
}

export function localesChanged(before: SiteSettingsRow, update: SiteUpdate): boolean {
  return (
    update.locales !== undefined &&
    JSON.stringify(update.locales) !== JSON.stringify(before.locales)
  );
}
