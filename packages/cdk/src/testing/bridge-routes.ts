/** Every route the authorization bridge answers ("METHOD /path"), sorted: the construct and stack tests expect these. */
export const BRIDGE_ROUTE_KEYS = [
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/openid-configuration',
  'GET /oauth/authorize',
  'GET /oauth/callback',
  'GET /oauth/jwks',
  'OPTIONS /oauth/register',
  'OPTIONS /oauth/revoke',
  'OPTIONS /oauth/token',
  'POST /oauth/consent',
  'POST /oauth/register',
  'POST /oauth/revoke',
  'POST /oauth/token',
];
