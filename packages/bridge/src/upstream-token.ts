/**
 * One call to the sign-in provider's token endpoint as the bridge's confidential client (client_secret_basic):
 * the code exchange after sign-in and the refresh_token grant that re-checks the user. Bounded by the caller's
 * signal and the call's own time limit; the answer is size-capped and never thrown.
 */
import { outboundCall, readBoundedText } from '@mcp-lambda/server/auth';

const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

export type TokenCall =
  | { ok: true; body: Record<string, unknown> }
  /** The provider answered with an error (`status`, and its OAuth `error` code when it sent one). */
  | { ok: false; kind: 'refused'; status: number; error: string | undefined }
  /** No usable answer: unreachable, too slow, too large or not JSON. */
  | { ok: false; kind: 'unreachable' };

export interface TokenClient {
  clientId: string;
  timeoutMs: number;
}

/** Posts `params` to the provider's token endpoint with HTTP Basic client authentication. */
export async function callTokenEndpoint(
  client: TokenClient,
  endpoint: string,
  secret: string,
  params: Record<string, string>,
  signal: AbortSignal,
): Promise<TokenCall> {
  const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(secret)}`).toString(
    'base64',
  );
  // One signal bounds the request and the answer's reading, which `readBoundedText` stops on it itself.
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(client.timeoutMs)]);
  try {
    // The span covers the body's reading too: an answer cut short or too large fails it.
    const { status, text } = await outboundCall({ method: 'POST', url: endpoint }, async () => {
      const response = await fetch(endpoint, {
        method: 'POST',
        redirect: 'error',
        signal: bounded,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${basic}`,
        },
        body: new URLSearchParams(params).toString(),
      });
      const text = await readBoundedText(response, MAX_TOKEN_RESPONSE_BYTES, bounded);
      return { status: response.status, text, ...(text === undefined ? { errorType: 'too_large' } : {}) };
    });
    if (text === undefined) return { ok: false, kind: 'unreachable' };
    const body = parseObject(text);
    if (status !== 200) {
      const error = typeof body?.error === 'string' ? body.error : undefined;
      return { ok: false, kind: 'refused', status, error };
    }
    return body ? { ok: true, body } : { ok: false, kind: 'unreachable' };
  } catch {
    return { ok: false, kind: 'unreachable' };
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a refused refresh means the provider no longer accepts the user (RFC 6749 §5.2 `invalid_grant`: the
 * refresh token is invalid, expired or revoked, as when the user is disabled, deleted or signed out there). Any
 * other refusal (our client misconfigured, throttling, a provider error) says nothing about the user, so it is a
 * temporary failure, never a sign-out.
 */
export const userRefused = (call: TokenCall) =>
  !call.ok && call.kind === 'refused' && call.status === 400 && call.error === 'invalid_grant';

/**
 * Whether a refused call says the provider itself is in trouble (RFC 6749 §5.2 leaves 5xx and 429 to HTTP: failing,
 * overloaded, throttling): a temporary failure worth a retry, never an answer about the user or the code.
 */
export const providerTrouble = (call: TokenCall) =>
  !call.ok && call.kind === 'refused' && (call.status >= 500 || call.status === 429);
