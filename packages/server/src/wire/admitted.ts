/** What the client's Accept header allows us to answer with. */
export interface Acceptable {
  json: boolean;
  sse: boolean;
}

/**
 * What the features a request reaches read of its admission by the transport (http/admit.ts, `Admitted`): who calls,
 * as the authenticated caller's client key when authorization is on, and what they accept.
 */
export interface Admission {
  principal?: { clientKey: string };
  accepts: Acceptable;
}
