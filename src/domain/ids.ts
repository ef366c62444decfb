import { randomUUID } from 'node:crypto';
import type { Issues } from './errors.ts';

const MAX_LEGACY_ID = 281474976710655n; // 48-bit: the largest decimal id DatoCMS ever issued

/** A v4 UUID as 22 URL-safe base64 characters, the id format of schema resources. */
export function generateId(): string {
  const bytes = Buffer.from(randomUUID().replaceAll('-', ''), 'hex');
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // first char in A–Z/a–f, as the official client does
  return bytes.toString('base64url');
}

/** Accepts what the official client accepts: 22-char base64url v4 UUIDs or legacy decimals. */
export function isValidId(id: string): boolean {
  if (/^\d{1,15}$/.test(id)) return BigInt(id) <= MAX_LEGACY_ID;
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return false;
  const bytes = Buffer.from(id, 'base64url');
  if (bytes.length !== 16) return false;
  const variant = bytes[8] ?? 0;
  const version = (bytes[6] ?? 0) >> 4;
  return (variant & 0b11000000) === 0b10000000 && version === 4;
}

/** Reports a malformed client-chosen id under `field`; true when it is well formed. */
export function checkIdFormat(issues: Issues, field: string, id: string): boolean {
  if (isValidId(id)) return true;
  issues.add(field, 'VALIDATION_INVALID', 'must be a UUID in URL-safe base64');
  return false;
}
