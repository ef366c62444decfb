// Header names that carry credentials: Authorization and its kin, and names saying they
// hold a token, key, secret, password, cookie, session or credential (as Rails filters
// parameters by name). Matched case-insensitively anywhere in the name.
const SECRET_HEADER_NAME = /auth|token|key|secret|passw|cookie|session|credential/i;
// `Authorization: <scheme> <credentials>` (RFC 9110 §11.4): the scheme is no secret.
const AUTHORIZATION_SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +\S/;

/** What the log shows instead of a credential. */
export const MASK = '[FILTERED]';

/** Whether a header's value is a credential: the delivery log never shows it. */
function isSecretHeader(name: string): boolean {
  return SECRET_HEADER_NAME.test(name);
}

/** The value shown for a secret header: an Authorization header keeps its scheme (`Basic`). */
function maskedHeaderValue(name: string, value: string): string {
  const scheme = /authorization$/i.test(name) ? AUTHORIZATION_SCHEME.exec(value)?.[1] : undefined;
  return scheme ? `${scheme} ${MASK}` : MASK;
}

/** The headers with every credential's value masked. */
export function maskSecretHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      isSecretHeader(name) ? maskedHeaderValue(name, value) : value,
    ]),
  );
}
