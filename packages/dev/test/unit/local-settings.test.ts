import { describe, expect, it } from 'vitest';
import { localGatewayCors, type GatewayCors } from '../../src/local/gateway-cors.ts';
import { readLocalSettings } from '../../src/commands/local-settings.ts';

/** The local settings: what `npm start` hands the local gateway, from the same settings as the stack. */

const LOCAL_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];
const HTTP_API: GatewayCors = { api: 'http', allowedOrigins: LOCAL_ORIGINS, allowMethods: ['POST'] };

describe('npm start takes its CORS from MCP_ALLOWED_ORIGINS, as the stack does', () => {
  const config = { allowedOrigins: LOCAL_ORIGINS, mcpPath: '/mcp', auth: { mode: 'none' as const } };

  it('HTTP API: POST, and GET too with local authorization (the metadata and the bridge)', () => {
    expect(localGatewayCors('http', config, false)).toEqual(HTTP_API);
    expect(localGatewayCors('http', config, true)).toMatchObject({ allowMethods: ['POST', 'GET'] });
    expect(localGatewayCors('http', { ...config, allowedOrigins: [] }, false)).toBeUndefined();
  });

  it('REST API: the MCP path, and with an issuer of your own the metadata paths', () => {
    expect(localGatewayCors('rest-streaming', config, false)).toEqual({
      api: 'rest',
      allowedOrigins: LOCAL_ORIGINS,
      routes: { '/mcp': ['POST', 'GET', 'DELETE'] },
    });
    const oauth = {
      mode: 'oauth',
      issuer: 'https://login.example.com',
      resource: 'http://127.0.0.1:3000/mcp',
    };
    const cors = localGatewayCors('rest-streaming', { ...config, auth: oauth as never }, false);
    expect(cors).toMatchObject({
      routes: {
        '/mcp': ['POST', 'GET', 'DELETE'],
        '/.well-known/oauth-protected-resource/mcp': ['GET'],
        '/.well-known/oauth-protected-resource': ['GET'],
      },
    });
  });

  it('reads the local settings with their defaults', () => {
    expect(readLocalSettings({})).toEqual({
      ports: { PORT: 3000, LOCAL_S3_PORT: 0, LOCAL_LAMBDA_PORT: 0, LOCAL_OIDC_PORT: 0 },
      api: 'http',
      localAuthorization: false,
      loopbackMetadata: true,
      delayMs: 0,
    });
    expect(readLocalSettings({ MCP_AUTH_MODE: 'oauth', BRIDGE_CIMD_ALLOW_LOOPBACK: 'false' })).toMatchObject({
      localAuthorization: true,
      loopbackMetadata: false,
    });
  });

  it('reads LOCAL_DELAY_MS, the wait before each request reaches the function, and refuses what is not one', () => {
    expect(readLocalSettings({ LOCAL_DELAY_MS: '300' }).delayMs).toBe(300);
    expect(readLocalSettings({ LOCAL_DELAY_MS: '' }).delayMs).toBe(0);
    for (const wrong of ['-1', '1.5', 'soon', '60001'])
      expect(() => readLocalSettings({ LOCAL_DELAY_MS: wrong })).toThrow(
        `LOCAL_DELAY_MS must be an integer from 0 to 60000 (got ${JSON.stringify(wrong)})`,
      );
  });

  it('runs the local authorization bridge in front of either API: the streaming REST API too, as deployed', () => {
    expect(readLocalSettings({ MCP_AUTH_MODE: 'oauth', LOCAL_API: 'rest-streaming' })).toMatchObject({
      api: 'rest-streaming',
      localAuthorization: true,
    });
    // An issuer of your own: no bridge here, with either API.
    const own = { MCP_AUTH_MODE: 'oauth', MCP_AUTH_ISSUER: 'https://login.example.com' };
    expect(readLocalSettings({ ...own, LOCAL_API: 'rest-streaming' }).localAuthorization).toBe(false);
  });

  it("REST API with local authorization: the MCP path and the metadata paths of the bridge's resource", () => {
    const cors = localGatewayCors('rest-streaming', config, true);
    expect(cors).toEqual({
      api: 'rest',
      allowedOrigins: LOCAL_ORIGINS,
      routes: {
        '/mcp': ['POST', 'GET', 'DELETE'],
        '/.well-known/oauth-protected-resource/mcp': ['GET'],
        '/.well-known/oauth-protected-resource': ['GET'],
      },
    });
  });
});
