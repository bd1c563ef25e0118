/**
 * The preflight of a load run, with plain `fetch`: optional `initialize` / `server/discover`, `tools/list` to find
 * the tool and any parameters it mirrors into headers, and one `tools/call`, so a broken setup fails in a second
 * with a reason instead of after a full run of identical failures.
 */
import { classify, messagesOf, type Classified } from './classify.ts';
import {
  initializeRequest,
  mirroredParams,
  rpcNotification,
  rpcRequest,
  toolCallRequest,
  type MirroredParam,
  type RequestOptions,
  type WireRequest,
} from './mcp-request.ts';
import type { LoadOptions } from './options.ts';

/** A preflight failure: the server is unreachable or answers the first requests wrongly. */
export class PreflightError extends Error {
  override name = 'PreflightError';
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

async function post(url: string, request: WireRequest, timeoutS: number): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutS * 1000),
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new PreflightError(
      `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function resultOf(answer: Answer, what: string): Record<string, unknown> {
  const messages = messagesOf(answer.headers.get('content-type') ?? undefined, answer.body);
  const response = messages.find(
    (m): m is Record<string, unknown> =>
      typeof m === 'object' && m !== null && ('result' in m || 'error' in m),
  );
  if (answer.status < 200 || answer.status > 299 || !response || !('result' in response)) {
    const error = response?.error as { code?: unknown; message?: unknown } | undefined;
    const rpc = error ? `: ${String(error.code)} ${String(error.message)}` : '';
    throw new PreflightError(`${what} failed with HTTP ${answer.status}${rpc}`);
  }
  return response.result as Record<string, unknown>;
}

const MAX_LIST_PAGES = 50;

/** Finds the tool in `tools/list` (following at most 50 pages) and returns its mirrored parameters. */
async function findTool(options: LoadOptions, base: RequestOptions): Promise<MirroredParam[]> {
  let cursor: string | undefined;
  const seen: string[] = [];
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const answer = await post(
      options.url,
      rpcRequest('tools/list', cursor ? { cursor } : {}, base),
      options.timeoutS,
    );
    const result = resultOf(answer, 'tools/list');
    const tools = Array.isArray(result.tools)
      ? (result.tools as { name?: unknown; inputSchema?: unknown }[])
      : [];
    const tool = tools.find((t) => t.name === options.tool);
    if (tool) return mirroredParams(tool.inputSchema);
    seen.push(...tools.map((t) => String(t.name)));
    if (typeof result.nextCursor !== 'string') break;
    cursor = result.nextCursor;
  }
  throw new PreflightError(
    `the server does not list a tool named ${JSON.stringify(options.tool)} (it lists: ${seen.join(', ') || 'none'})`,
  );
}

/** The prepared request and what the preflight learned. */
export interface Prepared {
  request: WireRequest;
  protocolVersion: string;
  /** The preflight call's outcome (an isError result is allowed: it is still an MCP answer). */
  first: Classified;
  /**
   * How long the preflight call took, in milliseconds: what one call of the run may be expected to take. Absent
   * when the request was prepared without a preflight (the benchmarks build theirs).
   */
  firstMs?: number;
}

/** Runs the preflight and builds the request the load phase repeats. */
export async function prepare(options: LoadOptions): Promise<Prepared> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let protocolVersion = options.protocolVersion;

  if (options.initialize && options.era === 'handshake') {
    const answer = await post(
      options.url,
      initializeRequest({ headers, ...(protocolVersion ? { protocolVersion } : {}) }),
      options.timeoutS,
    );
    const result = resultOf(answer, 'initialize');
    if (typeof result.protocolVersion === 'string') protocolVersion = result.protocolVersion;
    // A stateful server names a session; carry it so the load also works against one.
    const session = answer.headers.get('mcp-session-id');
    if (session) headers['mcp-session-id'] = session;
    const initialized = rpcNotification(
      'notifications/initialized',
      {},
      {
        era: 'handshake',
        headers,
        ...(protocolVersion ? { protocolVersion } : {}),
      },
    );
    const notified = await post(options.url, initialized, options.timeoutS);
    if (notified.status < 200 || notified.status > 299) {
      throw new PreflightError(`notifications/initialized failed with HTTP ${notified.status}`);
    }
  }
  const base: RequestOptions = { era: options.era, headers, ...(protocolVersion ? { protocolVersion } : {}) };
  if (options.initialize && options.era === 'stateless') {
    resultOf(
      await post(options.url, rpcRequest('server/discover', {}, base), options.timeoutS),
      'server/discover',
    );
  }
  const mirrored = await findTool(options, base);
  const request = toolCallRequest(options.tool, options.args, base, mirrored);
  const sentAt = performance.now();
  const answer = await post(options.url, request, options.timeoutS);
  const firstMs = Math.round((performance.now() - sentAt) * 100) / 100;
  const first = classify(answer.status, answer.headers.get('content-type') ?? undefined, answer.body);
  if (first.outcome !== 'ok' && first.outcome !== 'tool-error') {
    throw new PreflightError(`the first tools/call failed: ${first.detail ?? first.outcome}`);
  }
  return {
    request,
    protocolVersion: request.headers['mcp-protocol-version'] ?? protocolVersion ?? '',
    first,
    firstMs,
  };
}
