import { timingSafeEqual } from 'node:crypto';
import { randomToken } from './http.ts';
import type { Sealer } from './seal.ts';

/**
 * The bridge's refresh tokens: `<family id>.<nonce><tag>`, the tag a MAC of family id and nonce under the bridge's
 * key. Only the bridge can make one, so a presented token is known to be one it issued (an old one of the family
 * too) without keeping every rotated-out hash: a string made up from a family id, which every access token names in
 * `sid`, is merely invalid and cannot end the family as the reuse of a real token does. A successor's nonce is
 * derived from the token it replaces, so a retry of the same refresh gets the same successor.
 */

export const REFRESH_TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** 22 base64url characters: 16 random bytes, or 132 bits of a MAC. */
const NONCE_CHARS = 22;
/** The rest of the 43 characters: 126 bits of the MAC. */
const TAG_CHARS = 43 - NONCE_CHARS;

const tagOf = (sealer: Sealer, familyId: string, nonce: string) =>
  sealer.mac('refresh-token', `${familyId}.${nonce}`).slice(0, TAG_CHARS);

const tokenOf = (sealer: Sealer, familyId: string, nonce: string) =>
  `${familyId}.${nonce}${tagOf(sealer, familyId, nonce)}`;

/** The first refresh token of a new family. */
export const firstRefreshToken = (sealer: Sealer, familyId: string) =>
  tokenOf(sealer, familyId, randomToken(16));

/** The one successor of a refresh token (unguessable without the bridge's key). */
export const successorOf = (sealer: Sealer, presented: string, familyId: string) =>
  tokenOf(sealer, familyId, sealer.mac('refresh-successor', presented).slice(0, NONCE_CHARS));

/** Whether `token` is a refresh token this bridge made (its tag checks out, compared in constant time). */
export function issuedByBridge(sealer: Sealer, token: string): boolean {
  const match = REFRESH_TOKEN.exec(token);
  if (!match) return false;
  const [, familyId, body] = match;
  const expected = Buffer.from(tagOf(sealer, familyId!, body!.slice(0, NONCE_CHARS)));
  return timingSafeEqual(expected, Buffer.from(body!.slice(NONCE_CHARS)));
}
