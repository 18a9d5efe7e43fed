import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares an `Authorization: Bearer <token>` header with the admin token in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}
