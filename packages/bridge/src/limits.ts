/** Every limit of the authorization bridge in one place, as the server keeps its own in its limits module. */

const KiB = 1024;

/**
 * Limits of the authorization bridge (this package): every value a client can make it store, fetch or echo is
 * bounded here, so a hostile client costs a bounded amount of work and nothing it sends grows without limit.
 */
export const BridgeLimits = {
  /** Largest request body any bridge endpoint reads (registration JSON, token and consent forms). */
  maxBodyBytes: 16 * KiB,
  /** Redirect URIs one registration may carry (native clients use one loopback URI; web clients one or two). */
  maxRedirectUris: 5,
  /** Length of one redirect URI, of a CIMD client_id URL, and of any URL we echo. */
  maxUriChars: 512,
  /** Length of a client name shown on the consent page. */
  maxClientNameChars: 100,
  /** Length of the client's `state`, echoed back in the redirect. */
  maxStateChars: 512,
  /** Length of the requested `scope` string. */
  maxScopeChars: 512,
  /** Length of any other client-supplied string we read (client_id of a sealed registration, codes, tokens). */
  maxParameterChars: 4 * KiB,
  /** Largest Client ID Metadata Document fetched (the CIMD draft suggests 5 KB). */
  cimdMaxBytes: 5 * KiB,
  /** Time allowed for one CIMD fetch, DNS included. */
  cimdTimeoutMs: 2_000,
  /** Documents kept in the per-container CIMD cache. */
  cimdCacheEntries: 100,
  /** Longest a CIMD document is cached, whatever its Cache-Control says; 0 when it says no-store. */
  cimdMaxCacheSeconds: 86_400,
  /** Cache lifetime when a document says nothing about caching. */
  cimdDefaultCacheSeconds: 300,
  /** How long a failed CIMD fetch is remembered, so a slow or broken URL is not fetched on every attempt. */
  cimdFailureCacheSeconds: 60,
  /** Lifetime of a sealed authorization transaction: the user's time to consent and sign in upstream. */
  transactionTtlSeconds: 600,
  /** Lifetime of an authorization code (OAuth 2.1 recommends at most ten minutes; MCP clients redeem at once). */
  codeTtlSeconds: 60,
  /** Lifetime of a bridge access token. */
  accessTokenTtlSeconds: 3_600,
  /** Absolute lifetime of a refresh-token family (rotation does not extend it). */
  refreshTtlSeconds: 30 * 86_400,
  /**
   * How long after a rotation the token it replaced still gets the same successor instead of revoking the family:
   * a lost response, a retry after a timeout or two concurrent refreshes stay signed in (docs/sign-in-sessions.md
   * weighs what a thief gains in it).
   */
  refreshGraceSeconds: 60,
  /** How long a consent given in a browser lets that browser skip the consent page for the same client. */
  consentTtlSeconds: 30 * 86_400,
  /** Clients remembered in one browser's consent cookie (oldest dropped first). */
  consentEntries: 10,
  /** Upper bound of one outbound call (upstream token endpoint, keys, KMS, DynamoDB, Secrets Manager). */
  outboundTimeoutMs: 5_000,
  /** Time kept back from the invocation deadline to answer. */
  reserveMs: 500,
  /** Time limit of the bridge function: a sign-in round trip is a few outbound calls. */
  functionTimeoutSeconds: 15,
  /** Memory of the bridge function in MB. */
  functionMemoryMb: 512,
} as const;
