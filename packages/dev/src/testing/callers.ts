import type { Authenticator } from '@mcp-lambda/server/backend';
import { principalKeys } from '@mcp-lambda/server/auth';

/**
 * An authenticator for tests about who may do what: the bearer token is the caller's name, and each name gets a
 * principal (and principal keys) of its own. Send `authorization: Bearer alice`; `Bearer alice@app-1` is the same
 * person through the OAuth client `app-1`.
 */
export const callersByName: Authenticator = {
  authenticate: async ({ headers }) => {
    const name = headers.authorization?.replace(/^Bearer /, '') ?? '';
    const at = name.indexOf('@');
    const subject = at === -1 ? name : name.slice(0, at);
    const clientId = at === -1 ? undefined : name.slice(at + 1);
    return {
      ok: true,
      principal: {
        subject,
        issuer: 'test',
        ...(clientId !== undefined ? { clientId } : {}),
        scopes: [],
        expiresAt: 4e9,
        ...principalKeys('test', subject, clientId),
      },
    };
  },
  insufficientScope: () => ({ status: 403, headers: {}, message: 'insufficient scope' }),
  metadataFor: () => undefined,
};
