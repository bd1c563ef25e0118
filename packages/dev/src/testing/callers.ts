import type { Authenticator } from '@mcp-lambda/server/backend';
import { principalKey } from '@mcp-lambda/server/auth';

/**
 * An authenticator for tests about who may do what: the bearer token is the caller's name, and each name gets a
 * principal (and principal key) of its own. Send `authorization: Bearer alice`.
 */
export const callersByName: Authenticator = {
  authenticate: async ({ headers }) => {
    const subject = headers.authorization?.replace(/^Bearer /, '') ?? '';
    return {
      ok: true,
      principal: { subject, issuer: 'test', scopes: [], expiresAt: 4e9, key: principalKey('test', subject) },
    };
  },
  insufficientScope: () => ({ status: 403, headers: {}, message: 'insufficient scope' }),
  metadataFor: () => undefined,
};
