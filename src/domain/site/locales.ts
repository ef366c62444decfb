const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
// BCP 47's recommended maximum tag length.
const MAX_LOCALE_LENGTH = 35;

/** `en`, `it`, `en-US`, `pt-BR`, `zh-Hant-TW`. */
export function isLocaleCode(code: string): boolean {
  return code.length <= MAX_LOCALE_LENGTH && LOCALE_PATTERN.test(code);
}

/** An IANA time zone name Intl knows, spelled as Intl spells it (`UTC`, not `utc`). */
export function isTimezone(name: string): boolean {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions()
      .timeZone;
    // Intl matches names case-insensitively, and resolves links (Etc/UTC) to another name.
    return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
  } catch {
    return false;
  }
}
