import type { AuthorizationBridge } from '../authorization-bridge.ts';
import type { CognitoIssuer, CognitoIssuerProps } from '../cognito-issuer.ts';

/** `auth: oauth`: every request needs an access token for this endpoint from one issuer (MCP_AUTH_*). */
export interface McpOAuthProps {
  /** Tokens are required. Required. */
  readonly mode: 'oauth';
  /**
   * Issuer URL of an existing authorization server (`iss` of its tokens). Exactly one of `issuer` and `cognito`.
   * @default - none: `cognito` must be given
   */
  readonly issuer?: string;
  /**
   * Create a Cognito user pool for sign-in, behind the authorization bridge (see {@link AuthorizationBridge} and
   * {@link CognitoIssuer}): the bridge on this API is then the issuer MCP clients see. Exactly one of `issuer` and
   * `cognito`.
   * @default - none: `issuer` must be given
   */
  readonly cognito?: Omit<CognitoIssuerProps, 'callbackUrl' | 'removalPolicy'>;
  /**
   * The endpoint's public URL: RFC 9728 `resource` and the token audience. Set it when a custom domain serves the
   * endpoint.
   * @default - the API URL of the endpoint
   */
  readonly resource?: string;
  /**
   * Audiences accepted in tokens.
   * @default - the resource URL only
   */
  readonly audiences?: readonly string[];
  /**
   * Scopes every request needs; with `cognito`, also the scopes the bridge grants.
   * @default - none; with `cognito`, ['mcp'] (`Defaults.bridgeScope`)
   */
  readonly requiredScopes?: readonly string[];
  /**
   * Key set URL.
   * @default - discovered from the issuer's metadata
   */
  readonly jwksUrl?: string;
}

/**
 * Who may call the endpoint (docs/authorization.md). `none`: anyone who has the URL. `oauth`: every request
 * needs an access token for this endpoint from one issuer, validated inside the MCP function.
 */
export type McpAuthProps = { readonly mode: 'none' } | McpOAuthProps;

/** What an endpoint with `auth: oauth` tells its users. */
export interface McpEndpointAuth {
  /** The issuer clients get tokens from. */
  readonly issuer: string;
  /** The resource URL tokens must be issued for. */
  readonly resource: string;
  /** Where the RFC 9728 metadata document is served. */
  readonly metadataUrl: string;
  /** The Cognito user pool people sign in with, when the endpoint created one. */
  readonly cognito?: CognitoIssuer;
  /** The authorization bridge in front of it (the issuer clients see). */
  readonly bridge?: AuthorizationBridge;
}
