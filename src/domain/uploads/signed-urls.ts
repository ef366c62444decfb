import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an upload URL lets its bearer do: PUT at most `maxBytes` to `path` until `expiresAt`. */
export type UploadGrant = Readonly<{ path: string; maxBytes: number; expiresAt: number }>;

function mac(body: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** `<base64url JSON>.<base64url HMAC-SHA256>`: verifiable by any process that has the secret. */
export function signUploadGrant(grant: UploadGrant, secret: string): string {
  const body = Buffer.from(
    JSON.stringify({ p: grant.path, m: grant.maxBytes, x: grant.expiresAt }),
  ).toString('base64url');
  return `${body}.${mac(body, secret).toString('base64url')}`;
}

/** The grant a token carries, or why it carries none. */
export function verifyUploadGrant(
  token: string,
  secret: string,
  now: number,
): UploadGrant | { refused: 'invalid signature' | 'expired' } {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return { refused: 'invalid signature' };
  const expected = mac(body, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { refused: 'invalid signature' };
  }
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
    p: string;
    m: number;
    x: number;
  };
  if (claims.x <= now) return { refused: 'expired' };
  return { path: claims.p, maxBytes: claims.m, expiresAt: claims.x };
}
